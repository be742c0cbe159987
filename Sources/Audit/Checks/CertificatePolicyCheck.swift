import AASA
import Fetching
import Foundation

/// Apple's own rules for TLS server certificates, beyond what OpenSSL (and so curl) checks: a
/// certificate curl accepts can still be refused by an Apple device.
///
/// Sources, each named in its rule:
/// - "Requirements for trusted certificates in iOS 13 and macOS 10.15" (support.apple.com/103769):
///   RSA keys of 2048 bits or more and SHA-2 signatures (the server's certificate and its issuing
///   CAs), the host name in the Subject Alternative Name (a Common Name is not trusted); for
///   certificates issued after 1 July 2019 (notBefore) also the id-kp-serverAuth EKU and a
///   validity of at most 825 days.
/// - "About upcoming limits on trusted certificates" (support.apple.com/102028): issued on or after
///   1 September 2020 from a root Apple ships, at most 398 days; not for user- or administrator-added roots.
/// - "Apple's Certificate Transparency policy" (support.apple.com/103214): publicly trusted
///   certificates carry SCTs (embedded: 2 for a lifetime of 180 days or less, 3 above).
/// - App Transport Security (developer.apple.com, NSAppTransportSecurity, "Preventing Insecure Network
///   Connections"): TLS 1.2 or later with an ECDHE (forward secrecy) AES cipher suite. Apple documents
///   ATS for apps' URLSession connections, not for the AASA fetch: that rule is derived.
///
/// Severity: every rule is a warning. Apple documents that its devices refuse such a certificate
/// for TLS (so a device that fetches the file from the site itself fails); since iOS 14 devices read
/// the file from Apple's CDN, whose fetcher's certificate rules are not documented.
public enum CertificatePolicyCheck: LocationCheck {
    public static let id = "tls-policy"

    static let deviceAndCDN = "Apple devices (iOS 13 and macOS 10.15 and later) refuse such a certificate for every TLS connection, "
        + "so a device that fetches the file from the site itself fails; whether Apple's CDN, which devices read the file from "
        + "since iOS 14, refuses it too is not documented."

    public static let rsaKeyTooSmall = Rule("tls.rsa-key-too-small", .warning, check: id,
        meaning: "A certificate of the chain has an RSA key below 2048 bits, which Apple does not trust for TLS "
            + "(support.apple.com/103769). Apple's CDN fetcher's rules are not documented.",
        fix: "Issue the certificate (and use issuing CAs) with RSA keys of 2048 bits or more, or ECDSA P-256.")
    public static let sha1Signature = Rule("tls.sha1-signature", .warning, check: id,
        meaning: "A certificate of the chain is signed with SHA-1, which Apple does not trust for TLS; the server's "
            + "certificate and its issuing CAs must use SHA-2 (support.apple.com/103769). Apple's CDN fetcher's rules are not documented.",
        fix: "Reissue the certificate from a CA that signs with SHA-256 or better, and serve that CA's SHA-2 intermediate.")
    public static let nameNotInSubjectAltName = Rule("tls.name-not-in-san", .warning, check: id,
        meaning: "The certificate names the host only in its Common Name; Apple trusts only the Subject Alternative Name "
            + "(support.apple.com/103769). curl (OpenSSL) still accepts the Common Name. Apple's CDN fetcher's rules are not documented.",
        fix: "Reissue the certificate with the host name as a DNS entry of the Subject Alternative Name extension.")
    public static let noServerAuth = Rule("tls.no-server-auth-eku", .warning, check: id,
        meaning: "The certificate, issued after 1 July 2019, has no Extended Key Usage with id-kp-serverAuth, which Apple "
            + "requires (support.apple.com/103769); curl does not. Apple's CDN fetcher's rules are not documented.",
        fix: "Reissue the certificate with extendedKeyUsage = serverAuth (TLS Web Server Authentication).")
    public static let validityOver825 = Rule("tls.validity-over-825-days", .warning, check: id,
        meaning: "The certificate, issued after 1 July 2019, is valid for more than 825 days, which Apple does not trust "
            + "(support.apple.com/103769), whatever CA issued it. Apple's CDN fetcher's rules are not documented.",
        fix: "Reissue the certificate with a validity of 825 days or fewer (398 or fewer when a public CA issues it).")
    public static let validityOver398 = Rule("tls.validity-over-398-days", .warning, check: id,
        meaning: "The publicly trusted certificate, issued on or after 1 September 2020, is valid for more than 398 days, "
            + "which Apple does not trust (support.apple.com/102028; roots a user or an administrator added are exempt). "
            + "Apple's CDN fetcher's rules are not documented.",
        fix: "Reissue the certificate with a validity of 397 days or fewer, as Apple recommends.")
    public static let sctsMissing = Rule("tls.scts-missing", .warning, check: id,
        meaning: "The publicly trusted certificate embeds fewer Signed Certificate Timestamps than Apple's Certificate "
            + "Transparency policy asks (support.apple.com/103214: 2 for 180 days or less, 3 above), and the tool does not read "
            + "SCTs sent in the handshake or a stapled OCSP response, which can satisfy it instead. Apple's CDN fetcher's rules are not documented.",
        fix: "Use a certificate from a CA that embeds SCTs (most public CAs do), or have the server send them in the TLS handshake.")
    public static let cipherOutsideATS = Rule("tls.cipher-outside-ats", .warning, check: id,
        meaning: "The server chose a TLS 1.2 cipher suite App Transport Security does not accept (it requires ECDHE key exchange, "
            + "forward secrecy, with AES-128 or AES-256), although the tool offered ones it does. Derived: Apple documents ATS "
            + "for apps' connections, not for the AASA fetch.",
        fix: "Enable TLS 1.3, or ECDHE-ECDSA/ECDHE-RSA suites with AES-GCM for TLS 1.2, and prefer them.")

