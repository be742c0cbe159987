import Foundation

/// The leaf certificate as curl reports it.
public struct CertificateFacts: Sendable, Equatable {
    public var subject: String
    public var issuer: String
    /// DNS names (and IP addresses, as "IP:...") from subjectAltName.
    public var subjectAltNames: [String]
    public var notBefore: Date?
    public var notAfter: Date?

    public init(subject: String, issuer: String, subjectAltNames: [String], notBefore: Date?, notAfter: Date?) {
        self.subject = subject
        self.issuer = issuer
        self.subjectAltNames = subjectAltNames
        self.notBefore = notBefore
        self.notAfter = notAfter
    }
}
