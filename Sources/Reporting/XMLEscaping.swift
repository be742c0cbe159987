import Foundation

/// XML 1.0 escaping for text that came from the network or from the input.
public enum XMLEscaping {
    /// Returns `text` safe in XML 1.0 element content and in double- or single-quoted attribute values.
    ///
    /// Escapes `& < > " '`; writes tab, line feed and carriage return as character references (so
    /// attribute values keep them instead of having them normalised to spaces); drops every
    /// character XML 1.0 forbids (the other C0 controls, ESC included, U+FFFE and U+FFFF); and
    /// replaces the C1 controls and the bidirectional overrides with U+FFFD, as the HTML report does.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        append(text, to: &out)
        return out
    }

    /// Appends the escaped form of `text` to `out`.
    static func append<S: StringProtocol>(_ text: S, to out: inout String) {
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x26: out += "&amp;"
            case 0x3C: out += "&lt;"
            case 0x3E: out += "&gt;"
            case 0x22: out += "&quot;"
            case 0x27: out += "&apos;"
            case 0x09: out += "&#9;"
            case 0x0A: out += "&#10;"
            case 0x0D: out += "&#13;"
            case 0xFFFE, 0xFFFF: continue
            default:
                switch UnsafeCharacter(scalar) {
                case .c0?: continue
                case .delete?, .c1?, .bidi?: out += "\u{FFFD}"
                case nil: out.unicodeScalars.append(scalar)
                }
            }
        }
    }
}
