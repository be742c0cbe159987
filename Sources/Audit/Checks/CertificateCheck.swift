import Fetching
import Foundation

/// The TLS certificate: trusted, for this host, in its validity window, not about to expire.
/// Apple requires a certificate the OS trusts (only developer mode accepts others).
public enum CertificateCheck: LocationCheck {
    /// The check's stable id, stored in each of its findings (`Finding.check`).
    public static let id = "tls"
    public static let expired = Rule("tls.expired", .error, check: id,
        meaning: "The server's certificate has expired; iOS refuses the connection.",
        fix: "Renew the certificate and install it (with its intermediates) on the server.")
    public static let notYetValid = Rule("tls.not-yet-valid", .error, check: id,
        meaning: "The server's certificate is not valid yet (its start date is in the future).",
        fix: "Install a certificate that is valid now, and check the server's clock.")
    public static let hostnameMismatch = Rule("tls.hostname-mismatch", .error, check: id,
        meaning: "The certificate does not cover this host name.",
        fix: "Serve a certificate whose Subject Alternative Names include this exact host (a wildcard covers one label).")
    public static let selfSigned = Rule("tls.self-signed", .error, check: id,
        meaning: "The certificate is self-signed; devices do not trust it.",
        fix: "Use a certificate from a publicly trusted certificate authority.")
    public static let untrusted = Rule("tls.untrusted", .error, check: id,
        meaning: "The certificate chain does not lead to a trusted root (unknown issuer or missing intermediate).",
        fix: "Install the full chain (leaf plus intermediates) on the server, issued by a publicly trusted CA.")
    public static let handshakeFailed = Rule("tls.handshake-failed", .error, check: id,
        meaning: "The TLS handshake failed for another reason; curl's error text, the finding's technical detail, says which.",
        fix: "Read curl's error text in the finding's technical detail and fix the server's TLS configuration.")
    public static let expiringSoon = Rule("tls.expiring-soon", .warning, check: id,
        meaning: "The certificate expires soon (within --expiry-warning-days).",
        fix: "Renew the certificate before it expires; automate renewal if you can.")
    public static let oldProtocol = Rule("tls.old-protocol", .warning, check: id,
        meaning: "The connection used a TLS version older than 1.2, below Apple's App Transport Security baseline.",
        fix: "Enable TLS 1.2 and 1.3 on the server.")

    public static let rules = [expired, notYetValid, hostnameMismatch, selfSigned, untrusted, handshakeFailed, expiringSoon, oldProtocol]

    public static func findings(for location: FetchedLocation) -> [Finding] {
        let response = location.response
        if let error = response.error, error.kind == .tls {
            return [verificationFinding(error: error, certificate: response.tls?.certificate, now: location.now)]
        }
        guard response.error == nil, let tls = response.tls else { return [] }
        var findings: [Finding] = []
        if let notAfter = tls.certificate?.notAfter {
            let days = daysLeft(until: notAfter, now: location.now)
            // One judgement of expiry (`CertificateExpiry`). A certificate past its end on a connection
            // that succeeded (the run's clock passed it after the handshake) is expired, not "expiring in -1 days".
            switch CertificateExpiry(daysLeft: days, warningDays: location.settings.expiryWarningDays) {
            case .expiringSoon:
                findings.append(expiringSoon.finding(
                    "The certificate expires in \(days) day\(days == 1 ? "" : "s") (\(CertificateCheck.format(notAfter)))."))
            case .expired:
                findings.append(expired.finding("The certificate expired on \(CertificateCheck.format(notAfter)) (\(-days) day\(days == -1 ? "" : "s") ago)."))
            case .fine, .unknown:
                break
            }
        }
        if let version = tls.version, ["SSLv3", "TLSv1", "TLSv1.1"].contains(version) {
            findings.append(oldProtocol.finding("The connection used \(version)."))
        }
        return findings
    }

    /// Whole days from `now` until `date`; once `date` has passed, minus the whole days since
    /// (at least -1, so an expired certificate never reads as "0 days left").
    public static func daysLeft(until date: Date, now: Date) -> Int {
        let days = date.timeIntervalSince(now) / 86_400
        return days >= 0 ? Int(days.rounded(.down)) : -max(1, Int((-days).rounded(.down)))
    }

    static func verificationFinding(error: TransferError, certificate: CertificateFacts?, now: Date) -> Finding {
        let text = error.message.lowercased()
        let detail = NetworkCheck.technicalDetail(error)
        let subject = certificate.map { " The server presented \"\($0.subject)\", issued by \"\($0.issuer)\"." } ?? ""
        if text.contains("expired") {
            let when = certificate?.notAfter.map { date -> String in
                let ago = -daysLeft(until: date, now: now)
                return " on \(format(date)) (\(ago) day\(ago == 1 ? "" : "s") ago)"
            } ?? ""
            return expired.finding("The certificate expired\(when).\(subject)", detail: detail)
        }
        if text.contains("not yet valid") {
            let when = certificate?.notBefore.map { " until \(format($0))" } ?? ""
            return notYetValid.finding("The certificate is not valid\(when).\(subject)", detail: detail)
        }
        if text.contains("subject name") || text.contains("does not match") || text.contains("hostname") {
            let names = certificate.map { " It covers: \($0.subjectAltNames.prefix(10).joined(separator: ", "))." } ?? ""
            return hostnameMismatch.finding("The certificate is not for this host.\(names)", detail: detail)
        }
        if text.contains("self-signed") || text.contains("self signed") {
            return selfSigned.finding("The certificate is self-signed.\(subject)", detail: detail)
        }
        if text.contains("issuer") || text.contains("certificate chain") || text.contains("unable to get") {
            return untrusted.finding("The certificate is not trusted.\(subject)", detail: detail)
        }
        return handshakeFailed.finding("The TLS handshake failed.\(subject)", detail: detail)
    }

    static func format(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: date)
    }
}
