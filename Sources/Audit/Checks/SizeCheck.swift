import AASA
import Fetching

/// Size: the decoded (uncompressed) file must be at most 128 KB (131,072 bytes), signed or not;
/// assetlinks.json at most 1 MiB, the most Android's verifier reads (`AssetLinksFile.maximumSize`).
public enum SizeCheck: LocationCheck {
    /// The check's stable id, stored in each of its findings (`Finding.check`).
    public static let id = "size"
    /// Declared in the core (`FileSizeCheck`), which `validate` runs too; on a served file this check reports it.
    public static let tooLarge = FileSizeCheck.tooLarge.reported(by: id)
    /// Android's limit, declared in the core (`AssetLinksValidator`) as well.
    public static let assetLinksTooLarge = AssetLinksValidator.tooLarge.reported(by: id)
    public static let empty = Rule("size.empty", .error, check: id,
        meaning: "The server answered 200 with an empty body.",
        fix: "Serve the file's JSON as the body.")

    public static let unread = Rule("assetlinks.too-large-to-check", .warning, check: id,
        meaning: "The assetlinks.json file is larger than the tool's read limit (--max-bytes), which was set below the 1 MiB Android's verifier reads, so it was not checked and whether Android reads it is not known.",
        fix: "Audit with the default --max-bytes (1048576), or check the file with aasa-audit validate.")

    public static let rules = [empty, unread]
    public static let coreRules = [tooLarge, assetLinksTooLarge]

    public static func findings(for location: FetchedLocation) -> [Finding] {
        guard location.servedBody else { return [] }
        let bytes = location.response.bytes
        let encoding = location.response.header("content-encoding").map { ", \(bytes.transferred) bytes sent with \($0)" } ?? ""
        if location.kind == .assetLinks {
            let limit = AssetLinksFile.maximumSize
            if bytes.truncated && bytes.limit < limit {
                return [unread.finding("The file is larger than \(bytes.limit) bytes uncompressed (reading stopped there\(encoding)), the read limit given with --max-bytes; it was not checked.")]
            }
            if bytes.truncated {
                return [assetLinksTooLarge.finding("The file is larger than \(bytes.limit) bytes uncompressed (reading stopped there\(encoding)); Android's verifier reads at most \(limit), so it takes no statement from this file.")]
            }
            if bytes.decoded > limit {
                return [assetLinksTooLarge.finding("The file is \(bytes.decoded) bytes uncompressed\(encoding); Android's verifier reads at most \(limit), so it takes no statement from this file.")]
            }
            // Compressed, the length is the encoded body's, which Android's transparent decoding hides.
            if location.response.header("content-encoding") == nil,
               let declared = location.response.header("content-length").flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }), declared > limit {
                return [assetLinksTooLarge.finding("The response declares Content-Length: \(declared)\(encoding); Android 12 and later refuse a response declaring more than \(limit) bytes, so they take no statement from this file.")]
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