    public static let rules = [rsaKeyTooSmall, sha1Signature, nameNotInSubjectAltName, noServerAuth, validityOver825,
                               validityOver398, sctsMissing, cipherOutsideATS]

    /// Apple's dates: after 1 July 2019 (103769), on or after 1 September 2020 (102028).
    static let july2019 = Date(timeIntervalSince1970: 1_561_939_200)      // 2019-07-01T00:00:00Z
    static let september2020 = Date(timeIntervalSince1970: 1_598_918_400) // 2020-09-01T00:00:00Z

    public static func findings(for location: FetchedLocation) -> [Finding] {
        // Apple's rules, so not for Android's file, and only for what was read from a TLS connection.
        guard location.kind == .appleAppSiteAssociation, let tls = location.response.tls else { return [] }
        var findings: [Finding] = []
        if let certificate = tls.certificate {
            // The host only for a message few certificates need: URLComponents costs an IDNA pass.
            findings += leafFindings(certificate, trust: tls.trustAnchor, host: URLComponents(string: location.response.url)?.host)
        }
        findings += chainFindings(tls.chain)
        if location.response.error == nil, let finding = cipherFinding(version: tls.version, cipher: tls.cipher) {
            findings.append(finding)
        }
        return findings
    }

    /// The leaf's findings; `trust` says whether the chain is publicly trusted (nil: unknown, a
    /// handshake that failed, when only the rules that hold for every root are applied).
    static func leafFindings(_ certificate: CertificateFacts, trust: TLSFacts.TrustAnchor?, host: @autoclosure () -> String?) -> [Finding] {
        var findings: [Finding] = []
        if certificate.keyAlgorithm == "rsaEncryption", let bits = certificate.keyBits, bits < 2048 {
            findings.append(rsaKeyTooSmall.finding("The server's certificate has a \(bits)-bit RSA key. \(deviceAndCDN)"))
        }
        if let algorithm = certificate.signatureAlgorithm, isSHA1(algorithm) {
            findings.append(sha1Signature.finding("The server's certificate is signed with \(algorithm). \(deviceAndCDN)"))
        }
        let dnsNames = certificate.subjectAltNames.filter { !ASCIISearch.contains(":", in: $0) }
        if !certificate.hasSubjectAltName || dnsNames.isEmpty {
            let which = certificate.hasSubjectAltName ? "has a Subject Alternative Name with no DNS name" : "has no Subject Alternative Name"
            findings.append(nameNotInSubjectAltName.finding(
                "The certificate \(which); \(host().map { "\"\($0)\"" } ?? "the host") is named only in its subject (\(certificate.subject)), "
                + "which curl accepts. \(deviceAndCDN)"))
        }
        guard let notBefore = certificate.notBefore else { return findings }
        let issued = "issued \(CertificateCheck.format(notBefore))"
        if notBefore > july2019 {
            let purposes = certificate.extendedKeyUsages
            if !(purposes ?? []).contains(serverAuth) {
                let has = purposes.map { $0.isEmpty ? "an empty Extended Key Usage" : "Extended Key Usage \($0.joined(separator: ", "))" }
                    ?? "no Extended Key Usage extension"
                findings.append(noServerAuth.finding("The certificate (\(issued)) has \(has), without TLS Web Server Authentication. \(deviceAndCDN)"))
            }
        }
        guard let notAfter = certificate.notAfter, let days = validityDays(notBefore: notBefore, notAfter: notAfter) else { return findings }
        if notBefore > july2019, days > 825 {
            let anchor = trust == .userFile ? " It chains to a CA of --cacert, so Apple's 825-day limit applies, not the 398-day one." : ""
            findings.append(validityOver825.finding("The certificate (\(issued)) is valid for \(days) days.\(anchor) \(deviceAndCDN)"))
        } else if trust == .systemStore, notBefore >= september2020, days > 398 {
            findings.append(validityOver398.finding(
                "The certificate (\(issued), chaining to a root of the system store) is valid for \(days) days. \(deviceAndCDN)"))
        }
        if trust == .systemStore {
            let needed = days <= 180 ? 2 : 3
            if certificate.embeddedSCTs < needed {
                findings.append(sctsMissing.finding(
                    "The publicly trusted certificate (valid for \(days) days) embeds \(certificate.embeddedSCTs) SCT"
                    + "\(certificate.embeddedSCTs == 1 ? "" : "s"); Apple's policy asks \(needed) embedded, or 2 with one sent in the "
                    + "handshake or a stapled OCSP response, which the tool does not read. Apple's devices refuse a certificate "
                    + "that meets neither; whether Apple's CDN does is not documented."))
            }
        }
        return findings
    }

    /// RSA key sizes of every certificate the server sent after its leaf, and SHA-1 signatures of
    /// those a CA signed (a root's signature on itself is not checked).
    static func chainFindings(_ chain: [ChainCertificateFacts]) -> [Finding] {
        var findings: [Finding] = []
        for certificate in chain {
            if certificate.keyAlgorithm == "rsaEncryption", let bits = certificate.keyBits, bits < 2048 {
                findings.append(rsaKeyTooSmall.finding("The issuing CA \"\(certificate.subject)\" the server sends has a \(bits)-bit RSA key. \(deviceAndCDN)"))
            }
            if let algorithm = certificate.signatureAlgorithm, isSHA1(algorithm), certificate.subject != certificate.issuer {
                findings.append(sha1Signature.finding(
                    "The intermediate \"\(certificate.subject)\" the server sends is signed with \(algorithm). \(deviceAndCDN)"))
            }
        }
        return findings
    }

    /// A TLS 1.2 connection whose suite ATS does not list: not ECDHE, or not AES (OpenSSL's names,
    /// "ECDHE-RSA-AES128-GCM-SHA256"). TLS 1.3's suites all have forward secrecy; below 1.2 is
    /// `CertificateCheck.oldProtocol`'s.
    static func cipherFinding(version: String?, cipher: String?) -> Finding? {
        guard version == "TLSv1.2", let cipher else { return nil }
        if cipher.hasPrefix("ECDHE-") && ASCIISearch.contains("AES", in: cipher) { return nil }
        let why = cipher.hasPrefix("ECDHE-") ? "its cipher is not AES" : "its key exchange is not ECDHE, so it has no forward secrecy ATS accepts"
        return cipherOutsideATS.finding(
            "The server chose \(cipher) under TLS 1.2: \(why). An app's connection under App Transport Security's defaults "
            + "is refused unless the server also offers a suite ATS accepts; Apple does not document whether its AASA fetch applies ATS.")
    }

    /// OpenSSL's name of id-kp-serverAuth.
    static let serverAuth = "TLS Web Server Authentication"

    static func isSHA1(_ algorithm: String) -> Bool {
        // "sha1WithRSAEncryption", "ecdsa-with-SHA1", "dsa_with_SHA1", ...: "sha1" in either case.
        ASCIISearch.contains("sha1", in: algorithm, ignoringCase: true)
    }

    /// The validity period as Apple counts it (RFC 5280: notBefore through notAfter inclusive; a day
    /// is 86,400 seconds and any part of one more counts as a day), or nil when notAfter is before notBefore.
    public static func validityDays(notBefore: Date, notAfter: Date) -> Int? {
        let seconds = notAfter.timeIntervalSince(notBefore) + 1
        guard seconds > 0, seconds < 1e12 else { return nil }
        return Int((seconds / 86_400).rounded(.up))
    }
}
