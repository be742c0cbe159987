import AASA
import Fetching

/// Size: the decoded (uncompressed) file must be at most 128 KB (131,072 bytes), signed or not.
public enum SizeCheck: LocationCheck {
    /// The check's stable id, stored in each of its findings (`Finding.check`).
    public static let id = "size"
    /// Declared in the core (`FileSizeCheck`), which `validate` runs too; on a served file this check reports it.
    public static let tooLarge = FileSizeCheck.tooLarge.reported(by: id)
    public static let empty = Rule("size.empty", .error, check: id,
        meaning: "The server answered 200 with an empty body.",
        fix: "Serve the file's JSON as the body.")

    public static let unread = Rule("assetlinks.too-large-to-check", .warning, check: id,
        meaning: "The assetlinks.json file is larger than the tool's read limit, so it was not checked. Neither Android nor Digital Asset Links documents a size limit, so this is the tool's limit, not Android's.",
        fix: "Check the file with aasa-audit validate, or keep it small: one statement per app, fingerprints listed once.")

    public static let rules = [empty, unread]
    public static let coreRules = [tooLarge]

    public static func findings(for location: FetchedLocation) -> [Finding] {
        guard location.servedBody else { return [] }
        let bytes = location.response.bytes
        let encoding = location.response.header("content-encoding").map { ", \(bytes.transferred) bytes sent with \($0)" } ?? ""
        if location.kind == .assetLinks {
            if bytes.truncated {
                return [unread.finding("The file is larger than \(bytes.limit) bytes uncompressed (reading stopped there\(encoding)); it was not checked.")]
            }
            return bytes.decoded == 0 ? [empty.finding("\(location.response.url) answers 200 with no body.")] : []
        }
        if bytes.truncated {
            return [tooLarge.finding("The file is larger than \(bytes.limit) bytes uncompressed (reading stopped there\(encoding)); the limit is \(AASAFile.maximumSize).")]
        }
        if bytes.decoded > AASAFile.maximumSize {
            return [tooLarge.finding("The file is \(bytes.decoded) bytes uncompressed\(encoding); the limit is \(AASAFile.maximumSize).")]
        }
        if bytes.decoded == 0 {
            return [empty.finding("\(location.response.url) answers 200 with no body.")]
        }
        return []
    }
}
