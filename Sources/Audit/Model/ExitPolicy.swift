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

/// Which failing domains fail the run (`--fail-on`).
public enum FailOn: String, Sendable, Equatable, CaseIterable {
    /// Every failing domain (the default).
    case any
    /// Only what is new since the baseline: a domain that fails now and did not before (or was not
    /// in the baseline), or a failing domain with an error (with `--strict`: or warning) that the
    /// baseline did not have at the same location. Without a baseline, what the history says is new
    /// (`ExitPolicy.newlyFailingByHistory`); without either, the same as `any`.
    case new
}

/// The one rule for what fails a run: errors always, warnings with `--strict`; with `--fail-on new`,
/// only what is new since the baseline. Used by the audit, the merge and the JUnit report (whose
/// failures match the exit status of `--fail-on any`).
public struct ExitPolicy: Sendable, Equatable {
    /// `--strict`: warnings fail the run too, and are JUnit failures.
    public var strict: Bool
    /// `--fail-on`: every failing domain, or only what is new since the baseline.
    public var failOn: FailOn

    /// The policy; `strict` for `--strict`, `failOn` for `--fail-on`.
    public init(strict: Bool = false, failOn: FailOn = .any) {
        self.strict = strict
        self.failOn = failOn
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

    /// Whether a domain with this verdict fails: it fails, or (strict) warns.
    public func fails(_ verdict: Verdict) -> Bool {
        verdict == .fail || (strict && verdict == .warn)
    }

    /// The domains of `report` that fail the run, in report order: with `--fail-on any` (or when
    /// the report has no `changes`, i.e. no baseline), every domain that fails; with `--fail-on new`,
    /// those that fail now and
    /// - did not fail in the baseline (`fails` of its verdict then was false), or
    /// - were not in the baseline (`changes.domainsAdded`), or
    /// - have a finding that fails (an error; with `--strict` a warning too) which the baseline did not
    ///   have at the same location with the same id (`changes.findingsAppeared`).
    /// A domain that keeps failing for the same reasons is not new; nor is one that recovered.
    public func failingDomains(in report: AuditReport) -> [DomainResult] {
        let failing = report.domains.filter { fails($0.verdict) }
        guard failOn == .new else { return failing }
        guard let changes = report.changes else { return newlyFailingByHistory(failing, report.history) }
        var new = Set<String>()
        for change in changes.newlyFailing + changes.otherVerdictChanges + changes.recovered
            where fails(change.to) && !fails(change.from) {
            new.insert(change.domain)
        }
        for change in changes.findingsAppeared where fails(change.severity) { new.insert(change.domain) }
        new.formUnion(changes.domainsAdded)
        return failing.filter { new.contains($0.domain) }
    }

    /// `--fail-on new` without a baseline: what the history says is new. A failing domain is new when
    /// its unbroken run of failures began with this run (`FailingStreak.runs` is 1: it did not fail in
    /// the previous run of the list, or was not in it). The history knows verdicts, not findings, so a
    /// domain that keeps failing for a new reason is not new here; a domain that only warns (with
    /// `--strict`) is counted as new, as the history keeps no streaks of warnings. Without a history
    /// that holds an earlier run of the list, every failing domain (as with `--fail-on any`).
    func newlyFailingByHistory(_ failing: [DomainResult], _ history: ReportHistory?) -> [DomainResult] {
        guard let history, history.earlierListRuns > 0 else { return failing }
        let continuing = Set(history.failingSince.filter { $0.runs > 1 }.map(\.domain))
        return failing.filter { !continuing.contains($0.domain) }
    }

    /// The status of a finished report: 2 when lines of the domain list (or expectation tokens) were
    /// skipped (the rest was still audited), else 1 when a domain fails the run
    /// (`failingDomains(in:)`), else 0.
    public func status(for report: AuditReport) -> ExitStatus {
        if report.inputErrorCount > 0 { return .usageOrInputError }
        // An app's own findings (its provisioning profile, `AuditReport.apps`) fail the run like a domain's.
        let failingApp = (report.apps ?? []).contains { app in app.findings.contains { fails($0.severity) } }
        return failingDomains(in: report).isEmpty && !failingApp ? .success : .domainFailed
    }

    /// The status for a run stopped by `signal`: 143 for SIGTERM, 130 for SIGINT (and anything else).
    public static func status(forSignal signal: Int32) -> ExitStatus {
        signal == sigterm ? .terminated : .interrupted
    }
}
