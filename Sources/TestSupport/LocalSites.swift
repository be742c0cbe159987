import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real nginx on a free loopback port serving every `Scenario`, plus a port that accepts
/// connections and never answers and a port that refuses them. Started once per test process.
public final class LocalSites: @unchecked Sendable {
    /// The shared instance; the error says what is missing (nginx, openssl) when it cannot start.
    public static let shared: Result<LocalSites, Error> = Result { try LocalSites() }

    /// The port nginx listens on (TLS, every scenario by SNI).
    public let port: Int
    /// A port whose listener accepts TCP connections and never sends a byte.
    public let silentPort: Int
    /// A loopback port nothing listens on.
    public let closedPort: Int
    /// The port of `Scenarios.noForwardSecrecy`, its own listener.
    public let noForwardSecrecyPort: Int
    public let certificateAuthority: TestCertificateAuthority
    public let directory: URL
    private let process: Process
    private let silentSocket: Int32

    private init() throws {
        guard let nginx = ShellCommand.which("nginx") else { throw HarnessError.missingProgram("nginx") }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-audit-sites-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        let files = directory.appendingPathComponent("files")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        certificateAuthority = try TestCertificateAuthority(directory: directory.appendingPathComponent("ca"))

        let now = Date(), day = 86_400.0
        let fallback = try certificateAuthority.issue(commonName: "default.test", subjectAltNames: ["default.test"],
                                                      notBefore: now - day, notAfter: now + 60 * day)
        try ScenarioFiles.good.write(to: files.appendingPathComponent("good.json"), atomically: true, encoding: .utf8)
        try ScenarioFiles.other.write(to: files.appendingPathComponent("other.json"), atomically: true, encoding: .utf8)
        try ScenarioFiles.html.write(to: files.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
        try ScenarioFiles.invalidJSON.write(to: files.appendingPathComponent("invalid.json"), atomically: true, encoding: .utf8)
        try ScenarioFiles.partner.write(to: files.appendingPathComponent("partner.json"), atomically: true, encoding: .utf8)
        try ScenarioFiles.drifted.write(to: files.appendingPathComponent("drifted.json"), atomically: true, encoding: .utf8)
        try ScenarioFiles.badSchema.write(to: files.appendingPathComponent("bad-schema.json"), atomically: true, encoding: .utf8)
        try ScenarioFiles.arrayRoot.write(to: files.appendingPathComponent("array.json"), atomically: true, encoding: .utf8)
        try ScenarioFiles.large().write(to: files.appendingPathComponent("large.json"), atomically: true, encoding: .utf8)
        for (name, content) in [("assetlinks.json", ScenarioFiles.assetLinks), ("assetlinks-lowercase.json", ScenarioFiles.assetLinksLowercase),
                                ("assetlinks-debug.json", ScenarioFiles.assetLinksDebugOnly), ("assetlinks-invalid.json", ScenarioFiles.assetLinksInvalid),
                                ("assetlinks-include.json", ScenarioFiles.assetLinksIncludingGood),
                                ("assetlinks-include-broken.json", ScenarioFiles.assetLinksIncludingBroken),
                                ("include-nested.json", ScenarioFiles.includedNested),
                                ("dal-release.json", ScenarioFiles.googleDALRelease), ("dal-wrong-type.json", ScenarioFiles.googleDALWrongType)] {
            try content.write(to: files.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        try certificateAuthority.signCMS(content: ScenarioFiles.good, signer: fallback)
            .write(to: files.appendingPathComponent("signed.der"))

        port = try Self.freePort()
        closedPort = try Self.freePort()
        noForwardSecrecyPort = try Self.freePort()
        (silentSocket, silentPort) = try Self.silentListener()

        var servers = ""
        servers += Self.serverBlock(port: port, host: "default.test", issued: fallback, directives: "location / { return 421; }", isDefault: true)
        // Every certificate is made before any is served; the function must not capture self.
        let authority = certificateAuthority
        func issue(_ scenario: Scenario) throws -> TestCertificateAuthority.Issued {
            let issued: TestCertificateAuthority.Issued
            switch scenario.certificate {
            case .valid:
                issued = try authority.issue(commonName: scenario.host, subjectAltNames: [scenario.host],
                                                        notBefore: now - day, notAfter: now + 90 * day)
            case .noServerAuth:
                issued = try authority.issue(commonName: scenario.host, subjectAltNames: [scenario.host],
                                                        notBefore: now - day, notAfter: now + 90 * day, serverAuth: false)
            case .sha1:
                issued = try authority.issue(commonName: scenario.host, subjectAltNames: [scenario.host],
                                                        notBefore: now - day, notAfter: now + 90 * day, digest: "sha1")
            case .validForDays(let days):
                issued = try authority.issue(commonName: scenario.host, subjectAltNames: [scenario.host],
                                                        notBefore: now - day, notAfter: now - day + Double(days) * day)
            case .commonNameOnly:
                issued = try authority.issue(commonName: scenario.host, subjectAltNames: [],
                                                        notBefore: now - day, notAfter: now + 90 * day)
            case .rsa(let bits):
                issued = try authority.issue(commonName: scenario.host, subjectAltNames: [scenario.host],
                                                        notBefore: now - day, notAfter: now + 90 * day, key: .rsa(bits))
            case .expired:
                issued = try authority.issue(commonName: scenario.host, subjectAltNames: [scenario.host],
                                                        notBefore: now - 400 * day, notAfter: now - 10 * day)
            case .notYetValid:
                issued = try authority.issue(commonName: scenario.host, subjectAltNames: [scenario.host],
                                                        notBefore: now + 10 * day, notAfter: now + 400 * day)
            case .expiringInDays(let days):
                issued = try authority.issue(commonName: scenario.host, subjectAltNames: [scenario.host],
                                                        notBefore: now - 80 * day, notAfter: now + Double(days) * day + 3600)
            case .wrongHost:
                issued = try authority.issue(commonName: "other.test", subjectAltNames: ["other.test", "www.other.test"],
                                                        notBefore: now - day, notAfter: now + 90 * day)
            case .selfSigned:
                issued = try authority.selfSigned(name: scenario.host)
            }
            return issued
        }
        for scenario in Scenarios.all {
            servers += Self.serverBlock(port: port, host: scenario.host, issued: try issue(scenario),
                                       directives: scenario.directives.replacingOccurrences(of: "FILES", with: files.path),
                                       isDefault: false)
        }
        let noForwardSecrecyPort = self.noForwardSecrecyPort, port = self.port
        servers += Self.serverBlock(port: noForwardSecrecyPort, host: Scenarios.noForwardSecrecy.host, issued: try issue(Scenarios.noForwardSecrecy),
                                   directives: Scenarios.noForwardSecrecy.directives.replacingOccurrences(of: "FILES", with: files.path),
                                   isDefault: true)
        servers += Self.serverBlock(port: port, host: Scenarios.familiesOverIPv6.host, issued: try issue(Scenarios.familiesOverIPv6),
                                   directives: Scenarios.familiesOverIPv6.directives, isDefault: true, address: "[::1]")
        let config = """
            daemon off;
            master_process off;
            worker_processes 1;
            pid \(directory.path)/nginx.pid;
            error_log \(directory.path)/error.log warn;
            events { worker_connections 4096; }
            http {
              log_format handshakes '$ssl_server_name $request_uri $status conn=$connection reused=$ssl_session_reused n=$connection_requests ua="$http_user_agent"';
              access_log \(directory.path)/access.log handshakes;
              \(Self.temporaryPaths(in: directory))
              default_type application/octet-stream;
              server_tokens off;
              keepalive_requests 1000;
              ssl_protocols TLSv1.2 TLSv1.3;
            \(servers)
            }
            """
        let configPath = directory.appendingPathComponent("nginx.conf")
        try config.write(to: configPath, atomically: true, encoding: .utf8)

        process = try Self.startUnderWatchdog(nginx: nginx, config: configPath, directory: directory)
        try Self.waitForPort(port, process: process, log: directory.appendingPathComponent("error.log"))
    }

    /// nginx's temporary folders inside a throw-away prefix `directory` (its defaults are system
    /// paths a test may not write to), for the `http` block of a test server's configuration.
    static func temporaryPaths(in directory: URL) -> String {
        let path = directory.path
        return "client_body_temp_path \(path)/tmp-body; proxy_temp_path \(path)/tmp-proxy; "
            + "fastcgi_temp_path \(path)/tmp-fastcgi; uwsgi_temp_path \(path)/tmp-uwsgi; scgi_temp_path \(path)/tmp-scgi;"
    }

    /// Starts nginx with `config`, its prefix and error log in `directory`. Swift Testing ends the
    /// process without running atexit handlers, so nginx runs under a watchdog shell that kills it
    /// (SIGKILL: single-process nginx blocks SIGTERM) and removes `directory` once the test process
    /// is gone.
    static func startUnderWatchdog(nginx: String, config: URL, directory: URL) throws -> Process {
        let watchdog = """
            "$1" -e "$2" -c "$3" -p "$4" & child=$!
            while kill -0 "$5" 2>/dev/null && kill -0 "$child" 2>/dev/null; do sleep 0.2; done
            kill -9 "$child" 2>/dev/null; wait "$child" 2>/dev/null; rm -rf "$4"
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", watchdog, "watchdog", nginx, directory.appendingPathComponent("error.log").path,
                             config.path, directory.path, String(getpid())]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// `--connect-to` arguments that send every scenario host to this nginx (and the two special
    /// hosts `silent.test` and `refused.test` to the silent and closed ports).
    public var connectToArguments: [String] {
        ["--connect-to", "silent.test:443:127.0.0.1:\(silentPort)",
         "--connect-to", "refused.test:443:127.0.0.1:\(closedPort)",
         "--connect-to", "\(Scenarios.noForwardSecrecy.host):443:127.0.0.1:\(noForwardSecrecyPort)",
         "--connect-to", "::127.0.0.1:\(port)"]
    }

    /// Arguments that reach `Scenarios.families` over both families, as a name with an A and an AAAA
    /// record would be: port 443 sent to this nginx's port, whose address list is `127.0.0.1,::1`
    /// (`--resolve`, curl's syntax). Without `connectToArguments`, whose catch-all would win.
    public var familyArguments: [String] {
        let host = Scenarios.families.host
        return ["--connect-to", "\(host):443:\(host):\(port)", "--resolve", "\(host):\(port):127.0.0.1,::1"]
    }

    /// `--apple-cdn` pointing at the `cdn.test` scenario, which plays Apple's CDN (reached through
    /// `connectToArguments` like every other host).
    public var appleCDNArguments: [String] { ["--apple-cdn", Scenarios.appleCDNBase] }

    /// The same routing as plain `HOST:PORT:CONNECT_HOST:CONNECT_PORT` entries, for the fetch layer.
    public var connectToEntries: [String] {
        stride(from: 1, to: connectToArguments.count, by: 2).map { connectToArguments[$0] }
    }

    /// nginx's access log: one line per request with the connection number (to count handshakes)
    /// and, last, the User-Agent the client sent (`ua="..."`).
    public func accessLog() -> String {
        (try? String(contentsOf: directory.appendingPathComponent("access.log"), encoding: .utf8)) ?? ""
    }

    private static func serverBlock(port: Int, host: String, issued: TestCertificateAuthority.Issued, directives: String, isDefault: Bool,
                                    address: String = "127.0.0.1") -> String {
        """
          server {
            listen \(address):\(port) ssl http2\(isDefault ? " default_server" : "");
            server_name \(host);
            ssl_certificate \(issued.certificate);
            ssl_certificate_key \(issued.key);
            \(directives)
          }

        """
    }

    static func waitForPort(_ port: Int, process: Process, log logFile: URL) throws {
        for _ in 0..<100 {
            if canConnect(port) { return }
            if !process.isRunning { break }
            usleep(50_000)
        }
        let log = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
        throw HarnessError.serverDidNotStart(log)
    }

    static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    static func canConnect(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    /// A free loopback port (bound to port 0, read back, released).
    static func freePort() throws -> Int {
        let (fd, port) = try boundSocket()
        close(fd)
        return port
    }

    /// A listening socket that is never accepted from: the kernel completes TCP handshakes, then silence.
    static func silentListener() throws -> (Int32, Int) {
        let (fd, port) = try boundSocket()
        guard listen(fd, 128) == 0 else { throw HarnessError.serverDidNotStart("listen failed: errno \(errno)") }
        return (fd, port)
    }

    private static func boundSocket() throws -> (Int32, Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError.serverDidNotStart("socket failed: errno \(errno)") }
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { close(fd); throw HarnessError.serverDidNotStart("bind failed: errno \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }
}
