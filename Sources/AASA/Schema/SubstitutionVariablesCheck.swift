/// `applinks.substitutionVariables` (SV-001..003): names, values, and every `$(name)` the component
/// patterns use.
public enum SubstitutionVariablesCheck: SchemaCheck {
    public static let variableName = Rule("schema.variable-name", .error,
        meaning: "A substitution variable's name is empty or contains \"$\", \"(\" or \")\", which Apple forbids; no pattern can refer to it.",
        fix: "Rename the variable to a plain name such as \"food\" and refer to it as $(food).")
    public static let variableNested = Rule("schema.variable-nested", .error,
        meaning: "A substitution variable's value refers to another variable with $(…); Apple does not allow variables inside variables.",
        fix: "Write the value out in full instead of referring to another variable.")
    public static let variableUndefined = Rule("schema.variable-undefined", .error,
        meaning: "A pattern uses $(name) for a variable that is neither defined in substitutionVariables nor predefined; the pattern never matches.",
        fix: "Define the variable in applinks.substitutionVariables, or correct its name (names are case-sensitive).")
    public static let variableShadows = Rule("schema.variable-shadows", .warning,
        meaning: "A custom substitution variable has the name of a predefined one; which definition wins is undocumented.",
        fix: "Rename the custom variable so it does not clash with a predefined name.")

    // schema.type is shared with other checks: see SchemaRules.
    public static let rules = [variableName, variableNested, variableUndefined, variableShadows]

    /// The variables Apple predefines (names are case-sensitive).
    public static let predefinedNames = ["alpha", "upper", "lower", "alnum", "digit", "xdigit", "region", "lang"]

    public static func findings(in document: AASADocument) -> [Finding] {
        var findings: [Finding] = []
        var defined = Set(predefinedNames)
        let base = "/applinks/substitutionVariables"
        if let variables = document.applinks?["substitutionVariables"] {
            if let object = variables.objectValue {
                for (name, value) in ComponentsCheck.effectiveMembers(of: object) {
                    defined.insert(name)
                    findings += variableFindings(name: name, value: value, pointer: JSONPointer.appending(base, name))
                }
            } else {
                findings.append(SchemaRules.type.finding(
                    "\"substitutionVariables\" is \(ComponentKeyNames.article(variables.typeName)) \(variables.typeName); it must be an object mapping each variable name to an array of strings.",
                    fix: "Write \"substitutionVariables\": { \"food\": [\"burrito\", \"pizza\"] }.",
                    pointer: base))
            }
        }
        for (pointer, component) in ComponentsCheck.components(in: document) {
            for (key, pattern, patternPointer) in patterns(of: component, pointer: pointer) {
                // Each undefined name once per pattern, the pattern quoted short: a pattern repeating
                // $(nope) thousands of times must not repeat itself thousands of times in the report.
                var reported = Set<String>()
                for name in references(in: pattern) where !defined.contains(name) && reported.insert(name).inserted {
                    let nearby = defined.first { $0.lowercased() == name.lowercased() }
                    findings.append(variableUndefined.finding(
                        "Pattern \"\(Excerpt.of(pattern))\" (component key \"\(key)\") uses $(\(name)), which is "
                            + (nearby.map { "not defined (names are case-sensitive; $(\($0)) is defined)" } ?? "neither defined nor predefined")
                            + ", so this pattern never matches.",
                        fix: nearby.map { "Write $(\($0)) instead of $(\(name))." }
                            ?? "Add \"\(name)\": [ … ] to applinks.substitutionVariables, or use one of the predefined variables: \(predefinedNames.map { "$(\($0))" }.joined(separator: ", ")).",
                        pointer: patternPointer))
                }
            }
        }
        return findings
    }

    private static func variableFindings(name: String, value: JSONValue, pointer: String) -> [Finding] {
        var findings: [Finding] = []
        if name.isEmpty || name.contains(where: { $0 == "$" || $0 == "(" || $0 == ")" }) {
            let cleaned = String(name.filter { $0 != "$" && $0 != "(" && $0 != ")" })
            findings.append(variableName.finding(
                name.isEmpty
                    ? "A substitution variable has an empty name; no pattern can refer to it."
                    : "Substitution variable name \"\(name)\" contains \"$\", \"(\" or \")\", which names cannot contain.",
                fix: cleaned.isEmpty
                    ? variableName.fix
                    : "Name it \"\(cleaned)\" and refer to it in patterns as $(\(cleaned)).",
                pointer: pointer))
        } else if predefinedNames.contains(name) {
            findings.append(variableShadows.finding(
                "Substitution variable \"\(name)\" has the name of the predefined variable $(\(name)); which definition a pattern gets is undocumented.",
                fix: "Rename it, e.g. \"my\(name.prefix(1).uppercased() + name.dropFirst())\", and update the patterns that use it.",
                pointer: pointer))
        }
        guard let items = value.arrayValue else {
            findings.append(SchemaRules.type.finding(
                "Substitution variable \"\(name)\" is \(ComponentKeyNames.article(value.typeName)) \(value.typeName); its value must be an array of strings.",
                fix: value.stringValue.map { "Wrap the value in an array: \"\(name)\": [\"\($0)\"]." }
                    ?? "Write \"\(name)\": [\"value1\", \"value2\"].",
                pointer: pointer))
            return findings
        }
        for (index, item) in items.enumerated() {
            let itemPointer = JSONPointer.appending(pointer, index)
            guard let text = item.stringValue else {
                findings.append(SchemaRules.type.finding(
                    "Value \(index) of substitution variable \"\(name)\" is \(ComponentKeyNames.article(item.typeName)) \(item.typeName); every value must be a string.",
                    fix: item.numberValue.map { "Quote it: \"\($0.text)\"." } ?? "Write the value as a string.",
                    pointer: itemPointer))
                continue
            }
            let nested = references(in: text)
            if !nested.isEmpty {
                findings.append(variableNested.finding(
                    "Value \"\(text)\" of substitution variable \"\(name)\" refers to \(nested.map { "$(\($0))" }.joined(separator: ", ")); a variable's values cannot use other variables.",
                    fix: "Write the values out in full in \"\(name)\" instead of referring to another variable.",
                    pointer: itemPointer))
            }
        }
        return findings
    }

    /// The component's pattern strings that may use variables: `/`, `#`, and `?` as a string or each
    /// string value of its dictionary; with the key they came from and their pointer.
    static func patterns(of component: JSONObject, pointer: String) -> [(key: String, pattern: String, pointer: String)] {
        var result: [(key: String, pattern: String, pointer: String)] = []
        for key in ComponentKeyNames.patternKeys {
            guard let value = component[key] else { continue }
            let keyPointer = JSONPointer.appending(pointer, key)
            if let pattern = value.stringValue {
                result.append((key, pattern, keyPointer))
            } else if key == "?", let dictionary = value.objectValue {
                for (name, item) in ComponentsCheck.effectiveMembers(of: dictionary) {
                    if let pattern = item.stringValue { result.append((key, pattern, JSONPointer.appending(keyPointer, name))) }
                }
            }
        }
        return result
    }

    /// The names of the `$(name)` references in `text`, in order; an unclosed `$(` is not a reference.
    static func references(in text: String) -> [String] {
        var names: [String] = []
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            let afterDollar = rest.index(after: dollar)
            guard afterDollar < rest.endIndex, rest[afterDollar] == "(" else {
                rest = rest[afterDollar...]
                continue
            }
            let nameStart = rest.index(after: afterDollar)
            guard let close = rest[nameStart...].firstIndex(of: ")") else { break }
            names.append(String(rest[nameStart..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }
}
