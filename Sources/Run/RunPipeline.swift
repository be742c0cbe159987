import Audit
import Reporting
import Foundation
import History

/// A run that ends before its reports are written: the outcome it ends with. Thrown by the steps of
/// a run, so each step either hands on what it made or says how the run ends.
struct RunEnded: Error {
    var outcome: AuditOutcome

    init(_ status: ExitStatus, _ report: StreamedReport? = nil) {
        outcome = AuditOutcome(streamed: report, directory: nil, status: status)
    }
}

/// What `audit` and `merge` share around their own work (fetching and auditing, or reading the
/// shards): `prepare` before it (the folder checked, the baseline read) and `finish` after it
/// (changes, history, the report set written, the run recorded, the exit status). One piece of
/// code, so the two commands end the same way.
struct RunPipeline: Sendable {
    var work: RunEvent.Work
    var output: ReportOutput
    /// Where the run is recorded (nil for `--no-history`).
    var history: (any RunHistory)?
    /// The certificate threshold in force, for the certificates that crossed it since the baseline.
    var expiryWarningDays: Int
    /// The route the run's transfers took (the audit's options, or a merge's shards'), for the
    /// report's `run` (`RunProvenance`).
    var route: RunRoute? = nil
    /// When the run's own work started (an audit's once it holds the lock, a merge's as it reads its
    /// shards), for its duration.
    var startedAt = Date()
    /// This machine's name, for the report's `run`.
    var host: String? = RunLock.hostName

    /// Before anything else of the run: the reports folder's lock (`RunLock`), so that one run at a
    /// time fetches, reads `latest` as its baseline, writes and records. Held until the value
    /// returned is let go (the end of the run), or by the kernel until the process ends. Another
    /// run holding it ends this one with status 2 (after `output.lockWait` seconds, if given).
    func lock(observer: AuditRunObserver, signal: () -> Int32?) throws(RunEnded) -> RunLock {
        // A folder the reports cannot go to is told as such (the system's reason), before it is
        // made to be locked.
        do {
            try output.checkWritable()
        } catch {
            observer.event(.outputUnwritable(error, before: work))
            throw RunEnded(.usageOrInputError)
        }
        do throws(RunLock.Failure) {
            return try RunLock.acquire(folder: output.folderPath, wait: output.lockWait, signal: signal) { holder in
                observer.event(.waitingForRunLock(folder: output.folderPath, holder: holder, seconds: output.lockWait))
            }
        } catch {
            switch error {
            case .held(let folder, let holder, let waited):
                observer.event(.runLockHeld(folder: folder, holder: holder, waited: waited))
                throw RunEnded(.usageOrInputError)
            case .unusable(let folder, let reason):
                observer.event(.runLockUnusable(folder: folder, reason: reason))
                throw RunEnded(.usageOrInputError)
            case .stopped(let number):
                observer.event(.stopped(RunEvent.StopSignal(number), .waitingForRunLock))
                throw RunEnded(ExitPolicy.status(forSignal: number))
            }
        }
    }

    /// Before the work: a folder the reports cannot go to ends the run now, not after every fetch;
    /// the baseline is read before this run moves `latest`. A baseline that cannot be used is a
    /// warning, not the run's end.
    func prepare(baseline choice: BaselineReport.Choice, observer: AuditRunObserver) throws(RunEnded) -> BaselineReport? {
        do {
            try output.checkWritable()
        } catch {
            observer.event(.outputUnwritable(error, before: work))
            throw RunEnded(.usageOrInputError)
        }
        let baseline = Self.loadBaseline(choice, observer: observer)
        // Without a baseline, --fail-on new asks the history (when there is one), in `finish`.
        if output.policy.failOn.asksWhatIsNew && baseline == nil && history == nil {
            observer.event(.failOnNewComparesNothing(.noBaselineNorHistory))
        }
        return baseline
    }

    /// The baseline `choice` names, if any; one that cannot be used is a warning.
    static func loadBaseline(_ choice: BaselineReport.Choice, observer: AuditRunObserver) -> BaselineReport? {
        switch BaselineReport.load(choice) {
        case nil:
            return nil
        case .failure(let problem)?:
            observer.event(.baselineUnusable(problem))
            return nil
        case .success(let baseline)?:
            observer.event(.comparingWithBaseline(path: baseline.path, generatedAt: baseline.report.generatedAt))
            return baseline
        }
    }

    /// How the run is recorded in the history.
    struct Recording: Sendable {
        var kind: RunKind
        /// The domain list file, when the run read one.
        var listSource: String?
    }

