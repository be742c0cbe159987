/// A URL written from a rule's patterns, one the rule matches: what `aasa-audit diff` decides with
/// both files when no URLs are given, so every rule of either file is tried once.
///
/// `*` and `?` become `x` (`?*` becomes `xx`), `$(name)` the variable's first value (`en` for
/// `$(lang)` and `US` for `$(region)`, which read better than the lists' first codes), with that
/// value's own wildcards written the same way; a missing leading `/` is added. A query dictionary
/// gives one `name=value` per item, a fragment `#` and its text. The sample is a path (no host).
public enum SampleURL {
    /// The sample for a component object, nil for a value that is not an object.
    /// - Parameter variables: the document's custom variables (`applinks.substitutionVariables`).
    public static func forComponent(_ component: JSONValue, variables: [String: [String]]) -> String? {
        guard let object = component.objectValue else { return nil }
        let write = { (pattern: String) in expand(pattern, variables: variables) }
        var url = "/"
        if let path = object["/"]?.stringValue {
            let written = write(path)
            url = written.hasPrefix("/") ? written : "/" + written
        }
        switch object["?"] {
        case .string(let query)?:
            let written = write(query)
            if !written.isEmpty { url += "?" + written }
        case .object(let items)?:
            let pairs = items.members.compactMap { member in member.value.stringValue.map { "\(member.key)=\(write($0))" } }
            if !pairs.isEmpty { url += "?" + pairs.joined(separator: "&") }
        default:
            break
        }
        if let fragment = object["#"]?.stringValue, !fragment.isEmpty { url += "#" + write(fragment) }
        return url
    }

    /// The sample for a legacy `paths` string: `NOT ` dropped, no variables (legacy paths have none).
    public static func forPath(_ path: String) -> String {
        let pattern = path.hasPrefix("NOT ") ? String(path.dropFirst(4)) : path
        let written = wildcardsWritten(pattern)
        return written.hasPrefix("/") ? written : "/" + written
    }

    /// Variables replaced by a value, then wildcards written.
    static func expand(_ pattern: String, variables: [String: [String]]) -> String {
        var result = ""
        for piece in GlobPattern.pieces(of: pattern) {
            switch piece {
            case .text(let text):
                result += wildcardsWritten(text)
            case .variable(let name):
                // An undefined variable never matches; its name keeps the sample readable.
                let values = variables[name] ?? PredefinedVariables.values(of: name) ?? []
                let preferred = preferredValues[name].flatMap { preferred in values.first { $0 == preferred } }
                result += wildcardsWritten(preferred ?? values.first ?? name)
            }
        }
        return result
    }

    /// Readable values of predefined variables, used when the variable's list holds them.
    static let preferredValues = ["lang": "en", "region": "US", "digit": "1"]

    static func wildcardsWritten(_ text: String) -> String {
        String(text.map { $0 == "*" || $0 == "?" ? "x" : $0 })
    }
}
