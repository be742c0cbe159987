import Fetching
import Foundation

// The one place where the fetch layer's values become the report model's (see TransferFacts.swift).
// A new field in a Fetching struct reaches report.json only when it is added here on purpose.

extension HeaderField {
    /// The header as the report records it.
    public init(_ header: HTTPHeader) {
        self.init(name: header.name, value: header.value)
    }
}

extension BodySize {
    /// The byte counts as the report records them.
    public init(_ bytes: ByteCounts) {
        self.init(transferred: bytes.transferred, decoded: bytes.decoded, truncated: bytes.truncated, limit: bytes.limit)
    }
}

extension TLSConnection {
    /// The TLS facts as the report records them; the certificate's days left are counted from `now`.
    public init(_ tls: TLSFacts, now: Date) {
        self.init(version: tls.version, cipher: tls.cipher, certificate: tls.certificate.map { ServerCertificate($0, now: now) },
                  chain: tls.chain.isEmpty ? nil : tls.chain.map(ChainCertificate.init),
                  trustAnchor: tls.trustAnchor.map { $0 == .systemStore ? .systemStore : .userFile },
                  certificateFromProbe: tls.certificateFromProbe, verificationError: tls.verificationError)
    }
}

extension ServerCertificate {
    /// The certificate as the report records it, with its days left counted from `now`.
    public init(_ certificate: CertificateFacts, now: Date) {
        self.init(subject: certificate.subject, issuer: certificate.issuer, subjectAltNames: certificate.subjectAltNames,
                  notBefore: certificate.notBefore, notAfter: certificate.notAfter,
                  daysLeft: certificate.notAfter.map { CertificateCheck.daysLeft(until: $0, now: now) },
                  keyAlgorithm: certificate.keyAlgorithm, keyBits: certificate.keyBits, signatureAlgorithm: certificate.signatureAlgorithm,
                  extendedKeyUsages: certificate.extendedKeyUsages, hasSubjectAltName: certificate.hasSubjectAltName,
                  validityDays: certificate.notBefore.flatMap { start in
                      certificate.notAfter.flatMap { CertificatePolicyCheck.validityDays(notBefore: start, notAfter: $0) }
                  },
                  embeddedSCTs: certificate.embeddedSCTs)
    }
}

extension ChainCertificate {
    /// A certificate of the chain as the report records it.
    public init(_ certificate: ChainCertificateFacts) {
        self.init(subject: certificate.subject, issuer: certificate.issuer, keyAlgorithm: certificate.keyAlgorithm,
                  keyBits: certificate.keyBits, signatureAlgorithm: certificate.signatureAlgorithm)
    }
}

extension TransferTimings {
    /// The timings as the report records them.
    public init(_ timings: Timings) {
        self.init(dnsMs: timings.dnsMs, connectMs: timings.connectMs, tlsMs: timings.tlsMs, firstByteMs: timings.firstByteMs,
                  totalMs: timings.totalMs, reusedConnection: timings.reusedConnection)
    }
}

extension TransferFailure {
    /// The transfer error as the report records it.
    public init(_ error: TransferError) {
        let kind: Kind
        switch error.kind {
        case .dns: kind = .dns
        case .refused: kind = .refused
        case .timeout: kind = .timeout
        case .reset: kind = .reset
        case .tls: kind = .tls
        case .tooLarge: kind = .tooLarge
        case .other: kind = .other
        }
        self.init(kind: kind, curlCode: error.curlCode, message: error.message)
    }
}
