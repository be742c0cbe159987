import Foundation

// The transfer facts report.json records, owned by the report model: the fetch layer's structs
// (Fetching.FetchResponse and its parts) are mapped into these once, in `FetchedFactsMapping.swift`,
// so a change to a curl-facts struct cannot silently change the report format. The JSON keys are
// the property names; docs/report-format.md describes them.

/// A response header kept in the report; the name is lower-cased.
public struct HeaderField: Sendable, Equatable, Codable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name.lowercased()
        self.value = value
    }
}

/// Sizes of a response body.
public struct BodySize: Sendable, Equatable, Codable {
    /// Body bytes as they crossed the wire (before content decoding).
    public var transferred: Int
    /// Body bytes after content decoding (gzip, br ...), counted up to the cap.
    public var decoded: Int
    /// True when reading stopped at `limit`: the decoded body is larger than `limit`.
    public var truncated: Bool
    /// The cap that was in force.
    public var limit: Int

    public init(transferred: Int = 0, decoded: Int = 0, truncated: Bool = false, limit: Int = 0) {
        self.transferred = transferred
        self.decoded = decoded
        self.truncated = truncated
        self.limit = limit
    }
}

/// The TLS connection of a location and the server's certificate.
public struct TLSConnection: Sendable, Equatable, Codable {
    /// Where the root a verified chain ended in came from. The raw values are report.json's.
    public enum TrustAnchor: String, Sendable, Equatable, Codable {
        /// The system's CA store: the chain is publicly trusted.
        case systemStore
        /// The `--cacert` file: a private CA.
        case userFile
    }

    /// Negotiated protocol, such as "TLSv1.3", when known.
    public var version: String?
    /// OpenSSL's name of the negotiated cipher suite, when known.
    public var cipher: String?
    /// The leaf certificate, when it could be read (from this transfer or a non-verifying probe).
    public var certificate: ServerCertificate?
    /// The certificates the server sent after the leaf, in its order; nil when it sent none (or in
    /// reports written before they were recorded).
    public var chain: [ChainCertificate]?
    /// Which store the verified chain ended in; nil when it was not verified (or not recorded).
    public var trustAnchor: TrustAnchor?
    /// True when the certificate facts came from a second, non-verifying probe
    /// because the verifying handshake failed.
    public var certificateFromProbe: Bool
    /// curl's verification error text when the verifying handshake failed.
    public var verificationError: String?

    public init(version: String? = nil, cipher: String? = nil, certificate: ServerCertificate? = nil,
                chain: [ChainCertificate]? = nil, trustAnchor: TrustAnchor? = nil,
                certificateFromProbe: Bool = false, verificationError: String? = nil) {
        self.version = version
        self.cipher = cipher
        self.chain = chain
        self.trustAnchor = trustAnchor
        self.certificate = certificate
        self.certificateFromProbe = certificateFromProbe
        self.verificationError = verificationError
    }
}

/// The server's leaf certificate, and the audit's count of the days it has left.
public struct ServerCertificate: Sendable, Equatable, Codable {
    public var subject: String
    public var issuer: String
    /// DNS names (and IP addresses, as "IP:...") from subjectAltName.
    public var subjectAltNames: [String]
    public var notBefore: Date?
    public var notAfter: Date?
    /// Whole days from the run's start until `notAfter` (negative once expired); nil when `notAfter`
    /// is unknown. Counted by the audit (`CertificateCheck.daysLeft`), which owns the clock.
    public var daysLeft: Int?
    // The facts Apple's certificate rules judge (CertificatePolicyCheck); nil in reports written
    // before they were recorded, or when curl did not give them.
    /// The key's algorithm as OpenSSL names it ("rsaEncryption", "id-ecPublicKey").
    public var keyAlgorithm: String?
    /// The key's size in bits.
    public var keyBits: Int?
    /// The signature algorithm as OpenSSL names it ("sha256WithRSAEncryption").
    public var signatureAlgorithm: String?
    /// The Extended Key Usage purposes ("TLS Web Server Authentication"); nil without the extension.
    public var extendedKeyUsages: [String]?
    /// Whether the certificate has a subjectAltName extension.
    public var hasSubjectAltName: Bool?
    /// The validity period in days as Apple counts it (notBefore through notAfter inclusive, a part
    /// of a day counting as one).
    public var validityDays: Int?
    /// Signed Certificate Timestamps embedded in the certificate.
    public var embeddedSCTs: Int?

    public init(subject: String, issuer: String, subjectAltNames: [String], notBefore: Date?, notAfter: Date?, daysLeft: Int? = nil,
                keyAlgorithm: String? = nil, keyBits: Int? = nil, signatureAlgorithm: String? = nil, extendedKeyUsages: [String]? = nil,
                hasSubjectAltName: Bool? = nil, validityDays: Int? = nil, embeddedSCTs: Int? = nil) {
        self.subject = subject
        self.issuer = issuer
        self.subjectAltNames = subjectAltNames
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.daysLeft = daysLeft
        self.keyAlgorithm = keyAlgorithm
        self.keyBits = keyBits
        self.signatureAlgorithm = signatureAlgorithm
        self.extendedKeyUsages = extendedKeyUsages
        self.hasSubjectAltName = hasSubjectAltName
        self.validityDays = validityDays
        self.embeddedSCTs = embeddedSCTs
    }
}

/// A certificate the server sent after its leaf (an intermediate, or a root sent as well).
public struct ChainCertificate: Sendable, Equatable, Codable {
    public var subject: String
    public var issuer: String
    public var keyAlgorithm: String?
    public var keyBits: Int?
    public var signatureAlgorithm: String?

    public init(subject: String, issuer: String, keyAlgorithm: String? = nil, keyBits: Int? = nil, signatureAlgorithm: String? = nil) {
        self.subject = subject
        self.issuer = issuer
        self.keyAlgorithm = keyAlgorithm
        self.keyBits = keyBits
        self.signatureAlgorithm = signatureAlgorithm
    }
}

/// Phases of a transfer, in milliseconds from its start (curl's cumulative timers).
public struct TransferTimings: Sendable, Equatable, Codable {
    public var dnsMs: Double
    public var connectMs: Double
    public var tlsMs: Double
    public var firstByteMs: Double
    public var totalMs: Double
    /// True when the transfer used an already open connection.
    public var reusedConnection: Bool

    public init(dnsMs: Double = 0, connectMs: Double = 0, tlsMs: Double = 0, firstByteMs: Double = 0,
                totalMs: Double = 0, reusedConnection: Bool = false) {
        self.dnsMs = dnsMs
        self.connectMs = connectMs
        self.tlsMs = tlsMs
        self.firstByteMs = firstByteMs
        self.totalMs = totalMs
        self.reusedConnection = reusedConnection
    }
}

/// Why a transfer failed: curl's own code and text, kept verbatim, and what kind of failure it is.
public struct TransferFailure: Sendable, Equatable, Codable {
    /// The kind of failure, derived from the curl code. The raw values are report.json's.
    public enum Kind: String, Sendable, Codable {
        case dns, refused, timeout, reset, tls, tooLarge, other
    }
    public var kind: Kind
    /// The CURLcode number.
    public var curlCode: Int
    /// curl's error buffer text (or curl_easy_strerror when the buffer was empty).
    public var message: String

    public init(kind: Kind, curlCode: Int, message: String) {
        self.kind = kind
        self.curlCode = curlCode
        self.message = message
    }
}
