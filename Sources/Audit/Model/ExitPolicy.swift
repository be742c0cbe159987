import AASA

/// How a command ends, as the shell sees it. Decided by `ExitPolicy`, and by nothing else.
public enum ExitStatus: Int32, Sendable, Equatable {
    /// No domain (or file, or URL) fails; warnings allowed unless `--strict`.
    case success = 0
    /// At least one domain fails (with `--strict`: or warns).
    case domainFailed = 1
    /// A usage error, an input error (a skipped line of the domain list, an unreadable file), or
    /// reports that could not be written.
    case usageOrInputError = 2
    /// Stopped by SIGINT (Ctrl-C) or SIGTERM: 128 + the signal's number, as shells report it.
    case interrupted = 130
    case terminated = 143
}

/// The one rule for what fails a run: errors always, warnings with `--strict`. Used by the audit,
/// the merge and the JUnit report (whose failures therefore match the exit status).
public struct ExitPolicy: Sendable, Equatable {
    /// `--strict`: warnings fail the run too, and are JUnit failures.
    public var strict: Bool

    /// The policy; `strict` for `--strict`.
    public init(strict: Bool = false) {
        self.strict = strict
    }

    /// SIGINT's and SIGTERM's numbers on Linux (and every other POSIX system in use).
    public static let sigint: Int32 = 2
    public static let sigterm: Int32 = 15

    /// Whether a finding of `severity` fails (a JUnit failure, a failing run).
    public func fails(_ severity: Severity) -> Bool {
        severity == .error || (strict && severity == .warning)
    }

    /// Whether a report with this summary fails: a domain fails, or (strict) warns.
    public func fails(_ summary: Summary) -> Bool {
        summary.fail > 0 || (strict && summary.warn > 0)
    }

    /// The status of a finished report: 2 when lines of the domain list were skipped (the others
    /// were still audited), else 1 when it fails, else 0.
    public func status(for report: AuditReport) -> ExitStatus {
        if !report.inputErrors.isEmpty { return .usageOrInputError }
        return fails(report.summary) ? .domainFailed : .success
    }

    /// The status for a run stopped by `signal`: 143 for SIGTERM, 130 for SIGINT (and anything else).
    public static func status(forSignal signal: Int32) -> ExitStatus {
        signal == sigterm ? .terminated : .interrupted
    }
}
