/// Facts about the TLS connection and the server's certificate.
public struct TLSFacts: Sendable, Equatable {
    /// Negotiated protocol, such as "TLSv1.3", when known.
    public var version: String?
    /// The leaf certificate, when it could be read (from this transfer or a non-verifying probe).
    public var certificate: CertificateFacts?
    /// True when the certificate facts came from a second, non-verifying probe
    /// because the verifying handshake failed.
    public var certificateFromProbe: Bool
    /// curl's verification error text when the verifying handshake failed.
    public var verificationError: String?

    public init(version: String? = nil, certificate: CertificateFacts? = nil,
                certificateFromProbe: Bool = false, verificationError: String? = nil) {
        self.version = version
        self.certificate = certificate
        self.certificateFromProbe = certificateFromProbe
        self.verificationError = verificationError
    }
}
