/// The file's size: Apple reads the file only when it is at most 128 KB (131,072 bytes)
/// uncompressed, signed or not (iOS 9.3.1 and later; spec §1.2, Apple's archived App Search and Handoff
/// guides). `validate` measures the bytes it is given; the audit measures the decoded body of the
/// response, and its `SizeCheck` reports this same rule with the transfer's details.
public enum FileSizeCheck {
    public static let tooLarge = Rule("size.too-large", .error,
        meaning: "The uncompressed file is larger than Apple's limit of 128 KB (131,072 bytes); Apple ignores it.",
        fix: "Shrink the file: use components with wildcards and substitution variables instead of listing paths one by one; compression does not help, the limit is on the uncompressed size.")

    public static let rules = [tooLarge]

    /// The finding for a file of `byteCount` bytes, if it is over the limit. The pointer is the whole
    /// document (""), as the limit is about all of it.
    public static func findings(byteCount: Int) -> [Finding] {
        guard byteCount > AASAFile.maximumSize else { return [] }
        return [tooLarge.finding(
            "The file is \(byteCount) bytes, \(byteCount - AASAFile.maximumSize) over Apple's limit of \(AASAFile.maximumSize) bytes (128 KB), so Apple ignores the whole file, whatever else it says.",
            pointer: "")]
    }
}
