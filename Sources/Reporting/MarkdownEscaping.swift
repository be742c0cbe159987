import Foundation

/// Markdown escaping for text that came from the network or from the input.
public enum MarkdownEscaping {
    /// Characters that start Markdown (CommonMark and GitHub's tables) syntax inline; each is
    /// written with a backslash, which CommonMark defines as "this punctuation, literally".
    static let special: Set<Unicode.Scalar> = ["\\", "`", "*", "_", "[", "]", "<", ">", "|", "~", "&", "#", "!"]

    /// Returns `text` safe to place inline in Markdown, in a paragraph, a list item or a table cell:
    /// control characters and terminal escape sequences removed (`TerminalText.sanitize`), line
    /// breaks folded to spaces (so a value cannot start a heading, a list or a new table row), and
    /// every character in `special` backslash-escaped (no emphasis, code, links, HTML or cell breaks).
    public static func escape(_ text: String) -> String {
        var out = ""
        append(text, to: &out)
        return out
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

    /// Appends the escaped form of `text` to `out`.
    static func append(_ text: String, to out: inout String) {
        for scalar in TerminalText.sanitize(text).unicodeScalars {
            if special.contains(scalar) { out += "\\" }
            out.unicodeScalars.append(scalar)
        }
    }
}
