/// One difference between two versions of a file, as `aasa-audit diff` lists them: what changed,
/// where, and in words.
public struct DocumentChange: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Equatable, Codable {
        case added, removed, changed, moved
    }

    public var kind: Kind
    /// What the change is about: `service`, `app`, `defaults`, `variable`, `entry` or `rule`.
    public var subject: String
    /// JSON pointer of what changed: in the new file, or in the old one for what was removed.
    public var pointer: String
    /// The change in words: `details 0 (ABCDE12345.com.example.app): component 2 added { "/": "/buy/*" }`.
    public var summary: String

    public init(kind: Kind, subject: String, pointer: String, summary: String) {
        self.kind = kind
        self.subject = subject
        self.pointer = pointer
        self.summary = summary
    }
}

/// A URL whose decision differs between the two files.
public struct DecisionChange: Sendable, Equatable, Codable {
    public var url: String
    /// The decision with the old file.
    public var old: MatchResult
    /// The decision with the new file.
    public var new: MatchResult

    public init(url: String, old: MatchResult, new: MatchResult) {
        self.url = url
        self.old = old
        self.new = new
    }

    /// Whether two decisions for one URL differ for a device: another outcome, or other apps get it.
    public static func differs(_ old: MatchResult, _ new: MatchResult) -> Bool {
        let opens = { (result: MatchResult) in result.decision == .match && !result.appIDs.isEmpty }
        if opens(old) != opens(new) { return true }
        return opens(old) && old.appIDs != new.appIDs
    }
}

extension DecisionChange: CustomStringConvertible {
    /// `/buy/42 opened ABCDE12345.com.example.app, now stays in the browser (excluded by details 0, component 1 {…})`.
    public var description: String {
        "\(url) \(Self.phrase(old, past: true)), now \(Self.phrase(new, past: false))"
    }

    static func phrase(_ result: MatchResult, past: Bool) -> String {
        if result.decision == .match, !result.appIDs.isEmpty {
            let apps = result.appIDs.joined(separator: ", ")
            let by = result.rule.map { " (\($0))" } ?? ""
            return (past ? "opened " : "opens ") + apps + by
        }
        let stays = past ? "stayed in the browser" : "stays in the browser"
        if result.decision == .exclude, let rule = result.rule { return "\(stays) (excluded by \(rule))" }
        if let reason = result.reason { return "\(stays) (\(reason))" }
        return "\(stays) (no rule matches)"
    }
}
