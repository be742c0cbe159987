/// Every schema check, in the order they run. Add a check here and its rules are reported,
/// listed by `--list-findings` and required in docs/findings.md.
public enum SchemaRegistry {
    public static let checks: [any SchemaCheck.Type] = [
        ComponentsCheck.self,
        DefaultsCheck.self,
        SubstitutionVariablesCheck.self,
        PatternLintCheck.self,
    ]

    /// Every rule of every schema check.
    public static var rules: [Rule] { checks.flatMap { $0.rules } }

    /// Runs every check on `document`.
    public static func findings(in document: AASADocument) -> [Finding] {
        checks.flatMap { $0.findings(in: document) }
    }
}
