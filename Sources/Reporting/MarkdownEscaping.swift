import Foundation

/// Markdown escaping for text that came from the network or from the input.
public enum MarkdownEscaping {
    /// Characters that start Markdown (CommonMark and GitHub's tables) syntax inline; each is
    /// written with a backslash, which CommonMark defines as "this punctuation, literally".
    static let special: Set<Unicode.Scalar> = ["\\", "`", "*", "_", "[", "]", "<", ">", "|", "~", "&", "#", "!"]

    /// Returns `text` safe to place inline in Markdown, in a paragraph, a list item or a table cell:
    /// control characters and terminal escape sequences removed (`TerminalText.sanitize`), line
    /// breaks folded to spaces (so a value cannot start a heading, a list or a new table row), and
    /// every character in `special` backslash-escaped (no emphasis, HTML or cell breaks).
    ///
    /// Two things become code spans, whose content GitHub-flavoured Markdown shows literally:
    /// - text between a pair of backticks (the tool's own messages mark code that way: "in nginx:
    ///   \`default_type application/json;\`"), so it renders as code rather than as escaped backticks;
    /// - every word a GitHub renderer would autolink (cmark-gfm's autolink extension links bare
    ///   `https://…`, `ftp://…`, `www.…` and `name@host.tld` found in text, escaped or not): a word
    ///   holding `://`, `www.` or `@`. Backslash escapes cannot stop the e-mail autolink, which is
    ///   found after escapes are resolved; a code span does.
    /// A `|` is written `\|` outside the spans (a table cell would end at a `|` even inside a code span).
    public static func escape(_ text: String) -> String {
        var out = ""
        append(text, to: &out)
        return out
    }

    /// True when GitHub's autolink extension could turn some of `word` into a link.
    static func autolinks(_ word: Substring) -> Bool {
        word.contains("@") || word.contains("://") || word.lowercased().contains("www.")
    }

    /// Returns `text` as an inline code span that holds it literally.
    ///
    /// Backslash escapes do not work inside a code span, so `escape` cannot be used there: a
    /// backtick in the text would end the span early and let the rest be read as Markdown (raw
    /// HTML, links). The span is fenced with one backtick more than the longest run in the text,
    /// padded with a space where the text starts or ends with a backtick; control characters and
    /// line breaks are removed or folded first. Not for table cells (a `|` would end the cell).
    public static func code(_ text: String) -> String {
        let clean = TerminalText.sanitize(text)
        var longest = 0, run = 0
        for scalar in clean.unicodeScalars {
            run = scalar == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let pad = clean.hasPrefix("`") || clean.hasSuffix("`") || clean.isEmpty ? " " : ""
        return fence + pad + clean + pad + fence
    }

    /// Appends the escaped form of `text` to `out` (see `escape`).
    static func append(_ text: String, to out: inout String) {
        let clean = TerminalText.sanitize(text)
        // Pieces between backticks: odd ones are code, when their closing backtick exists.
        let pieces = clean.split(separator: "`", omittingEmptySubsequences: false)
        var index = 0
        while index < pieces.count {
            let piece = pieces[index]
            if index % 2 == 1 {
                if index + 1 < pieces.count && !piece.isEmpty {
                    codeAllowingCells(piece, to: &out)
                } else {
                    // An unpaired or empty pair of backticks: the backtick itself, literally.
                    out += "\\`"
                    words(piece, to: &out)
                    if index + 1 < pieces.count { out += "\\`" }
                }
            } else {
                words(piece, to: &out)
            }
            index += 1
        }
    }

    /// Escapes plain text word by word; a word that would autolink becomes a code span.
    static func words(_ text: Substring, to out: inout String) {
        for (i, word) in text.split(separator: " ", omittingEmptySubsequences: false).enumerated() {
            if i > 0 { out += " " }
            if autolinks(word) {
                // Punctuation of the prose stays outside the span ("… to `https://x/`; Apple …",
                // "(host: `www.x`)"): opening parentheses in front, closing punctuation after, and
                // a closing parenthesis only when the span would hold more of them than it opens.
                var start = word.startIndex, end = word.endIndex
                while start < end, word[start] == "(" { start = word.index(after: start) }
                while end > start {
                    let last = word[word.index(before: end)]
                    let span = word[start..<word.index(before: end)]
                    guard ".,;:!?".contains(last)
                        || (last == ")" && span.filter { $0 == ")" }.count >= span.filter { $0 == "(" }.count) else { break }
                    end = word.index(before: end)
                }
                plain(word[..<start], to: &out)
                codeAllowingCells(word[start..<end], to: &out)
                plain(word[end...], to: &out)
            } else {
                plain(word, to: &out)
            }
        }
    }

    /// Appends `text` with every character in `special` backslash-escaped.
    static func plain(_ text: Substring, to out: inout String) {
        for scalar in text.unicodeScalars {
            if special.contains(scalar) { out += "\\" }
            out.unicodeScalars.append(scalar)
        }
    }

    /// `text` as code spans split at each `|`, written `\|` between them, so a table cell holds it.
    static func codeAllowingCells(_ text: Substring, to out: inout String) {
        for (i, part) in text.split(separator: "|", omittingEmptySubsequences: false).enumerated() {
            if i > 0 { out += "\\|" }
            if !part.isEmpty { out += code(String(part)) }
        }
    }
}
