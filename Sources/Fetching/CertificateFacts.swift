import Foundation

/// The leaf certificate as curl reports it.
public struct CertificateFacts: Sendable, Equatable {
    public var subject: String
    public var issuer: String
    /// DNS names (and IP addresses, as "IP:...") from subjectAltName.
    public var subjectAltNames: [String]
    public var notBefore: Date?
    public var notAfter: Date?
    /// The key's algorithm as OpenSSL names it ("rsaEncryption", "id-ecPublicKey"), when given.
    public var keyAlgorithm: String?
    /// The key's size in bits (an RSA modulus, an EC curve's order), when known.
    public var keyBits: Int?
    /// The signature algorithm as OpenSSL names it ("sha256WithRSAEncryption", "ecdsa-with-SHA256").
    public var signatureAlgorithm: String?
    /// The Extended Key Usage purposes as OpenSSL names them ("TLS Web Server Authentication");
    /// nil when the certificate has no EKU extension.
    public var extendedKeyUsages: [String]?
    /// True when the certificate has a subjectAltName extension at all (`subjectAltNames` may still
    /// hold no DNS name).
    public var hasSubjectAltName: Bool
    /// Signed Certificate Timestamps embedded in the certificate (the CT precertificate SCT list
    /// extension); 0 when it has none. SCTs sent in the handshake or an OCSP response are not counted.
    public var embeddedSCTs: Int

    public init(subject: String, issuer: String, subjectAltNames: [String], notBefore: Date?, notAfter: Date?,
                keyAlgorithm: String? = nil, keyBits: Int? = nil, signatureAlgorithm: String? = nil,
                extendedKeyUsages: [String]? = nil, hasSubjectAltName: Bool? = nil, embeddedSCTs: Int = 0) {
        self.subject = subject
        self.issuer = issuer
        self.subjectAltNames = subjectAltNames
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.keyAlgorithm = keyAlgorithm
        self.keyBits = keyBits
        self.signatureAlgorithm = signatureAlgorithm
        self.extendedKeyUsages = extendedKeyUsages
        self.hasSubjectAltName = hasSubjectAltName ?? !subjectAltNames.isEmpty
        self.embeddedSCTs = embeddedSCTs
    }
}

/// A certificate the server sent after its leaf (an intermediate, or a root it sends as well).
public struct ChainCertificateFacts: Sendable, Equatable {
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
