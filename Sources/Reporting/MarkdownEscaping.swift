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

    /// Appends the escaped form of `text` to `out`.
    static func append(_ text: String, to out: inout String) {
        for scalar in TerminalText.sanitize(text).unicodeScalars {
            if special.contains(scalar) { out += "\\" }
            out.unicodeScalars.append(scalar)
        }
    }
}
