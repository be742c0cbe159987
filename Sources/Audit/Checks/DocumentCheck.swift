import AASA
import Fetching
import Foundation

/// The body of a 200: strict JSON (Apple's parser allows no comments or trailing commas), UTF-8
/// without a BOM, an object at the root; and not an HTML page served in the file's place.
/// The full AASA schema is validated separately.
public enum DocumentCheck: LocationCheck {
    public static let htmlPage = Rule("http.html-page", .error,
        meaning: "The URL answers 200 with an HTML page, typically a single-page app's catch-all route, a login or a bot-challenge page.",
        fix: "Serve the real file at this path before the catch-all route (e.g. a static file or an exact location rule).")
    public static let syntax = Rule("json.syntax", .error,
        meaning: "The body is not valid JSON (RFC 8259); Apple's parser rejects it.",
        fix: "Fix the JSON syntax at the line and column given; comments, trailing commas and single quotes are not allowed.")
    public static let invalidUTF8 = Rule("json.invalid-utf8", .error,
        meaning: "The body is not valid UTF-8.",
        fix: "Save the file as UTF-8.")
    public static let byteOrderMark = Rule("json.bom", .error,
        meaning: "The body starts with a UTF-8 byte order mark, which JSON parsers may reject (RFC 8259 §8.1).",
        fix: "Save the file as UTF-8 without a BOM.")
    public static let notObject = Rule("json.not-object", .error,
        meaning: "The JSON is valid but its root is not an object.",
        fix: "The file must be one JSON object with service keys such as \"applinks\" and \"webcredentials\".")
    public static let duplicateKey = Rule("json.duplicate-key", .warning,
        meaning: "An object has the same key twice; parsers keep only one of them, usually the last.",
        fix: "Merge the two entries into one key.")
    public static let signedLegacy = Rule("json.signed-legacy", .warning,
        meaning: "The body is a CMS-signed (PKCS #7) file, a format only iOS 8 needed; this version of the tool does not unwrap it, so its content is not checked.",
        fix: "Serve the plain, unsigned JSON as application/json; every iOS since 9 reads it.")

    public static let rules = [htmlPage, syntax, invalidUTF8, byteOrderMark, notObject, duplicateKey, signedLegacy]

    /// At most this many duplicate-key findings per document; the last one says how many more.
    static let duplicateLimit = 10

    public static func findings(for location: FetchedLocation) -> [Finding] {
        guard let document = location.document else { return [] }
        switch document {
        case .empty:
            return []
        case .signed:
            return [signedLegacy.finding("The body of \(location.response.url) is a CMS-signed file (\(location.response.bytes.decoded) bytes).")]
        case .invalid(let error):
            if let page = htmlPageFinding(location) { return [page] }
            if case .invalidUTF8 = error.kind {
                return [invalidUTF8.finding("The body is not valid UTF-8: \(error.description).")]
            }
            return [syntax.finding("The body is not valid JSON: \(error.description).", fix: error.hint)]
        case .otherJSON(let parsed):
            return bomFindings(parsed) + [notObject.finding("The JSON root is \(article(parsed.root.typeName)), not an object.")]
        case .object(_, let parsed):
            return bomFindings(parsed) + duplicateFindings(parsed)
        }
    }

    private static func bomFindings(_ document: JSONDocument) -> [Finding] {
        document.hadByteOrderMark ? [byteOrderMark.finding("The body starts with the bytes EF BB BF (a UTF-8 BOM).")] : []
    }

    private static func duplicateFindings(_ document: JSONDocument) -> [Finding] {
        var findings = document.duplicateKeys.prefix(duplicateLimit).map { duplicate in
            duplicateKey.finding("The key \"\(duplicate.key)\" appears more than once in the object at \(duplicate.pointer.isEmpty ? "the root" : duplicate.pointer) (again at line \(duplicate.line), column \(duplicate.column)).",
                                 pointer: duplicate.pointer)
        }
        if document.duplicateKeys.count > duplicateLimit {
            findings.append(duplicateKey.finding("\(document.duplicateKeys.count - duplicateLimit) more duplicate keys are not listed."))
        }
        return findings
    }

    /// An HTML page served in the file's place, named as such rather than as a JSON syntax error.
    private static func htmlPageFinding(_ location: FetchedLocation) -> Finding? {
        let head = String(decoding: location.response.body.prefix(2048), as: UTF8.self)
        let start = head.drop { $0.isWhitespace || $0 == "\u{FEFF}" }.prefix(200).lowercased()
        let type = ContentTypeCheck.mediaType(of: location.response.header("content-type") ?? "")
        let looksHTML = ["<!doctype html", "<html", "<head", "<body", "<!--"].contains { start.hasPrefix($0) }
            || (type == "text/html" && start.hasPrefix("<"))
        guard looksHTML else { return nil }
        var what = "an HTML page"
        let lowered = head.lowercased()
        if lowered.contains("just a moment") || lowered.contains("challenge") || lowered.contains("captcha") {
            what = "an HTML bot-challenge page"
        } else if lowered.contains("login") || lowered.contains("sign in") {
            what = "an HTML login page"
        } else if lowered.contains("id=\"root\"") || lowered.contains("id=\"app\"") || lowered.contains("<script") {
            what = "an HTML page that looks like a single-page app's catch-all route"
        }
        let title = htmlTitle(in: head).map { " titled \"\($0)\"" } ?? ""
        return htmlPage.finding("\(location.response.url) answers 200 with \(what)\(title) instead of the JSON file.")
    }

    private static func htmlTitle(in head: String) -> String? {
        guard let open = head.range(of: "<title>", options: .caseInsensitive),
              let close = head.range(of: "</title>", options: .caseInsensitive, range: open.upperBound..<head.endIndex) else { return nil }
        let title = head[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines)
        return title.isEmpty ? nil : String(title.prefix(80))
    }

    private static func article(_ typeName: String) -> String {
        typeName == "array" ? "an array" : "a \(typeName)"
    }
}
