import Foundation

extension TerminalText {
    /// JSON text (from JSONEncoder or `JSONReporter`) with every character a terminal may act on
    /// written as a `\uXXXX` escape, for JSON printed on standard output (`--json`).
    ///
    /// JSONEncoder escapes the C0 controls (ESC included) but writes DEL, the C1 controls (U+009B is
    /// a CSI to some terminals) and the bidirectional overrides as they are, and those come from
    /// served files and headers. Outside strings the encoders write only ASCII punctuation, digits
    /// and letters, so every such character is inside a string, where the escape means the same:
    /// the JSON decodes to the same values.
    public static func jsonForTerminal(_ data: Data) -> String {
        var out = ""
        out.reserveCapacity(data.count)
        for scalar in String(decoding: data, as: UTF8.self).unicodeScalars {
            switch scalar.value {
            case 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029:
                out += String(format: "\\u%04x", scalar.value)
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
