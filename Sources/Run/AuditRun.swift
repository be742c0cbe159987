import Audit
import Fetching
import Foundation
import History
import Reporting
#if canImport(Glibc)
import Glibc
#endif

/// What an audit run tells the one running it, as it goes. The executable prints these (with its
/// name in front), draws the progress line, and prints the summary; tests may record them.
public protocol AuditRunObserver {
    /// A line for standard error that is always shown: a problem, a warning, a skipped line.
    func notice(_ text: String)
    /// A line for standard error that `--quiet` hides (which shard, which baseline).
    func info(_ text: String)
    /// Called after each domain finishes: `done` of `total`, from the fetch's thread.
    func progress(done: Int, of total: Int)
    /// The fetch is about to start (`total` domains), or has ended (`total` nil).
    func fetching(total: Int?)
    /// The report is made and about to be written: the summary, `--json` on stdout. A thrown error
    /// ends the run with status 2.
    func reportMade(_ report: AuditReport) throws
    /// The same, for a report whose domains are read one at a time (the audit's). By default the
    /// report is read whole and handed to `reportMade(_:)`: an observer of long lists implements this.
    func reportMade(streamed report: StreamedReport) throws
    /// The reports were written into `directory`.
    func reportsWritten(in directory: URL)
}

extension AuditRunObserver {
    public func reportMade(streamed report: StreamedReport) throws {
        try reportMade(report.whole())
    }
}

/// What a run ended with: its report (nil when it stopped before there was one) and its exit status.
public struct AuditOutcome: Sendable {
    /// The report, its domains read one at a time (from the run's spool, which lives as long as this).
    public var streamed: StreamedReport?
    /// The report whole, every domain read back into memory: for callers of short lists and tests.
    /// Nil when there is no report, or its domains could not be read back.
    public var report: AuditReport? { try? streamed?.whole() }
    /// The folder the reports were written to, when they were.
    public var directory: URL?
    public var status: ExitStatus
}

/// One audit: domain list → fetch → audit → report store → an outcome (report and exit status).
public struct AuditRun: Sendable {
    /// Where the domains come from.
    public enum Domains: Sendable, Equatable {
        /// Named on the command line.
        case arguments([String])
        /// A domain list file; `given` when `--domains` named it (else it is the default, and the
        /// error for a missing file says how to start).
        case file(String, given: Bool)
    }

    public var domains: Domains
    public var fetch: FetchOptions
    public var audit: AuditSettings
    /// `--shard K/N`.
    public var shard: Shard?
    public var baseline: BaselineReport.Choice
    public var output: ReportOutput
    public var tool: ToolInfo
    /// Where the run is recorded (`--history`; nil for `--no-history`).
    public var history: (any RunHistory)?
    /// `--entitlements FILE [--app-id ID]`: apps whose Associated Domains entries add hosts (and what
    /// each host's file must say) to the domains.
    public var apps: [EntitlementsInput]
    /// False: the results stay in memory rather than going to a spool (tests compare the two).
    var spoolsResults = true

    /// A run of `tool` over `domains`; see each property.
    public init(domains: Domains, fetch: FetchOptions, audit: AuditSettings, shard: Shard? = nil,
                baseline: BaselineReport.Choice, output: ReportOutput, tool: ToolInfo, history: (any RunHistory)? = nil,
                apps: [EntitlementsInput] = []) {
        self.history = history
        self.apps = apps
        self.domains = domains
        self.fetch = fetch
        self.audit = audit
        self.shard = shard
        self.baseline = baseline
        self.output = output
        self.tool = tool
    }

