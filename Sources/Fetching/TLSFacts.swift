/// Facts about the TLS connection and the server's certificate.
public struct TLSFacts: Sendable, Equatable {
    /// Where the root a verified chain ended in came from.
    public enum TrustAnchor: String, Sendable, Equatable {
        /// The system's CA store (the roots an OS ships): the chain is publicly trusted.
        case systemStore
        /// The `--cacert` file: a private CA, as one a user or an administrator adds to a device.
        case userFile
    }

    /// Negotiated protocol, such as "TLSv1.3", when known.
    public var version: String?
    /// OpenSSL's name of the negotiated cipher suite ("ECDHE-ECDSA-AES128-GCM-SHA256"), when known.
    public var cipher: String?
    /// The leaf certificate, when it could be read (from this transfer or a non-verifying probe).
    public var certificate: CertificateFacts?
    /// The certificates the server sent after the leaf, in its order.
    public var chain: [ChainCertificateFacts]
    /// Which store the verified chain ended in; nil when the chain was not verified (a failed
    /// handshake, a probe) or libcurl's default store was used.
    public var trustAnchor: TrustAnchor?
    /// True when the certificate facts came from a second, non-verifying probe
    /// because the verifying handshake failed.
    public var certificateFromProbe: Bool
    /// curl's verification error text when the verifying handshake failed.
    public var verificationError: String?

    public init(version: String? = nil, cipher: String? = nil, certificate: CertificateFacts? = nil,
                chain: [ChainCertificateFacts] = [], trustAnchor: TrustAnchor? = nil,
                certificateFromProbe: Bool = false, verificationError: String? = nil) {
        self.version = version
        self.cipher = cipher
        self.certificate = certificate
        self.chain = chain
        self.trustAnchor = trustAnchor
        self.certificateFromProbe = certificateFromProbe
        self.verificationError = verificationError
    }
}
