import Audit

/// The table of every finding the tool can emit, as Markdown (docs/findings.md is made from it).
public enum FindingsTable {
    /// One row per rule, grouped by category in registry order.
    public static func markdown() -> String {
        var text = "| id | severity | meaning | fix |\n|---|---|---|---|\n"
        for rule in RuleRegistry.allRules {
            text += "| `\(rule.id)` | \(rule.severity.rawValue) | \(cell(rule.meaning)) | \(cell(rule.fix)) |\n"
        }
        return text
    }

    private static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}
