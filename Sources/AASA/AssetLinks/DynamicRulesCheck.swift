/// Android 15's Dynamic App Links: a statement's `relation_extensions` object, keyed by relation
/// string; under `delegate_permission/common.handle_all_urls`, `dynamic_app_deep_link_components` is an
/// array of objects whose keys are `/` (path pattern, string), `?` (query: an object of parameter name
/// to value pattern, strings), `#` (fragment pattern, string), `exclude` (boolean) and `comments`
/// (string). Source: Android, *Create Dynamic App Links* / *Verify Android App Links*
/// (developer.android.com/training/app-links) and Digital Asset Links *Statement List Syntax*
/// (`relation_extensions`: an object keyed by relation string, each value an object).
public enum DynamicRulesCheck {
    public static let type = Rule("assetlinks.dynamic-rule-type", .error,
        meaning: "A value of relation_extensions or of a dynamic_app_deep_link_components rule has the wrong JSON type (\"/\", \"#\" and \"comments\" are strings, \"?\" an object of strings, \"exclude\" a boolean); Android 15 cannot use the rule.",
        fix: "Give each key its documented type, e.g. {\"/\": \"/products/*\", \"?\": {\"ref\": \"*\"}, \"exclude\": true, \"comments\": \"…\"}.")
    public static let unknownKey = Rule("assetlinks.dynamic-rule-key", .warning,
        meaning: "A dynamic_app_deep_link_components rule has a key other than \"/\", \"?\", \"#\", \"exclude\" and \"comments\"; Android ignores it, so the rule may match more than intended.",
        fix: "Use only the documented keys; put notes in \"comments\".")
    public static let relationNotGranted = Rule("assetlinks.dynamic-rule-relation", .warning,
        meaning: "relation_extensions has an entry for a relation the statement does not list in \"relation\"; the extension applies to nothing.",
        fix: "Add the relation to \"relation\" or move the extension to the statement that grants it.")

    public static let rules = [type, unknownKey, relationNotGranted]

    static let componentKeys = ["/", "?", "#", "exclude", "comments"]
    static let componentsKey = "dynamic_app_deep_link_components"

    static func findings(_ value: JSONValue, relations: [String], pointer: String) -> [Finding] {
        guard let extensions = value.objectValue else {
            return [type.finding("relation_extensions at \(pointer) is \(AssetLinksStatementCheck.article(value.typeName)), not an object keyed by relation.", pointer: pointer)]
        }
        var findings: [Finding] = []
        for (relation, extensionValue) in extensions.members {
            let relationPointer = JSONPointer.appending(pointer, relation)
            if !relations.contains(relation) {
                findings.append(relationNotGranted.finding("relation_extensions has an entry for \(relation.jsonQuoted), which this statement's \"relation\" does not list.", pointer: relationPointer))
            }
            guard let object = extensionValue.objectValue else {
                findings.append(type.finding("The extension at \(relationPointer) is \(AssetLinksStatementCheck.article(extensionValue.typeName)), not an object.", pointer: relationPointer))
                continue
            }
            guard relation == AssetLinksDocument.Relation.handleAllURLs, let components = object[componentsKey] else { continue }
            let componentsPointer = JSONPointer.appending(relationPointer, componentsKey)
            guard let rules = components.arrayValue else {
                findings.append(type.finding("\(componentsKey) at \(componentsPointer) is \(AssetLinksStatementCheck.article(components.typeName)), not an array of rules.", pointer: componentsPointer))
                continue
            }
            for (index, rule) in rules.enumerated() {
                findings += ruleFindings(rule, pointer: JSONPointer.appending(componentsPointer, index))
            }
        }
        return findings
    }

    static func ruleFindings(_ value: JSONValue, pointer: String) -> [Finding] {
        guard let rule = value.objectValue else {
            return [type.finding("Dynamic rule \(pointer) is \(AssetLinksStatementCheck.article(value.typeName)), not an object.", pointer: pointer)]
        }
        var findings: [Finding] = []
        for (key, member) in rule.members {
            let keyPointer = JSONPointer.appending(pointer, key)
            switch key {
            case "/", "#", "comments":
                if member.stringValue == nil {
                    findings.append(type.finding("\"\(key)\" is \(AssetLinksStatementCheck.article(member.typeName)), not a string.", pointer: keyPointer))
                }
            case "exclude":
                if member.boolValue == nil {
                    var message = "\"exclude\" is \(AssetLinksStatementCheck.article(member.typeName)), not a boolean."
                    if let text = member.stringValue, text == "true" || text == "false" { message += " Write \(text) without quotes." }
                    findings.append(type.finding(message, pointer: keyPointer))
                }
            case "?":
                guard let query = member.objectValue else {
                    findings.append(type.finding("\"?\" is \(AssetLinksStatementCheck.article(member.typeName)), not an object of parameter names to value patterns.", pointer: keyPointer))
                    continue
                }
                for (name, pattern) in query.members where pattern.stringValue == nil {
                    let parameterPointer = JSONPointer.appending(keyPointer, name)
                    findings.append(type.finding("Query parameter \(name.jsonQuoted) is \(AssetLinksStatementCheck.article(pattern.typeName)), not a string pattern.", pointer: parameterPointer))
                }
            default:
                let near = EditDistance.nearMiss(of: key, among: componentKeys.filter { $0.count > 1 }, maximum: 2)
                findings.append(unknownKey.finding("This dynamic rule has the key \(key.jsonQuoted), which Android does not read." + (near.map { " Did you mean \($0.jsonQuoted)?" } ?? ""), pointer: keyPointer))
            }
        }
        return findings
    }
}