    /// After the work: the changes since `baseline`, what the history adds (read before the
    /// reports are written, since they show it), the reports written as one set, the run recorded
    /// after, and the exit status. A signal (`signal()`) is asked only once the reports are whole.
    /// `incomplete`: what makes the written report fall short of a whole night (a merge's missing
    /// or interrupted shards), told after the reports are written and ending the run with status 2.
    func finish(_ report: StreamedReport, baseline: BaselineReport?, recording: Recording, incomplete: [RunEvent] = [],
                observer: AuditRunObserver, signal: () -> Int32?) -> AuditOutcome {
        var report = report
        do {
            report = try withChanges(report, since: baseline)
        } catch {
            // A domain of the spool that cannot be read back (a disk that filled): no report.
            observer.event(.reportNotAssembled(error))
            return RunEnded(.usageOrInputError).outcome
        }
        let audited = !report.domains.isEmpty
        var record = RunRecord(streamed: report, kind: recording.kind, origin: work == .audit ? .audit : .merge,
                               listSource: recording.listSource)
        if let history, audited {
            report.report.history = history.insights(for: record, observer: observer)
            record.report = report.report
        }
        if let reason = nothingToCompare(report, baseline: baseline, audited: audited) {
            observer.event(.failOnNewComparesNothing(reason))
        }
        let directory: URL
        let ending = ending(of: report, incomplete: incomplete, signal: signal)
        report.report.run = provenance(ending)
        do {
            directory = try write(report, audited: audited, ending: ending, observer: observer)
        } catch {
            return RunEnded(.usageOrInputError, report).outcome
        }
        if let history, audited {
            record.endedAt = Date()
            history.record(record, observer: observer)
        }
        return AuditOutcome(streamed: report, directory: directory,
                            status: status(of: report, incomplete: incomplete, observer: observer, signal: signal))
    }

    /// `report` with its changes since `baseline` (none without one).
    func withChanges(_ report: StreamedReport, since baseline: BaselineReport?) throws -> StreamedReport {
        guard let baseline else { return report }
        var report = report
        report.report.changes = try ReportChanges.between(baseline: baseline.report, domains: baseline.domains, current: report, baselinePath: baseline.path,
                                                          expiryWarningDays: expiryWarningDays)
        return report
    }

    /// Why `--fail-on new` compares with nothing once the history was asked, if it does: no baseline,
    /// and a history that could not be read (its warning came first: not one without earlier runs)
    /// or that holds no earlier run of the list.
    func nothingToCompare(_ report: StreamedReport, baseline: BaselineReport?, audited: Bool) -> RunEvent.NothingToCompare? {
        guard output.policy.failOn.asksWhatIsNew, baseline == nil, let history,
              (report.report.history?.earlierListRuns ?? 0) == 0 else { return nil }
        return report.report.history == nil && audited ? .historyUnreadable(path: history.path) : .noEarlierRun(path: history.path)
    }

    /// Shows `report` (the summary) and writes it as one set; the folder it went to. A failure of
    /// either is told and thrown.
    func write(_ report: StreamedReport, audited: Bool, ending: RunEnding? = nil, observer: AuditRunObserver) throws -> URL {
        do {
            try observer.reportMade(streamed: report)
            let written = try output.write(report, ending: ending)
            for note in written.notes { observer.event(.keepLeftInPlace(note)) }
            if let store = output.store, output.updatesLatest, report.report.complete, !audited {
                observer.event(.latestNotMovedNothingAudited(storeRoot: store.root))
            }
            observer.reportsWritten(in: written.directory)
            return written.directory
        } catch {
            observer.event(.reportsNotWritten(error))
            throw error
        }
    }

    /// The exit status of a run whose reports were written: a signal's (the report then says what
    /// it kept), else 2 when the report is `incomplete`, else what the policy says of it.
    func status(of report: StreamedReport, incomplete: [RunEvent], observer: AuditRunObserver, signal: () -> Int32?) -> ExitStatus {
        if let number = signal() {
            observer.event(.stopped(RunEvent.StopSignal(number), stopped(report)))
            return ExitPolicy.status(forSignal: number)
        }
        if !incomplete.isEmpty {
            for event in incomplete { observer.event(event) }
            return .usageOrInputError
        }
        return output.policy.status(for: report)
    }

    /// How the run ends as its reports are written (for the metrics): `status(of:…)`'s status, in
    /// the same order, without telling anything. A signal that arrives while they are written is not in it.
    func ending(of report: StreamedReport, incomplete: [RunEvent], signal: () -> Int32?) -> RunEnding {
        let status: ExitStatus
        if let number = signal() {
            status = ExitPolicy.status(forSignal: number)
        } else {
            status = incomplete.isEmpty ? output.policy.status(for: report) : .usageOrInputError
        }
        return RunEnding(status: status, reportsWrittenAt: Date())
    }

    /// Where and how the report is made, as it is written: this machine, the status the run
    /// decided (`ending`), its duration so far, its route.
    func provenance(_ ending: RunEnding) -> RunProvenance {
        RunProvenance(host: host, exitStatus: Int(ending.status.rawValue),
                      durationSeconds: max(0, ending.reportsWrittenAt.timeIntervalSince(startedAt)), route: route)
    }

    /// What a signal after the writing stopped: the audit's domains checked and not, or the merge.
    func stopped(_ report: StreamedReport) -> RunEvent.Stopped {
        switch work {
        case .merge:
            return .mergeAfterWriting
        case .audit:
            // `latest` moves only in the store, and only for a complete report.
            return .audit(audited: report.domains.count, notAudited: report.report.notAudited?.count ?? 0,
                          latestNotMovedIn: report.report.complete ? nil : output.store?.root)
        }
    }
}
