import Foundation

/// A finding the tool can emit: stable id, default severity, what it means and how to fix it.
/// Declared next to the check that reports it; listed in `RuleRegistry` and docs/findings.md.
public struct Rule: Sendable, Equatable {
    public let id: String
    public let severity: Severity
    /// The id of the audit's check that reports the rule ("tls", "cdn" ...), copied into each of its
    /// findings (`Finding.check`). Nil for the core's rules, which `validate` reports with no check;
    /// the audit's check that reports one on a served file declares its copy (`reported(by:)`).
    public let check: String?
    /// One sentence: what the finding means.
    public let meaning: String
    /// The usual fix.
    public let fix: String

    public init(_ id: String, _ severity: Severity, check: String? = nil, meaning: String, fix: String) {
        self.id = id
        self.severity = severity
        self.check = check
        self.meaning = meaning
        self.fix = fix
    }

    /// A finding of this rule with a message naming the specifics (and a more specific fix, if any,
    /// and the technical detail behind the message, if any: `Finding.detail`).
    public func finding(_ message: String, fix specificFix: String? = nil, pointer: String? = nil, detail: String? = nil) -> Finding {
        Finding(id: id, severity: severity, message: message, fix: specificFix ?? fix, pointer: pointer, check: check, detail: detail)
    }

    /// This rule as reported by the check `check`: a core rule the audit reports on a served file.
    public func reported(by check: String) -> Rule {
        Rule(id, severity, check: check, meaning: meaning, fix: fix)
    }
}
