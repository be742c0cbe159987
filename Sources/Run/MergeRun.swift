import Audit
import Foundation
import Reporting

/// `merge`: the reports of `--shard K/N` runs → one report (`ReportMerge`) → the report store, like
/// an audit's (same formats, atomic files) → an outcome.
public struct MergeRun: Sendable {
    /// The shards' report.json files.
    public var files: [String]
    public var baseline: BaselineReport.Choice
    public var output: ReportOutput
    /// The expiry warning threshold of the merged report; nil (the default): the shards' own, by
    /// which their certificates were judged.
    public var expiryWarningDays: Int?
    /// Where the merged run is recorded (`--history`; nil for `--no-history`).
    public var history: (any RunHistory)?
    /// `--bodies`: leave out the bodies this does not keep, by each domain's stored verdict; nil
    /// (the default) keeps what the shards stored. Either way each distinct body is stored once.
    public var bodies: BodiesPolicy?
    /// The shards' domains go to the run's results spool; false keeps them in memory (tests compare the two).
    var spoolsResults = true

    /// A merge of `files`; see each property.
    public init(files: [String], baseline: BaselineReport.Choice, output: ReportOutput, expiryWarningDays: Int? = nil,
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
    /// first. The steps: each shard's facts read and checked (its domains not yet), the pipeline
    /// prepared, the shards' domains read one at a time into the run's results spool, then the
    /// pipeline finished as an audit's is (`RunPipeline`). So a merge holds one domain at a time
    /// besides the digests, whatever the number and size of the shards (docs/scaling.md).
    public func run(observer: AuditRunObserver, signal: () -> Int32? = { nil }) -> AuditOutcome {
        // The merge's own time: from reading its shards on.
        let began = Date()
        do throws(RunEnded) {
            let (shells, builder) = try readShells(observer: observer)
            var pipeline = RunPipeline(work: .merge, output: output, history: history,
                                       expiryWarningDays: expiryWarningDays ?? builder.expiryWarningDays ?? CertificateExpiry.defaultWarningDays)
            pipeline.route = builder.route
            pipeline.startedAt = began
            if let number = signal() {
                observer.event(.stopped(RunEvent.StopSignal(number), .mergeBeforeWriting))
                throw RunEnded(ExitPolicy.status(forSignal: number))
            }
            // One run at a time per reports folder, to the end of this scope (see `RunPipeline.lock`).
            let lock: RunLock
            let baseline: BaselineReport?
            do throws(RunEnded) {
                lock = try pipeline.lock(observer: observer, signal: signal)
                baseline = try pipeline.prepare(baseline: self.baseline, observer: observer)
            } catch {
                throw RunEnded(error.outcome.status)
            }
            defer { withExtendedLifetime(lock) {} }
            let (outcome, report) = try readDomains(of: shells, into: builder, observer: observer)
            if let number = signal() {
                observer.event(.stopped(RunEvent.StopSignal(number), .mergeBeforeWriting))
                throw RunEnded(ExitPolicy.status(forSignal: number), report)
            }
            // A merge is a night of the list (its shards are not).
            return pipeline.finish(report, baseline: baseline, recording: .init(kind: .list, listSource: nil),
                                   incomplete: Self.incompleteness(missingShards: outcome.missingShards, missingCount: outcome.missingShardCount,
                                                                   of: shells.first?.report.shard?.count ?? 0,
                                                                   interrupted: outcome.interruptedSources), observer: observer, signal: signal)
        } catch {
            return error.outcome
        }
    }

    /// The shards' reports without their domains, each read and checked in turn (`ReportMerge.Builder`).
    func readShells(observer: AuditRunObserver) throws(RunEnded) -> ([ReportMerge.Input], ReportMerge.Builder) {
        var shells: [ReportMerge.Input] = []
        var builder = ReportMerge.Builder()
        for file in files {
            switch ReportFile.loadShell(file) {
            case .success(let report): shells.append(ReportMerge.Input(source: file, report: report))
            case .failure(let problem):
                observer.event(.shardReportUnusable(file: file, problem))
                throw RunEnded(.usageOrInputError)
            }
        }
        do {
            for shell in shells { try builder.add(shell: shell.report, source: shell.source) }
            if shells.isEmpty { _ = try builder.finish(domains: []) }
        } catch {
            observer.event(.mergeRefused(error))
            throw RunEnded(.usageOrInputError)
        }
        return (shells, builder)
    }

    /// Every shard's domains, read one at a time into the run's results spool (in memory when no
    /// spool can be made), sorted by name; the merge's warnings told.
    func readDomains(of shells: [ReportMerge.Input], into builder: ReportMerge.Builder,
                     observer: AuditRunObserver) throws(RunEnded) -> (ReportMerge.Outcome, StreamedReport) {
        var builder = builder
        let generatedAt = builder.generatedAt ?? Date()
        var spool: ResultSpool?
        if spoolsResults {
            // The page's form from the shards' own counts, each counted at most past the limit (a
            // count read from a file cannot overflow the sum); should they be wrong, the page renders
            // its sections again for its real form.
            let expected = shells.reduce(0) { $0 + min(max($1.report.summary.domains, 0), HTMLReporter.fullSectionsUpTo + 1) }
            do {
                spool = try ResultSpool(in: URL(fileURLWithPath: output.folderPath.isEmpty ? "." : output.folderPath),
                                        count: 0, generatedAt: generatedAt,
                                        htmlSections: output.formats.contains(.html) ? HTMLPageForm.forPage(of: expected) : nil,
                                        bodies: bodies)
            } catch {
                observer.event(.spoolUnavailable(error))
            }
        }
        var kept: [DomainResult] = []
        // Without a spool, the shards' bodies (each shard's `bodies` comes before its domains).
        var keptBodies: [String: String] = [:]
        for shell in shells {
            var refusal: ReportMergeError?
            let read = ReportFile.forEachDomain(shell.source, generatedAt: shell.report.generatedAt, takeBody: { digest, text in
                // Stored once across shards: the same file served by many shards' domains.
                if let spool { spool.storeBody(digest, text, of: shell.source) } else { keptBodies[digest] = text }
            }) { domain in
                guard refusal == nil else { return }
                do throws(ReportMergeError) {
                    try builder.add(domain: domain.domain, source: shell.source)
                } catch {
                    refusal = error
                    return
                }
                if let spool {
                    // A body the shard refers to and does not hold is a broken shard, named as such
                    // (checked on a copy; the spool reads the body back when it renders the domain).
                    var probe = domain
                    try probe.resolveBodies { spool.hasBody($0) ? "" : nil }
                    spool.appendNext(domain)
                } else {
                    var domain = domain
                    try domain.resolveBodies { keptBodies[$0] }
                    if let bodies { domain.keepBodies(bodies) }
                    kept.append(domain)
                }
            }
            if case .failure(let problem) = read {
                spool?.removeCreatedFolders()
                observer.event(.shardReportUnusable(file: shell.source, problem))
                throw RunEnded(.usageOrInputError)
            }
            if let refusal {
                spool?.removeCreatedFolders()
                observer.event(.mergeRefused(refusal))
                throw RunEnded(.usageOrInputError)
            }
        }
        // A result the spool could not store (a full disk) ends the merge before any report is made.
        var stored: SpooledResults?
        if let spool {
            do {
                stored = try spool.seal().results
            } catch {
                spool.removeCreatedFolders()
                observer.event(.reportNotAssembled(error))
                throw RunEnded(.usageOrInputError)
            }
        }
        var outcome: ReportMerge.Outcome
        do {
            // `kept` is empty when the domains went to the spool: the report's shell only.
            outcome = try builder.finish(domains: kept.sorted { $0.domain < $1.domain })
        } catch {
            observer.event(.mergeRefused(error))
            throw RunEnded(.usageOrInputError)
        }
        if let expiryWarningDays { outcome.report.expiryWarningDays = expiryWarningDays }
        let report = stored.map { StreamedReport(shell: outcome.report, domains: $0.sorted { $0.domain < $1.domain }) }
            ?? StreamedReport(outcome.report)
        for warning in outcome.warnings { observer.event(.mergeWarning(warning)) }
        return (outcome, report)
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
