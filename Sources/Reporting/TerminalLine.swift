/// Fits one line of (already sanitised) text into a terminal's width.
///
/// Used only when the output is a terminal whose width is known: lines written to a pipe, a log or
/// cron mail are never cut. The cut keeps what tells the reader what is wrong: a URL inside the
/// text is shortened to its scheme and host first (`https://www.example.com/…`), last URL first,
/// and only then is the end of the text cut, with an ellipsis.
public enum TerminalLine {
    /// Columns `text` takes on a terminal: most characters one, East Asian wide and emoji two,
    /// combining marks and zero-width characters none. An estimate in the way of `wcwidth`.
    public static func columns(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + columns($1) }
    }

    /// `text`, shortened to at most `width` columns (see the type's comment); unchanged when it fits.
    public static func fit(_ text: String, toColumns width: Int) -> String {
        guard columns(text) > width else { return text }
        guard width > 1 else { return width == 1 ? "…" : "" }
        var words = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        for index in words.indices.reversed() {
            guard let short = shortenedURL(words[index]) else { continue }
            words[index] = short
            let joined = words.joined(separator: " ")
            if columns(joined) <= width { return joined }
        }
        return cut(words.joined(separator: " "), toColumns: width)
    }

    /// `text` cut to at most `width` columns, ending with "…".
    static func cut(_ text: String, toColumns width: Int) -> String {
        var out = ""
        var used = 0
        for character in text {
            let size = columns(String(character))
            if used + size > width - 1 { break }
            out.append(character)
            used += size
        }
        // No dangling space or punctuation before the ellipsis.
        while let last = out.last, last == " " || last == "," || last == ";" { out.removeLast() }
        return out + "…"
    }

    /// `scheme://host/…` for a word that is a URL with a path, keeping trailing punctuation; nil
    /// when the word is no URL or has nothing to shorten.
    static func shortenedURL(_ word: String) -> String? {
        guard let scheme = word.range(of: "://") else { return nil }
        var body = Substring(word)
        var trailing = ""
        while let last = body.last, ".,;:)\"'".contains(last) {
            trailing = String(last) + trailing
            body.removeLast()
        }
        guard let slash = body[scheme.upperBound...].firstIndex(of: "/"),
              body.distance(from: slash, to: body.endIndex) > 2 else { return nil }
        return String(body[...slash]) + "…" + trailing
    }

    private static func columns(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x300 { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if value == 0x200B { return 0 }
        return wide.contains { $0.contains(value) } ? 2 : 1
    }

    /// East Asian wide and fullwidth blocks, and the emoji blocks, which terminals draw two columns wide.
    private static let wide: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
        0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
        0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD,
    ]
}
