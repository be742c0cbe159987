import AASA

/// A check of the audit: a stable id and the rules it reports, each declared with that id
/// (`Rule.check`), so every finding names its check when it is made. `RuleRegistry` lists each check once.
public protocol Check {
    /// The check's stable id ("tls", "cdn" ...), stored in each of its findings (`Finding.check`).
    static var id: String { get }
    /// Every rule this check declares and reports.
    static var rules: [Rule] { get }
}
