import Audit

/// The table of every finding the tool can emit, as Markdown (docs/findings.md is made from it).
public enum FindingsTable {
    /// Ends the meaning of a rule whose findings make a location unusable (`LocationUsability`).
    public static let unusableMark = "**Unusable:** Apple reads no file from a location with this finding."

    /// One row per rule, grouped by category in registry order; the meaning of each rule that makes
    /// a location unusable ends with `unusableMark`.
    public static func markdown() -> String {
        var text = "| id | severity | meaning | fix |\n|---|---|---|---|\n"
        for rule in RuleRegistry.allRules {
            let meaning = LocationUsability.makesUnusable(rule.id) ? rule.meaning + " " + unusableMark : rule.meaning
            text += "| `\(rule.id)` | \(rule.severity.rawValue) | \(cell(meaning)) | \(cell(rule.fix)) |\n"
        }
        return text
    }

    private static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}
