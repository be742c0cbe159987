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
    /// (`ExitPolicy.failingPositions`); without either, the same as `any`.
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
        let positions = failingPositions(in: report, digests: report.domains.map(DomainDigest.init))
        return positions.map { report.domains[$0] }
    }

    /// `failingDomains(in:)` of a streamed report: their positions in `streamed.domains`, from
    /// the digests alone.
    public func failingPositions(in streamed: StreamedReport) -> [Int] {
        failingPositions(in: streamed.report, digests: streamed.domains.digests)
    }

    /// The positions in `digests` (the domains of `report`) of the domains that fail the run.
    func failingPositions(in report: AuditReport, digests: [DomainDigest]) -> [Int] {
        let failing = digests.indices.filter { fails(digests[$0].verdict) }
        guard failOn == .new else { return failing }
        guard let changes = report.changes else {
            // `--fail-on new` without a baseline: what the history says is new. A failing domain is new
            // when its unbroken run of failures began with this run (`FailingStreak.runs` is 1). The
            // history knows verdicts, not findings, so a domain that keeps failing for a new reason is
            // not new here; one that only warns (with `--strict`) is, as the history keeps no streaks
            // of warnings. Without an earlier run of the list in it, every failing domain.
            guard let history = report.history, history.earlierListRuns > 0 else { return failing }
            let continuing = Set(history.failingSince.filter { $0.runs > 1 }.map(\.domain))
            return failing.filter { !continuing.contains(digests[$0].domain) }
        }
        var new = Set<String>()
        for change in changes.newlyFailing + changes.otherVerdictChanges + changes.recovered
            where fails(change.to) && !fails(change.from) {
            new.insert(change.domain)
        }
        for change in changes.findingsAppeared where fails(change.severity) { new.insert(change.domain) }
        new.formUnion(changes.domainsAdded)
        return failing.filter { new.contains(digests[$0].domain) }
    }

    /// The status of a finished report: 2 when lines of the domain list (or expectation tokens) were
    /// skipped (the rest was still audited), else 1 when a domain fails the run
    /// (`failingDomains(in:)`), else 0.
    public func status(for report: AuditReport) -> ExitStatus {
        if report.inputErrorCount > 0 { return .usageOrInputError }
        return failingDomains(in: report).isEmpty && !hasFailingApp(report) ? .success : .domainFailed
    }

    /// `status(for:)` of a streamed report, from its domains' digests.
    public func status(for streamed: StreamedReport) -> ExitStatus {
        if streamed.report.inputErrorCount > 0 { return .usageOrInputError }
        return failingPositions(in: streamed).isEmpty && !hasFailingApp(streamed.report) ? .success : .domainFailed
    }

    /// Whether an app's own findings (its provisioning profile, `AuditReport.apps`) fail the run, as a domain's would.
    func hasFailingApp(_ report: AuditReport) -> Bool { !failingApps(in: report).isEmpty }

    /// The apps of `report` whose own findings (their provisioning profile, `AuditReport.apps`) fail the
    /// run like a failing domain's: an error, or with `--strict` a warning. Whatever the baseline says.
    public func failingApps(in report: AuditReport) -> [AppResult] {
        (report.apps ?? []).filter { app in app.findings.contains { fails($0.severity) } }
    }

    /// The status for a run stopped by `signal`: 143 for SIGTERM, 130 for SIGINT (and anything else).
    public static func status(forSignal signal: Int32) -> ExitStatus {
        signal == sigterm ? .terminated : .interrupted
    }
}
