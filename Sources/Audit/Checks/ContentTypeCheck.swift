import AASA
import Fetching

/// Content-Type: `application/json` (parameters such as charset allowed); `application/pkcs7-mime`
/// for a signed legacy AASA file. Android's *Verify Android App Links* asks for
/// `Content-Type: application/json` too. Apple's current pages do not restate the rule and large sites serve
/// other types, so anything else is a warning, not an error.
public enum ContentTypeCheck: LocationCheck {
    /// The check's stable id, stored in each of its findings (`Finding.check`).
    public static let id = "content-type"
    public static let missing = Rule("content-type.missing", .warning, check: id,
        meaning: "The response has no Content-Type header.",
        fix: "Serve the file with Content-Type: application/json.")
    public static let unexpected = Rule("content-type.unexpected", .warning, check: id,
        meaning: "The Content-Type is not application/json.",
        fix: "Serve the file with Content-Type: application/json (in nginx: `default_type application/json;` in the file's location).")
    public static let signed = Rule("content-type.signed", .info, check: id,
        meaning: "The file is served as application/pkcs7-mime, the type of a CMS-signed file (needed only by iOS 8).",
        fix: "Signing is no longer needed: serve the plain JSON as application/json.")

    public static let rules = [missing, unexpected, signed]

    public static func findings(for location: FetchedLocation) -> [Finding] {
        guard location.servedBody else { return [] }
        guard let header = location.response.header("content-type") else {
            return [missing.finding("\(location.response.url) is served without a Content-Type.")]
        }
        let mediaType = mediaType(of: header)
        switch mediaType {
        case "application/json": return []
        case "application/pkcs7-mime" where location.kind == .appleAppSiteAssociation:
            if location.validation?.wasSigned == true {
                return [signed.finding("Served as \(header), with a CMS-signed body.")]
            }
            return [unexpected.finding("Served as \(header), but the body is not a CMS-signed file.",
                                       fix: "Serve the plain JSON as application/json.")]
        default: return [unexpected.finding("Served as \(header), not application/json.")]
        }
    }

    /// The media type without parameters, lower-cased: "Application/JSON; charset=utf-8" → "application/json".
    /// An ASCII header (every real one) is cut, trimmed and lower-cased on its bytes; one with other
    /// bytes goes through `String`'s Unicode rules.
    public static func mediaType(of header: String) -> String {
        let bytes = header.utf8
        guard bytes.allSatisfy({ $0 < 0x80 }) else {
            return (header.split(separator: ";", maxSplits: 1).first.map(String.init) ?? header)
                .trimmingCharacters(in: .whitespaces).lowercased()
        }
        let media = bytes.prefix { $0 != UInt8(ascii: ";") }
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        guard let first = media.firstIndex(where: { !isSpace($0) }), let last = media.lastIndex(where: { !isSpace($0) }) else { return "" }
        return GlobPattern.folded(String(decoding: media[first...last], as: UTF8.self))
    }
}
