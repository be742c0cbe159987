import CCMS

/// A certificate an APK is signed with: its SHA-256 fingerprint, as `assetlinks.json` lists it in
/// `sha256_cert_fingerprints`, and its subject.
public struct SigningCertificate: Sendable, Equatable, Hashable, Codable {
    /// The SHA-256 of the certificate's DER encoding, upper-case hex pairs joined by colons.
    public var sha256: String
    /// The subject in RFC 2253 form (`CN=Shop,O=Big Shop`), nil when OpenSSL cannot print it.
    public var subject: String?

    public init(sha256: String, subject: String?) {
        self.sha256 = sha256
        self.subject = subject
    }

    /// The certificate in DER `bytes`, called `source` in errors.
    static func decode(_ bytes: [UInt8], source: String) throws(APKReadError) -> SigningCertificate {
        ERR_clear_error()
        defer { ERR_clear_error() }
        guard let certificate = bytes.withUnsafeBufferPointer({ ccms_read_certificate($0.baseAddress, $0.count) }) else {
            throw APKReadError(source: source, code: .malformedCertificate, reason: "has a signing certificate (\(bytes.count) bytes) that is not a DER X.509 certificate")
        }
        defer { X509_free(certificate) }
        var digest = [UInt8](repeating: 0, count: 32)
        bytes.withUnsafeBufferPointer { input in
            digest.withUnsafeMutableBufferPointer { output in
                if let base = input.baseAddress, let out = output.baseAddress { ccms_sha256(base, input.count, out) }
            }
        }
        return SigningCertificate(sha256: fingerprint(digest), subject: subject(of: certificate))
    }

    /// The fingerprint of an OpenSSL certificate (the v1 signer's, from its PKCS #7 envelope).
    static func of(_ certificate: OpaquePointer) -> SigningCertificate? {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        guard X509_digest(certificate, EVP_sha256(), &digest, &length) == 1, length == 32 else { return nil }
        return SigningCertificate(sha256: fingerprint(digest), subject: subject(of: certificate))
    }

    static func fingerprint(_ digest: [UInt8]) -> String {
        digest.map { byte in
            let text = String(byte, radix: 16, uppercase: true)
            return byte < 16 ? "0" + text : text
        }.joined(separator: ":")
    }

    static func subject(of certificate: OpaquePointer) -> String? {
        guard let name = X509_get_subject_name(certificate), let memory = BIO_new(BIO_s_mem()) else { return nil }
        defer { BIO_free(memory) }
        guard ccms_print_name(memory, name) >= 0 else { return nil }
        var data: UnsafeMutablePointer<CChar>?
        let count = ccms_memory_contents(memory, &data)
        guard count > 0, let data else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: data, count: Int(count)), as: UTF8.self)
    }
}

/// How an APK is signed: every scheme found, and the signers of the one Android verifies it by.
public struct APKSigning: Sendable, Equatable, Codable {
    /// An APK signature scheme.
    public enum Scheme: String, Sendable, Equatable, Codable, Comparable {
        /// The JAR signature (`META-INF/*.RSA|DSA|EC`), the only one before Android 7.
        case v1
        /// APK Signature Scheme v2 (block id 0x7109871a), Android 7 and later.
        case v2
        /// APK Signature Scheme v3 (block id 0xf05368c0), Android 9 and later; carries key rotation.
        case v3

        public static func < (lhs: Scheme, rhs: Scheme) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// One signer: its certificate chain as the APK carries it (the first is the signer's own).
    public struct Signer: Sendable, Equatable, Codable {
        public var certificates: [SigningCertificate]
        /// For a v3 signer: the platform versions it applies to (a v3 APK may have one signer per range).
        public var minSdkVersion: UInt32?
        public var maxSdkVersion: UInt32?
        /// The signer's own certificate, whose fingerprint `assetlinks.json` must list.
        public var certificate: SigningCertificate { certificates[0] }
    }

    /// Every scheme the APK is signed with, oldest first.
    public var schemes: [Scheme]
    /// The scheme Android verifies the APK by on a current device: the newest present (v3, then v2, then v1).
    public var scheme: Scheme
    /// The signers of that scheme; each has at least one certificate.
    public var signers: [Signer]

    /// The distinct fingerprints of the signers' own certificates, in signer order.
    public var fingerprints: [String] {
        var seen = Set<String>()
        return signers.map(\.certificate.sha256).filter { seen.insert($0).inserted }
    }
}
