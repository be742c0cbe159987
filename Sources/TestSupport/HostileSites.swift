import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Servers that attack the auditor: a second nginx on loopback (its own CA, started once per test
/// process) serving oversized, compressed, slow and malformed files, a redirect that never ends and
/// a certificate with absurd fields; and, through nginx's stream module (TLS in front), a
/// `RawHTTPServer` that answers nothing, resets mid-body, sends megabytes of headers or puts markup
/// and terminal escapes in headers, bodies and redirect targets.
///
/// Kept apart from `LocalSites` so that its large files (a 60 MB body, a gzip bomb) are made only
/// when the hostile suite runs.
public final class HostileSites: @unchecked Sendable {
    /// The shared instance; the error says what is missing (nginx, its stream module, openssl).
    public static let shared: Result<HostileSites, Error> = Result { try HostileSites() }

    /// Hosts on the nginx `http` server.
    public static let huge = "huge.test", gzipBomb = "gzip-bomb.test", drip = "drip.test", deep = "deep.test",
                       badUTF8 = "bad-utf8.test", nul = "nul.test", endless = "endless.test", absurdCertificate = "absurd.test"
    /// Hosts on the raw server (TLS by nginx's stream module).
    public static let hang = "hang.test", reset = "reset.test", hugeHeaders = "huge-headers.test", injection = "inject.test"
    /// Raw hosts of the second round (issue 19): endless trailers after a chunked body, endless slow
    /// 1xx responses, a header section a byte at a time, a 1 MB header line, a 200 KB `Location`, a
    /// `Content-Length` no 64-bit count holds, a redirect to a loopback address the audit was not given.
    public static let endlessTrailers = "trailers.test", endlessInterim = "interim.test", slowHeaders = "slow-headers.test",
                       longHeaderLine = "long-header.test", longLocation = "long-location.test",
                       overflowingLength = "overflow-length.test", privateRedirect = "private-redirect.test"
    /// Any number of hosts (`N.heavy.test`, a wildcard certificate) serving a valid 1 MB document of
    /// ~56,000 rules at both locations: each takes seconds to check (see `ruleHeavyDocument`).
    public static func ruleHeavy(_ index: Int) -> String { "\(index).heavy.test" }
    /// The HTTP/2 host: status 200, then empty DATA frames that never end the stream.
    public static let endlessHTTP2 = "h2-endless.test"
    static let rawHosts = [hang, reset, hugeHeaders, injection, endlessTrailers, endlessInterim, slowHeaders, longHeaderLine,
                           longLocation, overflowingLength, privateRedirect]
    static let nginxHosts = [huge, gzipBomb, drip, deep, badUTF8, nul, endless, absurdCertificate]
    /// Every hostile host.
    public static let all = nginxHosts + rawHosts + [endlessHTTP2]

    /// Sizes, so tests can assert against them.
    public static let hugeBodyBytes = 60 << 20
    public static let hugeHeaderBytes = 8 << 20
    public static let nestingDepth = 100_000
    /// Subject alternative names on the absurd certificate (besides its own host).
    public static let absurdSANCount = 3000
    /// Organisational-unit attributes of 64 characters each in its subject.
    public static let absurdSubjectUnits = 300

    public let certificateAuthority: TestCertificateAuthority
    public let directory: URL
    public let httpPort: Int
    public let streamPort: Int
    /// nginx's TLS port in front of `http2` (ALPN h2).
    public let http2Port: Int
    public let raw: RawHTTPServer
    public let http2: RawHTTP2Server
    /// A server on 127.0.0.2 that `privateRedirect` points to; it must never be asked anything.
    public let secret: RawHTTPServer
    /// The uncompressed size of the gzip bomb.
    public let gzipBombInflatedBytes: UInt64
    private let process: Process

    private init() throws {
        guard let nginx = ShellCommand.which("nginx") else { throw HarnessError.missingProgram("nginx") }
        guard let streamModule = ["/usr/lib/nginx/modules/ngx_stream_module.so", "/usr/share/nginx/modules/ngx_stream_module.so"]
            .first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            throw HarnessError.missingProgram("nginx's stream module (libnginx-mod-stream)")
        }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-audit-hostile-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        let files = directory.appendingPathComponent("files")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        let authority = try TestCertificateAuthority(directory: directory.appendingPathComponent("ca"))
        certificateAuthority = authority

        // Files.
        let huge = files.appendingPathComponent("huge.json")
        guard FileManager.default.createFile(atPath: huge.path, contents: Data("{\"applinks\": \"".utf8)) else {
            throw HarnessError.serverDidNotStart("cannot create \(huge.path)")
        }
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: UInt64(Self.hugeBodyBytes))  // sparse: 60 MB without writing them
        try handle.close()
        let bomb = GzipBomb.make()
        gzipBombInflatedBytes = bomb.inflatedBytes
        try bomb.gzip.write(to: files.appendingPathComponent("bomb.json.gz"))
        try (String(repeating: "[", count: Self.nestingDepth) + String(repeating: "]", count: Self.nestingDepth))
            .write(to: files.appendingPathComponent("deep.json"), atomically: true, encoding: .utf8)
        try HostileContent.invalidUTF8.write(to: files.appendingPathComponent("bad-utf8.json"))
        try HostileContent.nulBytes.write(to: files.appendingPathComponent("nul.json"))
        try ScenarioFiles.good.write(to: files.appendingPathComponent("good.json"), atomically: true, encoding: .utf8)
        try HostileContent.ruleHeavyDocument().write(to: files.appendingPathComponent("heavy.json"), atomically: true, encoding: .utf8)

        // Certificates: one per nginx host, one for the raw hosts, and the absurd one.
        let now = Date(), day = 86_400.0
        func issue(_ host: String) throws -> TestCertificateAuthority.Issued {
            try authority.issue(commonName: host, subjectAltNames: [host], notBefore: now - day, notAfter: now + 90 * day)
        }
        let absurd = try Self.issueAbsurd(by: authority, host: Self.absurdCertificate)
        let rawCertificate = try authority.issue(
            commonName: Self.hang, subjectAltNames: Self.rawHosts + [Self.endlessHTTP2],
            notBefore: now - day, notAfter: now + 90 * day)

        let secret = try RawHTTPServer(address: "127.0.0.2") { _, _ in
            .respond(HostileContent.response(status: "200 OK", headers: [], body: Data("internal secret".utf8)))
        }
        self.secret = secret
        let secretURL = "http://127.0.0.2:\(secret.port)/internal-secret"
        raw = try RawHTTPServer { host, path in HostileContent.rawRoute(host: host, path: path, secretURL: secretURL) }
        http2 = try RawHTTP2Server(interval: 0.01)
        httpPort = try LocalSites.freePort()
        streamPort = try LocalSites.freePort()
        http2Port = try LocalSites.freePort()

        let wellKnown = "/.well-known/apple-app-site-association", root = "/apple-app-site-association"
        func both(_ block: String) -> String { "location = \(wellKnown) { \(block) }\n location = \(root) { \(block) }" }
        let hosts: [(String, TestCertificateAuthority.Issued, String)] = [
            (Self.huge, try issue(Self.huge), both("default_type application/json; alias \(files.path)/huge.json;")),
            (Self.gzipBomb, try issue(Self.gzipBomb),
             both("default_type application/json; add_header Content-Encoding gzip; alias \(files.path)/bomb.json.gz;")),
            (Self.drip, try issue(Self.drip), both("default_type application/json; limit_rate 1; alias \(files.path)/good.json;")),
            (Self.deep, try issue(Self.deep), both("default_type application/json; alias \(files.path)/deep.json;")),
            (Self.badUTF8, try issue(Self.badUTF8), both("default_type application/json; alias \(files.path)/bad-utf8.json;")),
            (Self.nul, try issue(Self.nul), both("default_type application/json; alias \(files.path)/nul.json;")),
            // Every hop a new URL, so only the hop limit ends it.
            (Self.endless, try issue(Self.endless), "location / { return 302 https://\(Self.endless)$uri/again; }"),
            (Self.absurdCertificate, absurd, both("default_type application/json; alias \(files.path)/good.json;")),
            ("*.heavy.test", try issue("*.heavy.test"), both("default_type application/json; alias \(files.path)/heavy.json;")),
        ]
        var servers = ""
        for (index, (host, issued, directives)) in hosts.enumerated() {
            servers += """
                  server {
                    listen 127.0.0.1:\(httpPort) ssl http2\(index == 0 ? " default_server" : "");
                    server_name \(host);
                    ssl_certificate \(issued.certificate);
                    ssl_certificate_key \(issued.key);
                    \(directives)
                  }

                """
        }
        let config = """
            load_module \(streamModule);
            daemon off;
            master_process off;
            worker_processes 1;
            pid \(directory.path)/nginx.pid;
            error_log \(directory.path)/error.log warn;
            events { worker_connections 1024; }
            http {
              access_log off;
              \(LocalSites.temporaryPaths(in: directory))
              default_type application/octet-stream;
              server_tokens off;
              ssl_protocols TLSv1.2 TLSv1.3;
            \(servers)
            }
            stream {
              server {
                listen 127.0.0.1:\(streamPort) ssl;
                ssl_certificate \(rawCertificate.certificate);
                ssl_certificate_key \(rawCertificate.key);
                proxy_pass 127.0.0.1:\(raw.port);
              }
              server {
                listen 127.0.0.1:\(http2Port) ssl;
                ssl_certificate \(rawCertificate.certificate);
                ssl_certificate_key \(rawCertificate.key);
                ssl_alpn h2;
                proxy_pass 127.0.0.1:\(http2.port);
              }
            }
            """
        let configPath = directory.appendingPathComponent("nginx.conf")
        try config.write(to: configPath, atomically: true, encoding: .utf8)
        // The same watchdog as LocalSites: nginx dies with the test process.
        process = try LocalSites.startUnderWatchdog(nginx: nginx, config: configPath, directory: directory)
        try LocalSites.waitForPort(httpPort, process: process, log: directory.appendingPathComponent("error.log"))
        try LocalSites.waitForPort(streamPort, process: process, log: directory.appendingPathComponent("error.log"))
        try LocalSites.waitForPort(http2Port, process: process, log: directory.appendingPathComponent("error.log"))
    }

    /// `--connect-to` entries sending the raw hosts to the stream port, the HTTP/2 host to its port and
    /// the rest to nginx. One per host, no catch-all: a redirect to any other name or address is not
    /// routed, as in a real run.
    public var connectToEntries: [String] {
        Self.rawHosts.map { "\($0):443:127.0.0.1:\(streamPort)" } + ["\(Self.endlessHTTP2):443:127.0.0.1:\(http2Port)"]
            + Self.nginxHosts.map { "\($0):443:127.0.0.1:\(httpPort)" }
    }

    /// `--connect-to` arguments for the rule-heavy hosts `ruleHeavy(0..<count)`.
    public func connectToArguments(ruleHeavy count: Int) -> [String] {
        (0..<count).flatMap { ["--connect-to", "\(Self.ruleHeavy($0)):443:127.0.0.1:\(httpPort)"] }
    }

    /// `connectToEntries` as command-line arguments.
    public var connectToArguments: [String] { connectToEntries.flatMap { ["--connect-to", $0] } }

    /// A certificate for `host` whose subject is about 20 KB (hundreds of OU attributes, markup and
    /// terminal escapes among them) with thousands of subject alternative names; valid and trusted.
    /// Signed with `openssl x509 -req` so that the subject is kept as written.
    static func issueAbsurd(by authority: TestCertificateAuthority, host: String) throws -> TestCertificateAuthority.Issued {
        guard let openssl = ShellCommand.which("openssl") else { throw HarnessError.missingProgram("openssl") }
        let folder = authority.directory
        let key = folder.appendingPathComponent("absurd.key").path
        let request = folder.appendingPathComponent("absurd.csr").path
        let certificate = folder.appendingPathComponent("absurd.pem").path
        let extensions = folder.appendingPathComponent("absurd.ext").path
        let units = (0..<absurdSubjectUnits).map { "/OU=" + String(format: "unit-%04d-", $0) + String(repeating: "x", count: 54) }.joined()
        let subject = "/CN=\(host)/O=\(HostileContent.subjectScript)/L=\(HostileContent.subjectImage)/ST=\(HostileContent.subjectEscapes)" + units
        let names = ["DNS:\(host)"] + (0..<absurdSANCount).map { "DNS:name-\($0).\(host)" }
        // serverAuth: a leaf Apple accepts, so only the absurd subject and names are under test.
        try "subjectAltName=\(names.joined(separator: ","))\nextendedKeyUsage=serverAuth\n".write(toFile: extensions, atomically: true, encoding: .utf8)
        try ShellCommand.run(openssl, ["req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                                       "-utf8", "-keyout", key, "-out", request, "-subj", subject])
        try ShellCommand.run(openssl, ["x509", "-req", "-in", request, "-CA", authority.certificatePath,
                                       "-CAkey", folder.appendingPathComponent("ca.key").path, "-CAcreateserial",
                                       "-days", "90", "-sha256", "-extfile", extensions, "-out", certificate])
        return TestCertificateAuthority.Issued(certificate: certificate, key: key)
    }
}
