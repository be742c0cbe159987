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

/// One word of `--fail-on`: what fails the run.
public enum FailOn: String, Sendable, Equatable, CaseIterable {
    /// Every failing domain (the default).
    case any
    /// Only what is new since the baseline: a domain that fails now and did not before (or was not
    /// in the baseline), or a failing domain with an error (with `--strict`: or warning) that the
    /// baseline did not have at the same location. Without a baseline, what the history says is new
    /// (`ExitPolicy.failingPositions`); without either, the same as `any`.
    case new
    /// A domain whose certificate has expired or expires within `--expiry-warning-days`
    /// (`CertificateExpiry`, against the report's `expiryWarningDays`), whatever its verdict.
    case expiring
}

/// `--fail-on`'s list (`new,expiring`): a run fails when any of its words says so. `any` and `new`
/// are two answers to one question (which failing domains count), so at most one of them is in it;
/// without either (`expiring` alone), failing domains do not fail the run, only certificates do.
public struct FailOnList: Sendable, Equatable, CustomStringConvertible {
    /// The words, each once, in `FailOn`'s order.
    public private(set) var words: [FailOn]

    /// `words` in `FailOn`'s order, each once. Not checked: `parse` refuses `any,new`.
    public init(_ words: [FailOn]) {
        self.words = FailOn.allCases.filter(words.contains)
    }

    public static let any = FailOnList([.any])
    public static let new = FailOnList([.new])
    public static let expiring = FailOnList([.expiring])

    /// Why a `--fail-on` value cannot be used.
    public enum Refusal: Error, Equatable, Sendable {
        /// A word that is none of `FailOn`'s (empty for an empty item, `new,,expiring`).
        case unknownWord(String)
        /// `any` with `new`: they answer the same question differently.
        case anyWithNew
    }

    /// A comma-separated list of `FailOn` words (`new,expiring`); a word given twice counts once.
    public static func parse(_ text: String) -> Result<FailOnList, Refusal> {
        var words: [FailOn] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let word = FailOn(rawValue: String(item)) else { return .failure(.unknownWord(String(item))) }
            words.append(word)
        }
        if words.contains(.any) && words.contains(.new) { return .failure(.anyWithNew) }
        return .success(FailOnList(words))
    }

    /// Which failing domains fail the run: `any`, `new`, or nil (none: `expiring` alone).
    public var failingDomains: FailOn? { words.first { $0 != .expiring } }
    /// Whether a domain's certificate within the expiry warning (or expired) fails the run.
    public var expiring: Bool { words.contains(.expiring) }
    /// Whether the run asks what is new since the baseline (or the history).
    public var asksWhatIsNew: Bool { failingDomains == .new }

    /// As written on the command line: `new,expiring`.
    public var description: String { words.map(\.rawValue).joined(separator: ",") }
}

/// The one rule for what fails a run: errors always, warnings with `--strict`; with `--fail-on new`,
/// only what is new since the baseline; with `--fail-on expiring`, a certificate within the expiry
/// warning too (or alone). Used by the audit, the merge and the JUnit report (whose
/// failures match the exit status of `--fail-on any`).
public struct ExitPolicy: Sendable, Equatable {
    /// `--strict`: warnings fail the run too, and are JUnit failures.
    public var strict: Bool
    /// `--fail-on`: every failing domain, or only what is new since the baseline; and/or the
    /// certificates within the expiry warning.
    public var failOn: FailOnList

    /// The policy; `strict` for `--strict`, `failOn` for `--fail-on`.
    public init(strict: Bool = false, failOn: FailOnList = .any) {
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
        guard let rule = failOn.failingDomains else { return [] }
        let failing = digests.indices.filter { fails(digests[$0].verdict) }
        guard rule == .new else { return failing }
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
        let expiring = expiringPositions(in: report, digests: report.domains.map(DomainDigest.init))
        return failingDomains(in: report).isEmpty && expiring.isEmpty && !hasFailingApp(report) ? .success : .domainFailed
    }

    /// `status(for:)` of a streamed report, from its domains' digests.
    public func status(for streamed: StreamedReport) -> ExitStatus {
        if streamed.report.inputErrorCount > 0 { return .usageOrInputError }
        return failingPositions(in: streamed).isEmpty && expiringPositions(in: streamed).isEmpty
            && !hasFailingApp(streamed.report) ? .success : .domainFailed
    }

    /// With `--fail-on expiring`: the positions in `streamed.domains` of the domains whose certificate
    /// has expired or expires within the report's `expiryWarningDays`; else none.
    public func expiringPositions(in streamed: StreamedReport) -> [Int] {
        expiringPositions(in: streamed.report, digests: streamed.domains.digests)
    }

    /// The positions in `digests` whose certificate the one expiry judgement (`CertificateExpiry`,
    /// against the threshold the report records) calls expired or expiring soon.
    func expiringPositions(in report: AuditReport, digests: [DomainDigest]) -> [Int] {
        guard failOn.expiring else { return [] }
        return digests.indices.filter {
            switch CertificateExpiry(daysLeft: digests[$0].certificateDaysLeft, warningDays: report.expiryWarningDays) {
            case .expired, .expiringSoon: true
            case .fine, .unknown: false
            }
        }
    }

    /// Whether an app's own findings (its provisioning profile, `AuditReport.apps`) fail the run, as a domain's would.
    func hasFailingApp(_ report: AuditReport) -> Bool { !failingApps(in: report).isEmpty }

    /// The apps of `report` whose own findings (their provisioning profile, `AuditReport.apps`) fail the
    /// run like a failing domain's: an error, or with `--strict` a warning. Whatever the baseline says.
    /// None when no failing domain fails the run (`--fail-on expiring` alone).
    public func failingApps(in report: AuditReport) -> [AppResult] {
        guard failOn.failingDomains != nil else { return [] }
        return (report.apps ?? []).filter { app in app.findings.contains { fails($0.severity) } }
    }

    /// The status for a run stopped by `signal`: 143 for SIGTERM, 130 for SIGINT (and anything else).
    public static func status(forSignal signal: Int32) -> ExitStatus {
        signal == sigterm ? .terminated : .interrupted
    }
}
