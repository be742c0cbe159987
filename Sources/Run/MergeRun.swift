import Audit
import Foundation

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
    /// writing, a signal ends the merge with nothing written; while writing, the reports are finished
    /// first. The steps: the shards read and merged, the pipeline prepared and finished as an
    /// audit's is (`RunPipeline`).
    public func run(observer: AuditRunObserver, signal: () -> Int32? = { nil }) -> AuditOutcome {
        let pipeline = RunPipeline(work: .merge, output: output, history: history, expiryWarningDays: expiryWarningDays)
        do throws(RunEnded) {
            let (inputs, outcome) = try readShards(observer: observer)
            var merged = outcome.report
            merged.expiryWarningDays = expiryWarningDays
            let report = StreamedReport(merged)
            if let number = signal() {
                observer.event(.stopped(RunEvent.StopSignal(number), .mergeBeforeWriting))
                throw RunEnded(ExitPolicy.status(forSignal: number), report)
            }
            // One run at a time per reports folder, to the end of this scope (see `RunPipeline.lock`).
            let lock: RunLock
            let baseline: BaselineReport?
            do throws(RunEnded) {
                lock = try pipeline.lock(observer: observer, signal: signal)
                baseline = try pipeline.prepare(baseline: self.baseline, observer: observer)
            } catch {
                throw RunEnded(error.outcome.status, report)
            }
            defer { withExtendedLifetime(lock) {} }
            // A merge is a night of the list (its shards are not).
            return pipeline.finish(report, baseline: baseline, recording: .init(kind: .list, listSource: nil),
                                   incomplete: Self.incompleteness(missingShards: outcome.missingShards, missingCount: outcome.missingShardCount,
                                                                   of: inputs.first?.report.shard?.count ?? 0,
                                                                   interrupted: outcome.interruptedSources), observer: observer, signal: signal)
        } catch {
            return error.outcome
        }
    }

    /// The shards' reports read and merged; the merge's warnings told.
    func readShards(observer: AuditRunObserver) throws(RunEnded) -> ([ReportMerge.Input], ReportMerge.Outcome) {
        var inputs: [ReportMerge.Input] = []
        for file in files {
            switch ReportFile.load(file) {
            case .success(let report): inputs.append(ReportMerge.Input(source: file, report: report))
            case .failure(let problem):
                observer.event(.shardReportUnusable(file: file, problem))
                throw RunEnded(.usageOrInputError)
            }
        }
        let outcome: ReportMerge.Outcome
        do {
            outcome = try ReportMerge.merge(inputs)
        } catch {
            observer.event(.mergeRefused(error))
            throw RunEnded(.usageOrInputError)
        }
        for warning in outcome.warnings { observer.event(.mergeWarning(warning)) }
        return (inputs, outcome)
    }

    /// What keeps the merged report from being a whole night's: the shards not given (the first
    /// twenty named), else the shards that were interrupted. An incomplete report must not pass
    /// for a whole night's audit.
    /// `missingShards`: the first of the `missingCount` shards of `shardCount` not given;
    /// `interrupted`: the sources whose run was interrupted.
    static func incompleteness(missingShards: [Int], missingCount: Int, of shardCount: Int, interrupted: [String]) -> [RunEvent] {
        if !missingShards.isEmpty {
            return [.shardsMissing(shown: Array(missingShards.prefix(20)), count: missingCount, of: shardCount)]
        }
        return interrupted.map { .shardInterrupted(source: $0) }
    }
}
