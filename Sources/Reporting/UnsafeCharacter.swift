/// The characters no report may pass on as they are: the one definition under the HTML, XML,
/// Markdown, terminal and terminal-JSON escapers, which decide only what each becomes in their format.
///
/// Control characters are invisible and act on terminals; C1 controls include the 8-bit CSI and
/// OSC; the bidirectional overrides and isolates make text display in another order than it is
/// (a domain name shown as another).
enum UnsafeCharacter: Equatable {
    /// C0 controls, U+0000–U+001F (tab, line feed, carriage return and ESC included).
    case c0
    /// DEL, U+007F.
    case delete
    /// C1 controls, U+0080–U+009F.
    case c1
    /// The bidirectional embeddings and overrides (U+202A–U+202E) and isolates (U+2066–U+2069).
    case bidi

    /// The kind of `scalar`, or nil for a character that is safe as it is.
    init?(_ scalar: Unicode.Scalar) {
        switch scalar.value {
        case 0x00..<0x20: self = .c0
        case 0x7F: self = .delete
        case 0x80..<0xA0: self = .c1
        case 0x202A...0x202E, 0x2066...0x2069: self = .bidi
        default: return nil
        }
    }
}
