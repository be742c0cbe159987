import AASA

/// Whether Apple can read a document from a location at all, apart from the verdict.
///
/// A location is unusable only when Apple gets no JSON object from it: the transfer fails (DNS,
/// connection, timeout, TLS trust: Apple A1–A3, A5, spec §1.2), the answer is not a 200 (Apple A3, A7)
/// or is a redirect (Apple A1, A3, A5: swcd "Denying redirect"), the file is over 128 KB or empty, the
/// body is not JSON (an HTML page, a syntax error, not UTF-8: RFC 8259 §8.1), its root is not an object
/// (A1), a signed file's content cannot be read, or the name leads only to non-public addresses, which
/// Apple's CDN refuses to connect to. (assetlinks.json: the same, and over 1 MiB, which Android's
/// verifier does not read.) Every other error (a malformed app ID, a broken rule, a missing
/// service, a BOM, which Apple's own JSON parser accepts) breaks part of a file that Apple still
/// reads and uses: the domain fails, but that file is the one Apple takes, the one `match` decides
/// with and the one the CDN and crawler copies are compared with.
public enum LocationUsability {
    /// The rules whose findings mean Apple reads no document from the location (docs/findings.md
    /// marks each; docs/findings.md's introduction gives the sources).
    public static let unusableRules: [Rule] = NetworkCheck.rules + [
        CertificateCheck.expired, CertificateCheck.notYetValid, CertificateCheck.hostnameMismatch,
        CertificateCheck.selfSigned, CertificateCheck.untrusted, CertificateCheck.handshakeFailed,
        RedirectCheck.present,
        StatusCheck.notFound, StatusCheck.denied, StatusCheck.clientError, StatusCheck.serverError, StatusCheck.unexpectedStatus,
        SizeCheck.empty, SizeCheck.tooLarge, SizeCheck.assetLinksTooLarge, DocumentCheck.htmlPage,
        JSONCheck.syntax, JSONCheck.invalidUTF8, JSONCheck.notObject, JSONCheck.signedUnreadable,
    ]

    private static let unusableIDs = Set(unusableRules.map(\.id))

    /// True when a finding of the rule `id` means Apple reads no document from the location.
    public static func makesUnusable(_ id: String) -> Bool {
        unusableIDs.contains(id)
    }

    /// The findings among `findings` that make the location unusable, in their order.
    public static func causes(in findings: [Finding]) -> [Finding] {
        findings.filter { makesUnusable($0.id) }
    }

    /// True when Apple can read a document from a location that answered `httpStatus` and earned
    /// `findings`: a 200 and none of `unusableRules`.
    public static func isUsable(httpStatus: Int?, findings: [Finding]) -> Bool {
        httpStatus == 200 && !findings.contains { makesUnusable($0.id) }
    }
}
