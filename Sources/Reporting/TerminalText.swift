import Foundation

/// Makes untrusted text safe to write to a terminal.
///
/// Anything a server sends (headers, certificate names, error text) can contain escape
/// sequences that recolour, retitle or rewrite the terminal; nothing from the network may
/// reach the console without passing through `sanitize`.
public enum TerminalText {
    /// Returns `text` with every control character and escape sequence removed, for one line of output.
    ///
    /// Removed: ESC and the whole sequence it starts (CSI `ESC [`, OSC `ESC ]`, DCS, SOS, PM, APC
    /// up to their terminator, and two-character escapes), C1 controls (U+0080–U+009F, including
    /// the 8-bit CSI and OSC with their sequences), BEL, carriage return, DEL, the other C0
    /// controls, and the Unicode bidirectional overrides (which can make text display in a
    /// different order than it is). Tab and line feed become a space, so a value stays on its line.
    /// An unterminated string sequence (OSC ...) swallows the rest of the text, as a terminal would.
    public static func sanitize(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        while i < scalars.count {
            let value = scalars[i].value
            switch value {
            case 0x1B:
                i = skipEscape(scalars, at: i + 1)
            case 0x9B:
                i = skipControlSequence(scalars, at: i + 1)
            case 0x90, 0x98, 0x9D, 0x9E, 0x9F:
                i = skipControlString(scalars, at: i + 1)
            case 0x09, 0x0A:
                out.append(" ")
                i += 1
            default:
                if UnsafeCharacter(scalars[i]) == nil { out.append(scalars[i]) }
                i += 1
            }
        }
        return String(out)
    }

    /// Shortens `text` to at most `width` characters, ending with "…" when it was cut.
    ///
    /// Counts characters, not display columns: close enough for a summary line, and it never
    /// splits a character in two.
    public static func truncate(_ text: String, toWidth width: Int) -> String {
        guard width > 0 else { return "" }
        guard text.count > width else { return text }
        return String(text.prefix(width - 1)) + "…"
    }

    /// Skips what follows an ESC; returns the index after the sequence.
    private static func skipEscape(_ s: [Unicode.Scalar], at start: Int) -> Int {
        guard start < s.count else { return start }
        switch s[start] {
        case "[":
            return skipControlSequence(s, at: start + 1)
        case "]", "P", "X", "^", "_":
            return skipControlString(s, at: start + 1)
        default:
            // nF escapes: intermediates 0x20–0x2F, then one final character.
            var i = start
            while i < s.count, (0x20...0x2F).contains(s[i].value) { i += 1 }
            if i < s.count, (0x30...0x7E).contains(s[i].value) { i += 1 }
            return i
        }
    }

    /// Skips CSI parameters and intermediates up to and including the final byte (0x40–0x7E).
    /// Stops before anything that cannot be part of a CSI, so that it is handled on its own.
    private static func skipControlSequence(_ s: [Unicode.Scalar], at start: Int) -> Int {
        var i = start
        while i < s.count {
            let v = s[i].value
            if (0x40...0x7E).contains(v) { return i + 1 }
            if !(0x20...0x3F).contains(v) { return i }
            i += 1
        }
        return i
    }

    /// Skips an OSC/DCS/SOS/PM/APC body up to BEL, ST (ESC \) or the 8-bit ST.
    private static func skipControlString(_ s: [Unicode.Scalar], at start: Int) -> Int {
        var i = start
        while i < s.count {
            switch s[i].value {
            case 0x07, 0x9C:
                return i + 1
            case 0x1B:
                return (i + 1 < s.count && s[i + 1] == "\\") ? i + 2 : i + 1
            default:
                i += 1
            }
        }
        return i
    }
}
