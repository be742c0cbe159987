import AASA
import Foundation

/// Why a location's served body is not in the report, so that a reader is told the true reason
/// (a 240 KB ASCII file is too large to show, not "not UTF-8").
public enum BodyOmission: Sendable, Equatable {
    /// No HTTP response at all (a DNS, connection or TLS failure).
    case noResponse
    /// A response with an empty body.
    case empty
    /// Reading stopped at the byte limit in force (`--max-bytes`): the body is larger than `limit`.
    case cutAtLimit(limit: Int)
    /// Read whole, but larger than `LocationResult.maxShownBodyBytes`: kept out of the report.
    case tooLargeToShow(bytes: Int)
    /// A CMS-signed (PKCS #7) file, binary by nature; `readable` when its JSON could be unwrapped.
    case signed(readable: Bool)
    /// Bytes that are not valid UTF-8 text.
    case notUTF8
    /// Text the report does not store whole: `by` the `--bodies` setting that left it out, or nil
    /// when it is in the report's `bodies` table and was not read with the domain.
    case notStored(by: BodiesPolicy?, bytes: Int, sha256: String)
}

extension LocationResult {
    /// Bodies up to this size (Apple's own limit for the file) are kept in the report for people to read.
    public static let maxShownBodyBytes = AASAFile.maximumSize

    /// Why `body` is missing or empty; nil when there is a body to show. Follows the rule by which
    /// the audit keeps a body (`Auditor.check`): read whole, at most `maxShownBodyBytes`, UTF-8.
    public var bodyOmission: BodyOmission? {
        if let body, !body.isEmpty { return nil }
        if body == nil, bytes.decoded > 0, let sha256 = bodySHA256 {
            return .notStored(by: bodyOmittedBy, bytes: bytes.decoded, sha256: sha256)
        }
        if bytes.truncated { return .cutAtLimit(limit: bytes.limit) }
        if body != nil || bytes.decoded == 0 { return httpStatus == nil ? .noResponse : .empty }
        if bytes.decoded > Self.maxShownBodyBytes { return .tooLargeToShow(bytes: bytes.decoded) }
        if findings.contains(where: { $0.id == JSONCheck.signed.id }) { return .signed(readable: true) }
        if findings.contains(where: { $0.id == JSONCheck.signedUnreadable.id }) { return .signed(readable: false) }
        return .notUTF8
    }
}
