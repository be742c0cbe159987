import Foundation

/// HTML escaping for text that came from the network or from the input.
public enum HTMLEscaping {
    /// Returns `text` safe to place in HTML element content and in quoted attribute values.
    ///
    /// Escapes `& < > " '`. Control characters, which HTML forbids and which would otherwise be
    /// invisible, are shown as their Unicode control pictures (ESC as "␛"); C1 controls and the
    /// bidirectional overrides and isolates (which could make a domain name display as another) become
    /// U+FFFD. Tab, line feed and carriage return are kept so that served bodies keep their shape.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        append(text, to: &out)
        return out
    }

    /// Appends the escaped form of `text` to `out`, without building an intermediate string,
    /// so that rendering stays linear in the size of the report. `quotes`: false for text placed in
    /// element content only (never in an attribute), where `"` and `'` are plain characters.
    /// `oneLine`: true for a cell of a line of preformatted text (the passing list), which must not
    /// end its line or its cell: tab, line feed and carriage return are shown as their control
    /// pictures too, and the line and paragraph separators become U+FFFD.
    static func append<S: StringProtocol>(_ text: S, to out: inout String, quotes: Bool = true, oneLine: Bool = false) {
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where quotes: out += "&quot;"
            case "'" where quotes: out += "&#39;"
            // (A `where` would bind to the last pattern only.)
            case "\t", "\n", "\r":
                if oneLine { out += Unicode.Scalar(0x2400 + scalar.value).map(String.init) ?? "\u{FFFD}" } else { out.unicodeScalars.append(scalar) }
            case "\u{2028}", "\u{2029}":
                if oneLine { out += "\u{FFFD}" } else { out.unicodeScalars.append(scalar) }
            default:
                switch UnsafeCharacter(scalar) {
                case .c0?: out += Unicode.Scalar(0x2400 + scalar.value).map(String.init) ?? "\u{FFFD}"
                case .delete?: out += "\u{2421}"
                case .c1?, .bidi?: out += "\u{FFFD}"
                case nil: out.unicodeScalars.append(scalar)
                }
            }
        }
    }
}

/// Makes fragment identifiers from domain names: only `[a-z0-9-]`, and unique within one document.
struct AnchorNamer {
    private var used: Set<String> = []

    /// The anchor for `domain`: lower-cased, anything outside `[a-z0-9]` turned into "-", runs of
    /// "-" collapsed, prefixed with "d-" so it never starts with a digit or is empty. A counter
    /// suffix ("-2", "-3" ...) keeps it unique when two domains sanitise alike.
    mutating func anchor(for domain: String) -> String {
        var base = "d-"
        var lastWasDash = true
        for scalar in domain.lowercased().unicodeScalars {
            let v = scalar.value
            if (0x61...0x7A).contains(v) || (0x30...0x39).contains(v) {
                base.unicodeScalars.append(scalar)
                lastWasDash = false
            } else if !lastWasDash {
                base += "-"
                lastWasDash = true
            }
        }
        // Long names stay usable as fragment identifiers; uniqueness comes from the counter.
        if base.count > 64 { base = String(base.prefix(64)) }
        while base.hasSuffix("-") { base.removeLast() }
        var candidate = base
        var counter = 2
        while used.contains(candidate) {
            candidate = "\(base)-\(counter)"
            counter += 1
        }
        used.insert(candidate)
        return candidate
    }
}
