/// Every schema check, in the order they run. Add a check here and its rules are reported,
/// listed by `--list-findings` and required in docs/findings.md.
public enum SchemaRegistry {
    public static let checks: [any SchemaCheck.Type] = [
        ServiceKeysCheck.self,
        AppListCheck.self,
        DetailsCheck.self,
        AppIDCheck.self,
        ComponentsCheck.self,
        DefaultsCheck.self,
        SubstitutionVariablesCheck.self,
        PatternLintCheck.self,
        RuleReachabilityCheck.self,
    ]

    /// Every rule of every schema check, and the rules several checks share (`SchemaRules`).
    public static var rules: [Rule] { SchemaRules.rules + checks.flatMap { $0.rules } }

    /// Runs every check on `document`.
    public static func findings(in document: AASADocument) -> [Finding] {
        checks.flatMap { $0.findings(in: document) }
    }
}
