/// `applinks.defaults` and each details entry's `defaults` (AL-009): an object holding only the two
/// keys Apple documents for it, each a boolean.
public enum DefaultsCheck: SchemaCheck {
    public static let defaultsKey = Rule("schema.defaults-key", .warning,
        meaning: "\"defaults\" holds a key other than \"caseSensitive\" and \"percentEncoded\"; Apple calls defaults \"a subclass of components\" but documents only those two, so what any other key does is unspecified.",
        fix: "Keep only \"caseSensitive\" and \"percentEncoded\" in \"defaults\"; put patterns and \"exclude\" in the components themselves.")

    // schema.type is shared with other checks: see SchemaRules.
    public static let rules = [defaultsKey]

    public static func findings(in document: AASADocument) -> [Finding] {
        var places: [(pointer: String, value: JSONValue)] = []
        if let value = document.applinks?["defaults"] { places.append(("/applinks/defaults", value)) }
        for entry in document.detailsEntries {
            if let value = entry.object?["defaults"] { places.append((JSONPointer.appending(entry.pointer, "defaults"), value)) }
        }
        return places.flatMap { defaultsFindings($0.value, pointer: $0.pointer) }
    }

    private static func defaultsFindings(_ value: JSONValue, pointer: String) -> [Finding] {
        guard let defaults = value.objectValue else {
            return [SchemaRules.type.finding(
                "\"defaults\" is \(ComponentKeyNames.article(value.typeName)) \(value.typeName); it must be an object such as { \"caseSensitive\": false }.",
                fix: "Write \"defaults\": { \"caseSensitive\": …, \"percentEncoded\": … } with boolean values.",
                pointer: pointer)]
        }
        var findings: [Finding] = []
        for (key, member) in ComponentsCheck.effectiveMembers(of: defaults) {
            let memberPointer = JSONPointer.appending(pointer, key)
            if ComponentKeyNames.defaultsKeys.contains(key) {
                guard member.boolValue == nil else { continue }
                let problem = ComponentKeyNames.booleanTypeProblem(key: key, value: member, in: "in \"defaults\"")
                findings.append(SchemaRules.type.finding(problem.message, fix: problem.fix, pointer: memberPointer))
            } else if let suggestion = ComponentKeyNames.suggestion(for: key, among: ComponentKeyNames.defaultsKeys) {
                findings.append(defaultsKey.finding(
                    "\"defaults\" key \"\(key)\" is not documented; did you mean \"\(suggestion)\"?",
                    fix: "Rename the key to \"\(suggestion)\".",
                    pointer: memberPointer))
            } else {
                let componentKey = ComponentKeyNames.all.contains(key)
                findings.append(defaultsKey.finding(
                    componentKey
                        ? "\"defaults\" key \"\(key)\" is a component key; Apple documents only \"caseSensitive\" and \"percentEncoded\" in defaults, so its effect here is unspecified."
                        : "\"defaults\" key \"\(key)\" is not documented; Apple documents only \"caseSensitive\" and \"percentEncoded\" in defaults, so its effect is unspecified.",
                    fix: componentKey
                        ? "Move \"\(key)\" into each component that needs it and remove it from \"defaults\"."
                        : "Remove \"\(key)\" from \"defaults\".",
                    pointer: memberPointer))
            }
        }
        return findings
    }
}
