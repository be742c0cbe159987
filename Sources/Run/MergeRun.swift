import Audit
import Foundation
import History
import Reporting

/// `merge`: the reports of `--shard K/N` runs → one report (`ReportMerge`) → the report store, like
/// an audit's (same formats, atomic files) → an outcome.
public struct MergeRun: Sendable {
    /// The shards' report.json files.
    public var files: [String]
    public var baseline: BaselineReport.Choice
    public var output: ReportOutput
    /// For the certificates that crossed the expiry warning since the baseline.
    public var expiryWarningDays: Int
    /// Where the merged run is recorded (`--history`; nil for `--no-history`).
    public var history: (any RunHistory)?

    /// A merge of `files`; see each property.
    public init(files: [String], baseline: BaselineReport.Choice, output: ReportOutput, expiryWarningDays: Int = 30,
                history: (any RunHistory)? = nil) {
        self.history = history
        self.files = files
        self.baseline = baseline
        self.output = output
        self.expiryWarningDays = expiryWarningDays
    }

    /// Merges and writes. Ctrl-C or SIGTERM must not kill the merge half-way through writing (a
    /// temporary file left, some formats written and others not): `signal()` is only asked. Before
    /// writing, a signal ends the merge with nothing written; while writing, the reports are finished first.
    public func run(observer: AuditRunObserver, signal: () -> Int32? = { nil }) -> AuditOutcome {
        func ended(_ status: ExitStatus, _ report: AuditReport? = nil, _ directory: URL? = nil) -> AuditOutcome {
            AuditOutcome(streamed: report.map(StreamedReport.init), directory: directory, status: status)
        }
        func stopped(_ what: String) -> ExitStatus? {
            guard let signal = signal() else { return nil }
            let status = ExitPolicy.status(forSignal: signal)
            observer.notice("stopped by \(status == .terminated ? "SIGTERM" : "SIGINT"): \(what)")
            return status
        }
        var inputs: [ReportMerge.Input] = []
        for file in files {
            switch ReportFile.load(file) {
            case .success(let report): inputs.append(ReportMerge.Input(source: file, report: report))
            case .failure(.notAReport(let detail)):
                observer.notice("\(file): not an aasa-audit report.json (\(detail))")
                return ended(.usageOrInputError)
            case .failure(let problem):
                observer.notice("\(file): \(problem)")
                return ended(.usageOrInputError)
            }
        }
        let outcome: ReportMerge.Outcome
        do {
            outcome = try ReportMerge.merge(inputs)
        } catch {
            observer.notice("\(error)")
            return ended(.usageOrInputError)
        }
        for warning in outcome.warnings { observer.notice("warning: \(warning)") }
        var report = outcome.report
        report.expiryWarningDays = expiryWarningDays
        if let status = stopped("nothing was written") { return ended(status, report) }
        // Fail fast, before the baseline is read: a folder the reports cannot go to.
        do {
            try output.checkWritable()
        } catch {
            observer.notice("\(error) (nothing was merged)")
            return ended(.usageOrInputError, report)
        }
        // Read before writing: without --out the merge moves `latest`.
        if let baseline = AuditRun.loadBaseline(baseline, observer: observer) {
            report.changes = ReportChanges.between(baseline: baseline.report, current: report, baselinePath: baseline.path,
                                                   expiryWarningDays: expiryWarningDays)
        }
        // A merge is a night of the list (its shards are not): read before writing, recorded after.
        var record = RunRecord(report: report, kind: .list, origin: .merge)
        if let history, !report.domains.isEmpty {
            report.history = history.insights(for: record, observer: observer)
            record.report = report
        }
        let directory: URL
        do {
            try observer.reportMade(report)
            let written = try output.write(report)
            for note in written.notes { observer.notice("warning: \(note)") }
            directory = written.directory
            observer.reportsWritten(in: directory)
        } catch {
            observer.notice("\(error)")
            return ended(.usageOrInputError, report)
        }
        if let history, !report.domains.isEmpty {
            record.endedAt = Date()
            history.record(record, observer: observer)
        }
        if let status = stopped("the merged reports were written whole first") { return ended(status, report, directory) }
        if !outcome.missingShards.isEmpty {
            let count = inputs.first?.report.shard?.count ?? 0
            let shown = outcome.missingShards.prefix(20)
            let more = outcome.missingShardCount - shown.count
            observer.notice("shard\(outcome.missingShardCount == 1 ? "" : "s") "
                            + shown.map { "\($0)/\(count)" }.joined(separator: ", ")
                            + (more > 0 ? " and \(more) more" : "")
                            + " not given: the merged report is incomplete")
            return ended(.usageOrInputError, report, directory)
        }
        if !outcome.interruptedSources.isEmpty {
            // An incomplete report must not pass for a whole night's audit.
            for source in outcome.interruptedSources {
                observer.notice("\(source): this shard was interrupted (\"complete\": false): the merged report is incomplete")
            }
            return ended(.usageOrInputError, report, directory)
        }
        return ended(output.policy.status(for: report), report, directory)
    }
}
