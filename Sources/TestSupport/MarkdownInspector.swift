import Foundation

/// What a Markdown text turns into. Two views:
/// - `renderGitHubFlavoured`: the HTML of the real renderer behind GitHub's Markdown, cmark-gfm
///   (Debian's `cmark-gfm` package), with GitHub's autolink, table, strikethrough and tag-filter
///   extensions; `links(inHTML:)` lists the links and images in it. This is the judge: its autolink
///   extension links bare URLs, `www.` names and e-mail addresses that no `<`/`[` announces.
/// - `activeMarkup`: a quick, renderer-free scan for raw HTML tags, `<…>` autolinks, links or images
///   and entities outside code spans and not backslash-escaped, following CommonMark's rules for the
///   two things that decide it: a backslash before ASCII punctuation makes it literal, and a code
///   span runs from a backtick run to the next run of the same length, its content literal.
public enum MarkdownInspector {
    /// `markdown` rendered to HTML by cmark-gfm as GitHub renders it. Throws when cmark-gfm is not
    /// installed: a test of what GitHub shows must fail then, never pass unchecked.
    public static func renderGitHubFlavoured(_ markdown: String) throws -> String {
        guard let cmark = ShellCommand.which("cmark-gfm") else {
            throw HarnessError.missingProgram("cmark-gfm (Debian package cmark-gfm, in `scripts/install-deps.sh --test`), needed to render report.md as GitHub does,")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-audit-gfm-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("\(UUID().uuidString).md")
        try Data(markdown.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try ShellCommand.run(cmark, ["--extension", "autolink", "--extension", "table", "--extension", "strikethrough",
                                            "--extension", "tagfilter", file.path]).stdout
    }

    /// Every link (`<a href=…>`) and image (`<img …>`) element in `html`, as written.
    public static func links(inHTML html: String) -> [String] {
        var found: [String] = []
        var rest = html[...]
        while let start = rest.range(of: "<(a|img)\\s", options: [.regularExpression, .caseInsensitive]) {
            let end = rest[start.lowerBound...].firstIndex(of: ">") ?? rest.endIndex
            found.append(String(rest[start.lowerBound..<end]) + ">")
            rest = rest[end...]
        }
        return found
    }

    /// The text a reader sees in `html`: tags removed, the five entities cmark writes decoded,
    /// whitespace folded.
    public static func visibleText(ofHTML html: String) -> String {
        // Inline elements join the text around them; block elements separate it.
        let inline = html.replacingOccurrences(of: "</?(code|em|strong|del|a)\\b[^>]*>", with: "", options: .regularExpression)
        let stripped = inline.replacingOccurrences(of: "<[^>]*>", with: " ", options: .regularExpression)
        let decoded = stripped.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
        return decoded.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

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
