/// The `components` of every details entry (AL-007, AL-008): the array and its objects, the type of
/// every documented key, unknown or misspelled keys, and components that specify no pattern at all.
public enum ComponentsCheck: SchemaCheck {
    public static let emptyComponent = Rule("schema.empty-component", .warning,
        meaning: "A component has none of \"/\", \"?\" and \"#\", so it matches every URL on the domain (and, with \"exclude\": true, blocks every URL).",
        fix: "Give the component at least one of \"/\", \"?\" or \"#\"; to match everything on purpose, write \"/\": \"*\".")

    // schema.type and schema.unknown-key are shared with other checks: see SchemaRules.
    public static let rules = [emptyComponent]

    public static func findings(in document: AASADocument) -> [Finding] {
        var findings: [Finding] = []
        for entry in document.detailsEntries {
            guard let components = entry.object?["components"] else { continue }
            let pointer = JSONPointer.appending(entry.pointer, "components")
            guard let items = components.arrayValue else {
                findings.append(SchemaRules.type.finding(
                    "\"components\" is \(ComponentKeyNames.article(components.typeName)) \(components.typeName); it must be an array of component objects.",
                    fix: "Write \"components\": [ { \"/\": \"/path/*\" }, … ], one object per rule.",
                    pointer: pointer))
                continue
            }
            for (index, item) in items.enumerated() {
                let itemPointer = JSONPointer.appending(pointer, index)
                guard let component = item.objectValue else {
                    let example = item.stringValue.map { "{ \"/\": \"\($0)\" }" } ?? "{ \"/\": \"/path/*\" }"
                    findings.append(SchemaRules.type.finding(
                        "Component \(index) is \(ComponentKeyNames.article(item.typeName)) \(item.typeName); each item of \"components\" must be an object.",
                        fix: "Write the rule as an object, e.g. \(example).",
                        pointer: itemPointer))
                    continue
                }
                findings += componentFindings(component, pointer: itemPointer)
            }
        }
        return findings
    }

    /// Every component object of every details entry (both forms of `details`), with its pointer, in document order.
    /// Items that are not objects, and `components` values that are not arrays, are skipped (this check reports them).
    static func components(in document: AASADocument) -> [(pointer: String, object: JSONObject)] {
        var result: [(pointer: String, object: JSONObject)] = []
        for entry in document.detailsEntries {
            guard let items = entry.object?["components"]?.arrayValue else { continue }
            let base = JSONPointer.appending(entry.pointer, "components")
            for (index, item) in items.enumerated() {
                if let object = item.objectValue { result.append((JSONPointer.appending(base, index), object)) }
            }
        }
        return result
    }

    /// The members Apple sees, in document order: for a repeated key only the last occurrence counts
    /// (the duplicate itself is the JSON checks' business), so it is reported once.
    static func effectiveMembers(of object: JSONObject) -> [(key: String, value: JSONValue)] {
        var seen = Set<String>()
        var reversed: [(key: String, value: JSONValue)] = []
        for member in object.members.reversed() where seen.insert(member.key).inserted {
            reversed.append(member)
        }
        return reversed.reversed()
    }

    private static func componentFindings(_ component: JSONObject, pointer: String) -> [Finding] {
        var findings: [Finding] = []
        for (key, value) in effectiveMembers(of: component) {
            let valuePointer = JSONPointer.appending(pointer, key)
            switch key {
            case "/", "#", "comment":
                guard value.stringValue == nil else { continue }
                let what = key == "comment" ? "text" : "pattern"
                let example = key == "/" ? "\"/path/*\"" : key == "#" ? "\"section-*\"" : "\"why this rule exists\""
                findings.append(SchemaRules.type.finding(
                    "Component key \"\(key)\" is \(ComponentKeyNames.article(value.typeName)) \(value.typeName); it must be a string \(what).",
                    fix: "Write the value as a string, e.g. \"\(key)\": \(example).",
                    pointer: valuePointer))
            case "?":
                findings += queryFindings(value, pointer: valuePointer)
            case _ where ComponentKeyNames.booleanKeys.contains(key):
                guard value.boolValue == nil else { continue }
                let problem = ComponentKeyNames.booleanTypeProblem(key: key, value: value, in: "in this component")
                findings.append(SchemaRules.type.finding(problem.message, fix: problem.fix, pointer: valuePointer))
            default:
                findings.append(unknownKeyFinding(key, value: value, pointer: valuePointer))
            }
        }
        if !ComponentKeyNames.patternKeys.contains(where: { component[$0] != nil }) {
            let blocks = component["exclude"]?.boolValue == true
            let consequence = blocks
                ? "it matches every URL, and because it has \"exclude\": true it blocks every URL that no earlier component has matched"
                : "it matches every URL on the domain"
            findings.append(emptyComponent.finding(
                "This component has none of \"/\", \"?\" and \"#\", so \(consequence).",
                fix: blocks
                    ? "Add the \"/\", \"?\" or \"#\" pattern this exclusion is meant for, or remove the component."
                    : emptyComponent.fix,
                pointer: pointer))
        }
        return findings
    }

    private static func queryFindings(_ value: JSONValue, pointer: String) -> [Finding] {
        if value.stringValue != nil { return [] }
        guard let dictionary = value.objectValue else {
            return [SchemaRules.type.finding(
                "Component key \"?\" is \(ComponentKeyNames.article(value.typeName)) \(value.typeName); it must be a string (matched against the whole query) or an object of query item names to patterns.",
                fix: "Write \"?\": \"*\" or \"?\": { \"id\": \"?*\" }.",
                pointer: pointer)]
        }
        var findings: [Finding] = []
        for (name, itemValue) in effectiveMembers(of: dictionary) where itemValue.stringValue == nil {
            let example = itemValue.numberValue.map { "\"\($0.text)\"" } ?? "\"?*\""
            findings.append(SchemaRules.type.finding(
                "Query item \"\(name)\" has \(ComponentKeyNames.article(itemValue.typeName)) \(itemValue.typeName) value; query patterns must be strings, and when any value is not a string swcutil ignores the whole \"?\" dictionary, so none of its items is checked.",
                fix: "Write the pattern as a string, e.g. \"\(name)\": \(example).",
                pointer: JSONPointer.appending(pointer, name)))
        }
        return findings
    }

    private static func unknownKeyFinding(_ key: String, value: JSONValue, pointer: String) -> Finding {
        let known = "Component keys are \"/\", \"?\", \"#\", \"exclude\", \"comment\", \"caseSensitive\" and \"percentEncoded\"."
        // A key that is itself a path ("/sign": …) is a pattern written where its key belongs.
        if key.count > 1, key.first == "/" {
            return SchemaRules.unknownKey.finding(
                "Component key \"\(key)\" looks like a path used as a key; Apple ignores it. \(known)",
                fix: "Write the path as the value of \"/\": { \"/\": \"\(key)\" }.",
                pointer: pointer)
        }
        if let suggestion = ComponentKeyNames.suggestion(for: key) {
            let rewritten = value.boolValue.map { "\"\(suggestion)\": \($0)" } ?? "\"\(suggestion)\""
            return SchemaRules.unknownKey.finding(
                "Component key \"\(key)\" is not a key Apple knows, so it is ignored; did you mean \"\(suggestion)\"?",
                fix: "Rename the key to \(rewritten).",
                pointer: pointer)
        }
        return SchemaRules.unknownKey.finding(
            "Component key \"\(key)\" is not a key Apple knows, so it is ignored. \(known)",
            fix: "Remove \"\(key)\", or rename it to the documented key it was meant to be.",
            pointer: pointer)
    }
}
