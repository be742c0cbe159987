/// A counted noun and the verb that agrees with it, for every sentence that counts (rules, entries,
/// expectations, bytes): "the rule after it never applies", "the 2 rules after it never apply".
public enum Counted {
    /// "no rules", "1 rule", "2 rules"; `capitalized` for the start of a sentence ("No rules").
    public static func noun(_ count: Int, _ singular: String, _ plural: String? = nil, capitalized: Bool = false) -> String {
        let words = count == 1 ? singular : (plural ?? singular + "s")
        if count == 0 { return (capitalized ? "No " : "no ") + words }
        return "\(count) \(words)"
    }

    /// The verb for `count` subjects: `singular` for exactly one, `plural` otherwise ("applies", "apply").
    public static func verb(_ count: Int, _ singular: String, _ plural: String) -> String {
        count == 1 ? singular : plural
    }
}
