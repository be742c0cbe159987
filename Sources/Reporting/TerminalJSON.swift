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
            // The C0 controls are escaped by the encoders already; U+2028 and U+2029 end lines in some readers.
            switch UnsafeCharacter(scalar) {
            case .delete?, .c1?, .bidi?:
                out += String(format: "\\u%04x", scalar.value)
            case .c0?, nil:
                if scalar.value == 0x2028 || scalar.value == 0x2029 {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
