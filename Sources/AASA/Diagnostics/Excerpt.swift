/// Document text quoted in a message, cut to a readable length. A finding quotes the pattern or rule
/// it is about; quoted whole, a hostile file (a 90 KB comment in a rule that 3,000 later rules are
/// compared with, a 35 KB pattern with 5,000 references) would make one report hundreds of megabytes.
/// The finding's pointer still locates the text exactly.
public enum Excerpt {
    /// How many characters (Unicode scalars) a quotation keeps.
    public static let limit = 160

    /// `text` when it has at most `limit` characters; else its first `limit` characters, "…" and the
    /// whole text's length.
    public static func of(_ text: String, limit: Int = Excerpt.limit) -> String {
        let scalars = text.unicodeScalars
        guard let cut = scalars.index(scalars.startIndex, offsetBy: limit, limitedBy: scalars.endIndex),
              cut != scalars.endIndex else { return text }
        return String(scalars[..<cut]) + "… (\(scalars.count) characters)"
    }
}
