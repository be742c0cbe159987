/// Rules that more than one schema check reports, declared once so each id has one meaning.
/// Not a check itself: the checks that emit these rules leave them out of their own `rules`.
public enum SchemaRules {
    public static let type = Rule("schema.type", .error,
        meaning: "A value has the wrong JSON type; Apple ignores it or rejects the part of the file that holds it.",
        fix: "Give the value the type Apple documents for this key (string, boolean, array or object).")
    public static let unknownKey = Rule("schema.unknown-key", .warning,
        meaning: "A key Apple does not document; it is ignored, so whatever it was meant to do does not happen.",
        fix: "Remove the key, or correct its spelling to a documented key.")

    /// The message and fix of `schema.unknown-key` for `key` inside `place` (`"webcredentials"`, `a
    /// details entry`) when `key` is one of Apple's services: Apple reads a service only at the top
    /// level, so the finding says where it belongs rather than only that it is ignored. Nil for any
    /// other key. `atTopLevel`: the file already has that service at the top level.
    public static func misplacedService(_ key: String, in place: String, atTopLevel: Bool) -> (message: String, fix: String)? {
        guard AASADocument.serviceKeys.contains(key) else { return nil }
        let message = "\(place) has the key \(key.jsonQuoted), a service, which belongs at the top level of the file; "
            + "Apple reads services only there and ignores it here."
        let fix = atTopLevel
            ? "Move what \(key.jsonQuoted) holds here into the top-level \(key.jsonQuoted), and remove it from \(place)."
            : "Move \(key.jsonQuoted) and its value out of \(place) to the top level of the file, beside the other services."
        return (message, fix)
    }

    /// The shared rules, to be listed once alongside the checks' own rules.
    public static let rules = [type, unknownKey]
}
