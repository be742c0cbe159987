/// The document as JSON: strict RFC 8259 (Apple's parser allows no comments or trailing commas),
/// UTF-8 without a BOM, an object at the root, no duplicate keys; CMS-signed files unwrapped first.
public enum JSONCheck {
    public static let syntax = Rule("json.syntax", .error,
        meaning: "The document is not valid JSON (RFC 8259); Apple's parser rejects it.",
        fix: "Fix the JSON syntax at the line and column given; comments, trailing commas and single quotes are not allowed.")
    public static let invalidUTF8 = Rule("json.invalid-utf8", .error,
        meaning: "The document is not valid UTF-8.",
        fix: "Save the file as UTF-8.")
    public static let byteOrderMark = Rule("json.bom", .error,
        meaning: "The document starts with a UTF-8 byte order mark, which JSON parsers may reject (RFC 8259 §8.1).",
        fix: "Save the file as UTF-8 without a BOM.")
    public static let notObject = Rule("json.not-object", .error,
        meaning: "The JSON is valid but its root is not an object.",
        fix: "The file must be one JSON object with service keys such as \"applinks\" and \"webcredentials\".")
    public static let duplicateKey = Rule("json.duplicate-key", .warning,
        meaning: "An object has the same key twice; parsers keep only one of them, usually the last.",
        fix: "Merge the two entries into one key.")
    public static let signed = Rule("json.signed", .info,
        meaning: "The file is CMS-signed (PKCS #7), a legacy of iOS 8; the JSON inside was unwrapped and checked.",
        fix: "Signing is no longer needed: serve the plain JSON as application/json.")
    public static let signedUnreadable = Rule("json.signed-unreadable", .error,
        meaning: "The file looks CMS-signed, but its content could not be read.",
        fix: "Serve the plain, unsigned JSON as application/json; every iOS since 9 reads it.")

    public static let rules = [syntax, invalidUTF8, byteOrderMark, notObject, duplicateKey, signed, signedUnreadable]

    /// At most this many duplicate-key findings per document; the last one says how many more.
    static let duplicateLimit = 10

    /// The finding for a parse failure.
    static func finding(for error: JSONParseError) -> Finding {
        if case .invalidUTF8 = error.kind {
            return invalidUTF8.finding("The document is not valid UTF-8: \(error.description).")
        }
        // RFC 8259's grammar admits a lone surrogate escape (§8.2 calls its handling unpredictable), so
        // "not valid JSON" would be untrue; what fails is decoding it into text, as Apple's parser does.
        if case .loneSurrogate = error.kind {
            return syntax.finding("The document cannot be decoded: \(error.description).", fix: error.hint)
        }
        return syntax.finding("The document is not valid JSON: \(error.description).", fix: error.hint)
    }

    /// Findings about a parsed document's JSON form (BOM, root type, duplicate keys).
    static func findings(for document: JSONDocument) -> [Finding] {
        var findings: [Finding] = []
        if document.hadByteOrderMark {
            findings.append(byteOrderMark.finding("The document starts with the bytes EF BB BF (a UTF-8 BOM).", pointer: ""))
        }
        if document.root.objectValue == nil {
            let type = document.root.typeName
            findings.append(notObject.finding("The JSON root is \(type == "array" ? "an array" : "a \(type)"), not an object.", pointer: ""))
        }
        for duplicate in document.duplicateKeys.prefix(duplicateLimit) {
            let place = duplicate.pointer.isEmpty ? "the root object" : "the object at \(duplicate.pointer)"
            findings.append(duplicateKey.finding(
                "The key \"\(duplicate.key)\" appears more than once in \(place) (again at line \(duplicate.line), column \(duplicate.column)).",
                pointer: JSONPointer.appending(duplicate.pointer, duplicate.key)))
        }
        if document.duplicateKeys.count > duplicateLimit {
            findings.append(duplicateKey.finding("\(document.duplicateKeys.count - duplicateLimit) more duplicate keys are not listed."))
        }
        return findings
    }
}
