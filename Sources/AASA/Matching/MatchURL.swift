/// A URL split into the parts AASA patterns look at, parsed without Foundation (no allocation beyond
/// the parts themselves). Accepts `http(s)://host[:port]/path?query#fragment`, or a bare path starting
/// with `/` (any host).
public struct MatchURL: Sendable, Equatable {
    /// The host, lower-cased and without a trailing dot; nil for a bare path.
    public var host: String?
    /// The path as written (percent-encoded; raw Unicode and spaces are encoded by `parse`), leading
    /// slash included; may be empty.
    public var path: [UInt8]
    /// The query without its `?`, as written; nil when the URL has no `?`.
    public var query: [UInt8]?
    /// The fragment without its `#`, as written; nil when the URL has no `#`.
    public var fragment: [UInt8]?

    /// Why a text is not a URL the matcher can decide.
    public enum ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        case notHTTP(String)
        case noHost(String)

        public var description: String {
            switch self {
            case .notHTTP(let text): return "\"\(text)\" is neither an http(s) URL nor a path starting with \"/\""
            case .noHost(let text): return "\"\(text)\" has no host"
            }
        }
    }

    public init(host: String?, path: [UInt8], query: [UInt8]?, fragment: [UInt8]?) {
        self.host = host
        self.path = path
        self.query = query
        self.fragment = fragment
    }

    /// Parses `text` (see the type's description).
    public static func parse(_ text: String) throws(ParseError) -> MatchURL {
        let bytes = Array(text.utf8)
        var index = 0
        var host: String?
        if bytes.first != UInt8(ascii: "/") {
            let lower = GlobPattern.folded(Array(bytes.prefix(8)))
            let scheme: Int
            if lower.starts(with: "https://".utf8) { scheme = 8 } else if lower.starts(with: "http://".utf8) { scheme = 7 } else {
                throw .notHTTP(text)
            }
            index = scheme
            var end = index
            while end < bytes.count, ![UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#")].contains(bytes[end]) { end += 1 }
            var authority = bytes[index..<end]
            if let at = authority.lastIndex(of: UInt8(ascii: "@")) { authority = authority[(at + 1)...] }
            if authority.first == UInt8(ascii: "[") {
                if let close = authority.firstIndex(of: UInt8(ascii: "]")) { authority = authority[...close] }
            } else if let colon = authority.firstIndex(of: UInt8(ascii: ":")) {
                authority = authority[..<colon]
            }
            var name = GlobPattern.folded(Array(authority))
            if name.last == UInt8(ascii: ".") { name.removeLast() }
            guard !name.isEmpty else { throw .noHost(text) }
            host = String(decoding: name, as: UTF8.self)
            index = end
        }
        var pathEnd = index
        while pathEnd < bytes.count, bytes[pathEnd] != UInt8(ascii: "?"), bytes[pathEnd] != UInt8(ascii: "#") { pathEnd += 1 }
        let path = encodingInvalid(bytes[index..<pathEnd])
        var query: [UInt8]?
        var fragment: [UInt8]?
        var rest = pathEnd
        if rest < bytes.count, bytes[rest] == UInt8(ascii: "?") {
            var end = rest + 1
            while end < bytes.count, bytes[end] != UInt8(ascii: "#") { end += 1 }
            query = encodingInvalid(bytes[(rest + 1)..<end])
            rest = end
        }
        if rest < bytes.count, bytes[rest] == UInt8(ascii: "#") {
            fragment = encodingInvalid(bytes[(rest + 1)...], alsoHash: true)
        }
        return MatchURL(host: host, path: path, query: query, fragment: fragment)
    }

    /// `bytes` with every byte that cannot appear in a URL percent-encoded (upper-case hex): non-ASCII,
    /// space and other controls, and `"` `<` `>` `\` `^` `` ` `` `{` `|` `}` (and a second `#` in the
    /// fragment). A URL pasted as `https://example.com/café` reaches Apple as `/caf%C3%A9`, the way a
    /// browser sends it and Foundation's `URL(string:)` encodes it, so it is matched in that form.
    /// Valid text, `%XX` escapes included, is left as written.
    static func encodingInvalid(_ bytes: ArraySlice<UInt8>, alsoHash: Bool = false) -> [UInt8] {
        func invalid(_ byte: UInt8) -> Bool {
            switch byte {
            case 0..<0x21, 0x7F...0xFF: return true
            case UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\\"), UInt8(ascii: "^"),
                 UInt8(ascii: "`"), UInt8(ascii: "{"), UInt8(ascii: "|"), UInt8(ascii: "}"):
                return true
            case UInt8(ascii: "#"): return alsoHash
            default: return false
            }
        }
        guard bytes.contains(where: invalid) else { return Array(bytes) }
        let hex = Array("0123456789ABCDEF".utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            if invalid(byte) {
                output += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            } else {
                output.append(byte)
            }
        }
        return output
    }

    /// `bytes` with every valid `%XX` replaced by the byte it stands for (`+` is left alone, as
    /// `URLComponents` does).
    public static func percentDecoded(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(UInt8(ascii: "%")) else { return bytes }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
               let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) {
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return output
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// The path with its leading and trailing slashes removed: Apple treats a pattern's leading `/` as
    /// optional and a trailing `/` as insignificant (swcutil results in the conformance corpus).
    static func trimmedSlashes(_ bytes: [UInt8]) -> [UInt8] {
        var start = 0, end = bytes.count
        while start < end, bytes[start] == UInt8(ascii: "/") { start += 1 }
        while end > start, bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
        return start == 0 && end == bytes.count ? bytes : Array(bytes[start..<end])
    }
}

/// The URL's parts in one spelling (as written or percent-decoded; exact or case-folded), ready for
/// the compiled patterns. Built once per URL and spelling, whatever the number of rules. A class so
/// that handing it to each rule costs one reference, not a copy of four arrays.
final class URLView: Sendable {
    /// The path without leading and trailing slashes.
    let path: [UInt8]
    /// The whole query (empty when absent).
    let query: [UInt8]
    /// The fragment (empty when absent).
    let fragment: [UInt8]
    /// The query's items in order: `name=value`, or `name` alone with an empty value.
    let items: [(name: [UInt8], value: [UInt8])]

    /// A view no rule reads (its spelling is not used by the document).
    static let empty = URLView(path: [], query: [], fragment: [], items: [])

    init(path: [UInt8], query: [UInt8], fragment: [UInt8], items: [(name: [UInt8], value: [UInt8])]) {
        self.path = path
        self.query = query
        self.fragment = fragment
        self.items = items
    }

    convenience init(_ url: MatchURL, decoded: Bool, folded: Bool) {
        func spell(_ bytes: [UInt8]) -> [UInt8] {
            let decodedBytes = decoded ? MatchURL.percentDecoded(bytes) : bytes
            return folded ? GlobPattern.folded(decodedBytes) : decodedBytes
        }
        let rawQuery = url.query ?? []
        var items: [(name: [UInt8], value: [UInt8])] = []
        // Items are split before decoding, so an encoded "&" or "=" stays inside its name or value.
        for piece in rawQuery.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            if let equals = piece.firstIndex(of: UInt8(ascii: "=")) {
                items.append((spell(Array(piece[..<equals])), spell(Array(piece[(equals + 1)...]))))
            } else {
                items.append((spell(Array(piece)), []))
            }
        }
        self.init(path: MatchURL.trimmedSlashes(spell(url.path)), query: spell(rawQuery), fragment: spell(url.fragment ?? []), items: items)
    }
}
