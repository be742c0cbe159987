import Foundation

/// A throw-away certificate authority made with `openssl` at test time, and the leaf
/// certificates the scenarios need (valid, expired, not yet valid, wrong host, self-signed).
public final class TestCertificateAuthority {
    /// A certificate and its private key, as PEM files.
    public struct Issued: Sendable {
        public var certificate: String
        public var key: String
    }

    public let directory: URL
    /// The CA certificate (PEM): what `--cacert` points at.
    public let certificatePath: String
    private let openssl: String
    private var serial = 0

    /// Creates a CA in `directory`.
    public init(directory: URL) throws {
        guard let openssl = ShellCommand.which("openssl") else { throw HarnessError.missingProgram("openssl") }
        self.openssl = openssl
        self.directory = directory
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("issued"), withIntermediateDirectories: true)
        certificatePath = directory.appendingPathComponent("ca.pem").path
        try "".write(to: directory.appendingPathComponent("index.txt"), atomically: true, encoding: .utf8)
        try "1000\n".write(to: directory.appendingPathComponent("serial"), atomically: true, encoding: .utf8)
        let config = """
            [ ca ]
            default_ca = test_ca
            [ test_ca ]
            dir = \(directory.path)
            database = $dir/index.txt
            new_certs_dir = $dir/issued
            serial = $dir/serial
            default_md = sha256
            policy = policy_any
            copy_extensions = copy
            unique_subject = no
            [ policy_any ]
            commonName = supplied
            [ server_leaf ]
            extendedKeyUsage = serverAuth
            [ no_eku_leaf ]
            basicConstraints = CA:FALSE
            """
        try config.write(to: directory.appendingPathComponent("ca.cnf"), atomically: true, encoding: .utf8)
        try ShellCommand.run(openssl, [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", path("ca.key"), "-out", certificatePath, "-days", "30",
            "-subj", "/O=aasa-audit tests/CN=aasa-audit throw-away test CA",
        ])
    }

    /// A leaf's key.
    public enum KeyType: Sendable {
        /// ECDSA P-256.
        case ec
        /// RSA of this many bits.
        case rsa(Int)
    }

    /// Issues a leaf certificate for `commonName` with the given SANs and validity window. By
    /// default it is one Apple accepts (support.apple.com/103769): an EC P-256 key, SHA-256, the
    /// serverAuth Extended Key Usage; `serverAuth: false`, `digest: "sha1"` or `key: .rsa(1024)`
    /// make one Apple refuses. An empty `subjectAltNames` names the host only in the Common Name.
    public func issue(commonName: String, subjectAltNames: [String], notBefore: Date, notAfter: Date,
                      key keyType: KeyType = .ec, digest: String = "sha256", serverAuth: Bool = true) throws -> Issued {
        serial += 1
        let base = "leaf-\(serial)"
        let key = path("\(base).key"), request = path("\(base).csr"), certificate = path("\(base).pem")
        let newKey: [String]
        switch keyType {
        case .ec: newKey = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"]
        case .rsa(let bits): newKey = ["-newkey", "rsa:\(bits)"]
        }
        var arguments = ["req", "-new"] + newKey + ["-nodes", "-keyout", key, "-out", request, "-subj", "/CN=\(commonName)"]
        if !subjectAltNames.isEmpty {
            arguments += ["-addext", "subjectAltName=" + subjectAltNames.map { "DNS:\($0)" }.joined(separator: ",")]
        }
        try ShellCommand.run(openssl, arguments)
        try ShellCommand.run(openssl, [
            "ca", "-batch", "-notext", "-config", path("ca.cnf"), "-cert", certificatePath, "-keyfile", path("ca.key"),
            "-in", request, "-out", certificate, "-md", digest, "-extensions", serverAuth ? "server_leaf" : "no_eku_leaf",
            "-startdate", Self.asn1Time(notBefore), "-enddate", Self.asn1Time(notAfter),
        ])
        return Issued(certificate: certificate, key: key)
    }

    /// A self-signed certificate for `name`, trusted by nobody.
    public func selfSigned(name: String) throws -> Issued {
        serial += 1
        let key = path("self-\(serial).key"), certificate = path("self-\(serial).pem")
        try ShellCommand.run(openssl, [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", key, "-out", certificate, "-days", "30", "-subj", "/CN=\(name)",
            "-addext", "subjectAltName=DNS:\(name)", "-addext", "extendedKeyUsage=serverAuth",
        ])
        return Issued(certificate: certificate, key: key)
    }

    /// Signs `content` as CMS (DER), the way iOS 8 wanted signed AASA files.
    public func signCMS(content: String, signer: Issued) throws -> Data {
        try signCMS(bytes: Data(content.utf8), signer: signer)
    }

    /// Signs `bytes` as CMS (DER): a profile whose content is a binary property list.
    public func signCMS(bytes: Data, signer: Issued) throws -> Data {
        let input = path("cms-\(UUID().uuidString).json"), output = input + ".der"
        try bytes.write(to: URL(fileURLWithPath: input))
        try ShellCommand.run(openssl, [
            "cms", "-sign", "-binary", "-nodetach", "-in", input, "-signer", signer.certificate, "-inkey", signer.key,
            "-outform", "DER", "-out", output,
        ])
        return try Data(contentsOf: URL(fileURLWithPath: output))
    }

    private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// `YYYYMMDDHHMMSSZ`, the form `openssl ca -startdate/-enddate` takes.
    static func asn1Time(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMddHHmmss'Z'"
        return formatter.string(from: date)
    }
}

/// Why the test harness could not set up a scenario.
public enum HarnessError: Error, CustomStringConvertible {
    case missingProgram(String)
    case serverDidNotStart(String)
    case binaryNotFound(String)
    /// Headless Chromium did not render the page (it exits 0 with no output when a page fails to load).
    case nothingRendered(page: String, why: String)
    /// A test could not make the file system it needs (a small tmpfs, a read-only mount).
    case scratchFileSystem(String)

    public var description: String {
        switch self {
        case .missingProgram(let name): return "\(name) is not installed (run `make test-deps`)"
        case .serverDidNotStart(let log): return "nginx did not start: \(log)"
        case .binaryNotFound(let path): return "the aasa-audit binary was not found at \(path); build it first (`swift build`)"
        case .nothingRendered(let page, let why): return "headless Chromium did not render \(page): \(why)"
        case .scratchFileSystem(let why): return "cannot make the test's file system: \(why)"
        }
    }
}
