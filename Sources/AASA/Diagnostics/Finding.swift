import Foundation

/// How bad a finding is.
public enum Severity: String, Sendable, Codable, CaseIterable, Comparable {
    /// Something does not work: Apple cannot read the file at all, or a part of it (an app ID, a
    /// service, a rule) gives nothing.
    case error
    /// A risk or a compatibility problem; what it names may still work.
    case warning
    /// Worth knowing; nothing to fix.
    case info

    private var rank: Int {
        switch self {
        case .error: return 2
        case .warning: return 1
        case .info: return 0
        }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// One diagnostic: a value, never printed by the code that makes it.
public struct Finding: Sendable, Equatable, Codable {
    /// Stable dotted identifier; its first word is the category (`tls.expired`).
    public var id: String
    public var severity: Severity
    /// What is wrong, in words a non-engineer can follow; names the values involved.
    public var message: String
    /// How to fix it.
    public var fix: String?
    /// The technical detail behind `message`, for whoever debugs it (curl's code and error text);
    /// nil, and absent from JSON, when there is none. Kept out of the sentence, which a non-engineer reads.
    public var detail: String?
    /// JSON pointer into the served document, for document findings.
    public var pointer: String?
    /// The check that made the finding ("tls", "document", "cdn" ...), from its rule (`Rule.check`)
    /// when it is made; nil where no audit ran (`aasa-audit validate`). JUnit groups test cases by it.
    public var check: String?
    /// The 1-based line of the value `pointer` names (or of a syntax error) in the JSON text, set
    /// by `aasa-audit validate` only (`DocumentValidation.placedFindings`); nil, and absent from
    /// JSON, elsewhere, so report.json is unchanged.
    public var line: Int?
    /// The 1-based column, in Unicode scalars, on `line`.
    public var column: Int?

    public init(id: String, severity: Severity, message: String, fix: String? = nil, pointer: String? = nil, check: String? = nil,
                detail: String? = nil) {
        self.id = id
        self.severity = severity
        self.message = message
        self.fix = fix
        self.pointer = pointer
        self.check = check
        self.detail = detail
    }

    /// This finding as reported by the check `check`: a core finding the audit reports on a served file.
    public func reported(by check: String) -> Finding {
        var reported = self
        reported.check = check
        return reported
    }

    /// The line and column, when both are known.
    public var position: TextPosition? {
        guard let line, let column else { return nil }
        return TextPosition(line: line, column: column)
    }

    /// The category: the first word of the id.
    public var category: String {
        String(id.split(separator: ".", maxSplits: 1).first ?? Substring(id))
    }
}
