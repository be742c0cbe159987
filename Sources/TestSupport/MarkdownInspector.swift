import Foundation

/// Finds what in a Markdown text a renderer would turn into markup: raw HTML tags, autolinks and
/// links or images, outside code spans and not backslash-escaped. No Markdown renderer is installed
/// (and none may be fetched), so this follows CommonMark's rules for the two things that decide it:
/// a backslash before ASCII punctuation makes it literal, and a code span runs from a backtick run
/// to the next run of the same length, its content literal.
public enum MarkdownInspector {
    /// One place where markup would start: the offset in characters and some text around it.
    public struct Markup: CustomStringConvertible, Sendable {
        public var offset: Int
        public var context: String
        public var description: String { "at \(offset): \(context)" }
    }

    /// Every unescaped `<` that starts a tag, comment, declaration or autolink, every unescaped `[`
    /// (a link or an image starts with one) and every unescaped entity reference, outside code spans.
    public static func activeMarkup(in markdown: String) -> [Markup] {
        let s = Array(markdown)
        var found: [Markup] = []
        func report(_ at: Int) {
            let from = max(0, at - 20), to = min(s.count, at + 40)
            found.append(Markup(offset: at, context: String(s[from..<to])))
        }
        var i = 0
        while i < s.count {
            let c = s[i]
            if c == "\\", i + 1 < s.count, s[i + 1].isASCII, s[i + 1].isPunctuation || s[i + 1].isSymbol {
                i += 2
                continue
            }
            if c == "`" {
                var n = 0
                while i + n < s.count, s[i + n] == "`" { n += 1 }
                // Look for the closing run of exactly n backticks.
                var j = i + n, closed: Int?
                while j < s.count {
                    if s[j] == "`" {
                        var m = 0
                        while j + m < s.count, s[j + m] == "`" { m += 1 }
                        if m == n { closed = j + m; break }
                        j += m
                    } else {
                        j += 1
                    }
                }
                i = closed ?? (i + n)
                continue
            }
            if c == "<", i + 1 < s.count, s[i + 1].isLetter || "/!?".contains(s[i + 1]) { report(i) }
            if c == "[" { report(i) }
            if c == "&", i + 1 < s.count, s[i + 1].isLetter || s[i + 1] == "#" {
                var j = i + 1
                while j < s.count, j - i < 40, s[j].isLetter || s[j].isNumber || s[j] == "#" { j += 1 }
                if j < s.count, s[j] == ";" { report(i) }
            }
            i += 1
        }
        return found
    }

    /// The number of cells of a table row: `|` not escaped and not in a code span, minus one.
    public static func cellCount(ofRow row: String) -> Int {
        var pipes = 0, i = row.startIndex, escaped = false
        for c in row {
            defer { i = row.index(after: i) }
            if escaped { escaped = false; continue }
            if c == "\\" { escaped = true; continue }
            if c == "|" { pipes += 1 }
        }
        return pipes - 1
    }
}
