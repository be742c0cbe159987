/// Rules that more than one schema check reports, declared once so each id has one meaning.
/// Not a check itself: the checks that emit these rules leave them out of their own `rules`.
public enum SchemaRules {
    public static let type = Rule("schema.type", .error,
        meaning: "A value has the wrong JSON type; Apple ignores it or rejects the part of the file that holds it.",
        fix: "Give the value the type Apple documents for this key (string, boolean, array or object).")
    public static let unknownKey = Rule("schema.unknown-key", .warning,
        meaning: "A key Apple does not document; it is ignored, so whatever it was meant to do does not happen.",
        fix: "Remove the key, or correct its spelling to a documented key.")

    /// The shared rules, to be listed once alongside the checks' own rules.
    public static let rules = [type, unknownKey]
}
