import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real squid on a free loopback port, as a corporate HTTPS proxy: CONNECT tunnels for loopback
/// clients, names resolved from its own hosts file (so a name the tool cannot resolve leads
/// somewhere through the proxy alone), optionally basic authentication (`basic_ncsa_auth` with an
/// htpasswd file made by `openssl passwd` at start). Its folder (config, logs, hosts file) is
/// temporary; a watchdog kills squid and removes the folder once the test process is gone.
public final class SquidProxy: @unchecked Sendable {
    /// The port squid listens on.
    public let port: Int
    public let directory: URL
    private let process: Process

    /// The proxy URL to give the tool (without credentials).
    public var url: String { "http://127.0.0.1:\(port)" }

    /// Starts squid. `hosts`: name → address lines of its hosts file. `user`: when given, every
    /// request must carry these basic credentials (else 407).
    public init(hosts: [String: String] = [:], user: (name: String, password: String)? = nil) throws {
        guard let squid = ShellCommand.which("squid") else { throw HarnessError.missingProgram("squid") }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-audit-squid-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // Squid started as root works as its own user (Debian's `proxy`), which writes the logs here.
        chmod(directory.path, 0o777)
        let path = directory.path
        try hosts.map { "\($0.value) \($0.key)" }.joined(separator: "\n").appending("\n")
            .write(to: directory.appendingPathComponent("hosts"), atomically: true, encoding: .utf8)
        var auth = ""
        if let user {
            let hash = try ShellCommand.run(ShellCommand.which("openssl") ?? "/usr/bin/openssl", ["passwd", "-apr1", user.password]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let file = directory.appendingPathComponent("htpasswd")
            try "\(user.name):\(hash)\n".write(to: file, atomically: true, encoding: .utf8)
            chmod(file.path, 0o644)
            auth = """
                auth_param basic program /usr/lib/squid/basic_ncsa_auth \(file.path)
                acl authenticated proxy_auth REQUIRED
                http_access deny !authenticated

                """
        }
        port = try LocalSites.freePort()
        let config = """
            http_port 127.0.0.1:\(port)
            pid_filename \(path)/squid.pid
            cache_log \(path)/cache.log
            access_log stdio:\(path)/access.log
            cache deny all
            cache_mem 8 MB
            coredump_dir \(path)
            netdb_filename none
            pinger_enable off
            hosts_file \(path)/hosts
            shutdown_lifetime 0 seconds
            visible_hostname aasa-audit-test
            \(auth)http_access allow localhost
            http_access deny all

            """
        let configFile = directory.appendingPathComponent("squid.conf")
        try config.write(to: configFile, atomically: true, encoding: .utf8)
        chmod(configFile.path, 0o644)
        let watchdog = """
            "$1" -N -f "$2" & child=$!
            while kill -0 "$4" 2>/dev/null && kill -0 "$child" 2>/dev/null; do sleep 0.2; done
            kill -9 "$child" 2>/dev/null; wait "$child" 2>/dev/null; rm -rf "$3"
            """
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", watchdog, "watchdog", squid, configFile.path, path, String(getpid())]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Squid takes a moment to read its configuration and open its port.
        for _ in 0..<200 where !LocalSites.canConnect(port) && process.isRunning { usleep(50_000) }
        guard LocalSites.canConnect(port) else { throw HarnessError.serverDidNotStart(cacheLog()) }
    }

    /// Squid's access log: one line per request (`TCP_TUNNEL/200 ... CONNECT host:port`).
    public func accessLog() -> String {
        (try? String(contentsOf: directory.appendingPathComponent("access.log"), encoding: .utf8)) ?? ""
    }

    /// Squid's own log, for a test that fails to start it.
    public func cacheLog() -> String {
        (try? String(contentsOf: directory.appendingPathComponent("cache.log"), encoding: .utf8)) ?? ""
    }
}