    /// Runs the audit until done or until `stop` is flipped (then `signal()` names the signal), and
    /// writes the reports. One broken domain never stops the others.
    public func run(observer: AuditRunObserver, stop: StopSwitch? = nil, signal: () -> Int32? = { nil }) -> AuditOutcome {
        func ended(_ status: ExitStatus, _ report: StreamedReport? = nil, _ directory: URL? = nil) -> AuditOutcome {
            AuditOutcome(streamed: report, directory: directory, status: status)
        }
        // Whole seconds: the JSON report stores seconds, so a report read back compares equal.
        let started = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        // Targets.
        var list: DomainList
        let source: String
        var listSource: String?
        var isOneOff = false
        switch domains {
        case .file(let path, let given):
            source = path
            listSource = path
            let data: Data
            do {
                data = try DomainListFile.read(path, stop: stop) {
                    observer.info("waiting for the domain list \(path) (a pipe) to be written; Ctrl-C stops")
                }
            } catch .unreadable(_, let reason) {
                let hint = given ? "" : " (name domains as arguments, or create domains.txt with one domain per line)"
                observer.notice("cannot read the domain list \(path): \(reason)\(hint)")
                return ended(.usageOrInputError)
            } catch .stopped {
                let status = ExitPolicy.status(forSignal: signal() ?? SIGINT)
                observer.notice("stopped by \(status == .terminated ? "SIGTERM" : "SIGINT") while waiting for the domain list \(path): "
                                + "nothing was audited or written")
                return ended(status)
            } catch {
                observer.notice("\(error)")
                return ended(.usageOrInputError)
            }
            list = DomainList.parse(data, file: path)
        case .arguments(let names):
            source = "the arguments"
            isOneOff = true
            list = DomainList.parse(arguments: names)
        }
        let claims = AppClaimsReader.read(apps, into: &list)
        let originOnly = list.add(apps: claims)
        // Every problem of the list, whole, on stderr before anything is fetched (the first ones;
        // then a count and where the rest are).
        for line in ConsoleSummary.inputProblemLines(list.problems, total: list.problemCount) { observer.notice(line) }
        if list.duplicateCount > 0 {
            observer.notice("\(list.duplicateCount) duplicate line\(list.duplicateCount == 1 ? "" : "s") audited once")
        }
        for entry in list.entries where entry.note != nil {
            observer.notice("\(entry.place): \(entry.note ?? "")")
        }
        // Checked before curl opens it: a FIFO would block the fetch before it starts.
        if let caFile = fetch.caFile, let problem = FileKind.problemReading(caFile) {
            observer.notice("--cacert \(caFile): \(problem)")
            return ended(.usageOrInputError)
        }
        if list.entries.isEmpty && list.problems.isEmpty {
            observer.notice("no domains to audit in \(source)")
            return ended(.usageOrInputError)
        }
        if let shard {
            let total = list.entries.count
            list = shard.subset(of: list)
            // Info, hidden by --quiet: a nightly cron job mails whatever it prints, and this is no problem.
            observer.info("shard \(shard): \(list.entries.count) of the list's \(total) domains")
        }

        // A one-off check (domains as arguments) is no night of the list: it neither moves `latest`
        // nor is compared with it, unless --baseline names a report.
        var output = self.output
        var baselineChoice = self.baseline
        if case .arguments = domains, let store = output.store {
            output.updatesLatest = false
            if case .latest = baselineChoice { baselineChoice = .none }
            let what = list.entries.contains { $0.claims.isEmpty } || apps.isEmpty ? "the domains given as arguments" : "the hosts the entitlements name"
            observer.info("one-off check of \(what): \(store.root)/latest is not moved"
                          + (baselineChoice == .none && self.baseline != .none ? " and the run is not compared with it (--baseline FILE compares it)" : ""))
        }
        // Fail fast: a folder the reports cannot go to is found before anything is fetched.
        do {
            try output.checkWritable()
        } catch {
            observer.notice("\(error) (nothing was audited)")
            return ended(.usageOrInputError)
        }

        // The baseline is read now, before this run moves `latest`.
        let baseline = Self.loadBaseline(baselineChoice, observer: observer)
        // Without a baseline, --fail-on new asks the history (when there is one), after the fetch.
        if output.policy.failOn == .new && baseline == nil && history == nil {
            observer.notice("--fail-on new: there is no baseline to compare with, so every failing domain fails the run (as with --fail-on any)")
        }

        // Fetch and audit. Each result goes to the spool in the output folder as soon as it is
        // audited, so memory does not grow with the list; without a spool, results stay in memory.
        let auditor = Auditor(settings: audit, now: started)
        let entries = list.entries
        var spool: ResultSpool?
        if spoolsResults {
            do {
                spool = try ResultSpool(in: URL(fileURLWithPath: output.folderPath.isEmpty ? "." : output.folderPath),
                                        count: entries.count, generatedAt: started,
                                        htmlSections: output.formats.contains(.html))
            } catch {
                observer.notice("warning: \(error); the results are kept in memory")
            }
        }
        // A run that ends without reports leaves no folder the spool made for itself.
        var reportsWritten = false
        defer { if !reportsWritten { spool?.removeCreatedFolders() } }
        let results: [DomainResult?]
        observer.fetching(total: entries.count)
        do {
            // Each domain is audited as soon as it is fetched (see QueuedAudit); nil for a domain not
            // finished when a signal stopped the run (a signal does not wait for queued audits).
            let audits = QueuedAudit(auditor: auditor, entries: entries, maxWaiting: max(16, fetch.concurrency / 2), spool: spool)
            // Android's file is fetched for every domain with --android, else for those with Android expectations.
            var fetch = fetch
            fetch.originOnly = originOnly
            if fetch.assetLinks != .all {
                let android = Set(entries.filter { $0.expectations.androidCount > 0 }.map(\.name.ascii))
                if !android.isEmpty { fetch.assetLinks = .domains(android) }
            }
            _ = try SiteFetcher(options: fetch).fetch(domains: entries.map(\.name.ascii), until: stop,
                                                      admit: { audits.hasRoom },
                                                      progress: observer.progress) { index, site in audits.submit(index, site) }
            results = audits.finish(until: stop)
            observer.fetching(total: nil)
        } catch {
            observer.fetching(total: nil)
            observer.notice("\(error)")
            return ended(.usageOrInputError)
        }
        // The report: the results (from the spool, or held in memory), then what is computed from all
        // of them, the apps' sections and the changes. A result that cannot be read back (a spool cut
        // short by a full disk) ends the run without a report.
        var report: StreamedReport
        do {
            if let spool {
                let (spooled, stored) = try spool.seal()
                report = PartialRun.report(tool: tool, generatedAt: started, inputErrors: list.problems, entries: entries,
                                           stored: stored, results: spooled)
            } else {
                report = StreamedReport(PartialRun.report(tool: tool, generatedAt: started, inputErrors: list.problems, entries: entries,
                                                          results: results))
            }
            report.report.shard = shard
            report.report.expiryWarningDays = audit.expiryWarningDays
            if list.problemsOmitted > 0 { report.report.inputErrorsOmitted = list.problemsOmitted }
            if !claims.isEmpty { report.report.apps = try AppClaimsReader.sections(claims, domains: report.domains) }
            if let baseline {
                report.report.changes = try ReportChanges.between(baseline: baseline.report, current: report, baselinePath: baseline.path,
                                                                  expiryWarningDays: audit.expiryWarningDays)
            }
        } catch {
            observer.notice("\(error) (no report was written)")
            return ended(.usageOrInputError)
        }
        let audited = !report.domains.isEmpty
        // The history is read before the reports are written (they show it) and the run recorded after.
        var record = RunRecord(streamed: report, kind: isOneOff ? .oneOff : .list, origin: .audit, listSource: listSource)
        if let history, audited {
            report.report.history = history.insights(for: record, observer: observer)
            record.report = report.report
        }
        if output.policy.failOn == .new && baseline == nil && history != nil && (report.report.history?.earlierListRuns ?? 0) == 0 {
            // A history that could not be read (its warning came first) is not one without earlier runs.
            let why = report.report.history == nil && audited
                ? "the history \(history?.path ?? "") could not be read (above)"
                : "no earlier run of the list in the history \(history?.path ?? "") to compare with"
            observer.notice("--fail-on new: there is no baseline and \(why), so every failing domain fails the run (as with --fail-on any)")
        }
        let directory: URL
        do {
            try observer.reportMade(streamed: report)
            let written = try output.write(report)
            for note in written.notes { observer.notice("warning: \(note)") }
            if let store = output.store, output.updatesLatest, report.report.complete, !audited {
                observer.info("no domain was audited: \(store.root)/latest was not moved")
            }
            directory = written.directory
            reportsWritten = true
            observer.reportsWritten(in: directory)
        } catch {
            observer.notice("\(error)")
            return ended(.usageOrInputError, report)
        }
        if let history, audited {
            record.endedAt = Date()
            history.record(record, observer: observer)
        }
        if let signal = signal() {
            observer.notice(PartialRun.notice(report.report, audited: report.domains.count, signal: signal, usesLatest: output.store != nil))
            return ended(ExitPolicy.status(forSignal: signal), report, directory)
        }
        return ended(output.policy.status(for: report), report, directory)
    }

    /// The baseline `choice` names, if any; a baseline that cannot be used is a warning, not a failure.
    public static func loadBaseline(_ choice: BaselineReport.Choice, observer: AuditRunObserver) -> BaselineReport? {
        switch BaselineReport.load(choice) {
        case nil:
            return nil
        case .failure(let problem)?:
            observer.notice("warning: \(problem)")
            return nil
        case .success(let baseline)?:
            observer.info(baseline.comparingNotice)
            return baseline
        }
    }
}
