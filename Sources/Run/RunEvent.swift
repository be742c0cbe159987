import Audit
import Fetching
import Foundation

/// What a run tells the one running it, as a value: each case carries what explains it (the file,
/// the path, the counts, the error), and the executable puts it into words (`RunEventText`). Run
/// itself writes no sentence.
public enum RunEvent: Sendable {
    // The domain list.
    /// The domain list is a pipe nothing has been written to yet.
    case waitingForDomainList(path: String)
    /// The domain list cannot be read; `isDefault` when `--domains` did not name it (the text then
    /// says how to start).
    case domainListUnreadable(path: String, reason: String, isDefault: Bool)
    /// The domain list was refused whole (too large, binary).
    case domainListRefused(DomainListFile.ReadError)
    /// The lines of the list (and expectation tokens) that were skipped: the first ones, and the total.
    case inputProblems([InputProblem], total: Int)
    /// Lines naming a domain already listed.
    case duplicatesAuditedOnce(count: Int)
    /// What the list's reading made of a line (`place`: file and line).
    case entryNote(place: String, note: String)
    /// `--cacert FILE` cannot be read.
    case caFileUnusable(path: String, problem: String)
    /// Nothing to audit in the list or the arguments.
    case noDomains(AuditRun.Domains)
    /// `--shard`: how many of the list's domains this run audits.
    case shardSelected(Shard, selected: Int, total: Int)
    /// Domains given as arguments (or only the apps' hosts) in the store: `latest` stays put;
    /// `notCompared` when the default baseline was dropped for it.
    case oneOffCheck(storeRoot: String, hostsFromEntitlements: Bool, notCompared: Bool)
    /// What an `--apk` holds that is not audited: hosts Android drops (not domain names) and values
    /// the reader could not resolve (each said by `AndroidManifest.unresolved`).
    case androidAppNotes(apk: String, droppedHosts: [String], unresolved: [String])
    /// With `--entitlements` and `--apk`: the link hosts the iOS apps claim and the Android apps do
    /// not (`appleOnly`), the other way round (`androidOnly`), and how many both claim.
    case appLinkHostsCompared(appleOnly: [String], androidOnly: [String], shared: Int)

    // Before the work.
    /// Another run holds the reports folder's lock; this one waits for it (`--wait`).
    case waitingForRunLock(folder: String, holder: RunLock.Holder?, seconds: Int)
    /// Another run holds the reports folder's lock (after `--wait`'s seconds, if given): nothing done.
    case runLockHeld(folder: String, holder: RunLock.Holder?, waited: Int)
    /// The reports folder cannot be made or locked.
    case runLockUnusable(folder: String, reason: String)
    /// The reports could not be written; found before `work` began.
    case outputUnwritable(ReportWriteError, before: Work)
    /// The baseline cannot be used; the run goes on without one.
    case baselineUnusable(BaselineReport.Problem)
    /// The baseline the run is compared with.
    case comparingWithBaseline(path: String, generatedAt: Date)
    /// `--fail-on new` has nothing to tell what is new by.
    case failOnNewComparesNothing(NothingToCompare)

    // The fetch and the report.
    /// The results spool could not be made; the results stay in memory.
    case spoolUnavailable(ReportWriteError)
    /// The fetch could not run.
    case fetchFailed(any Error)
    /// The proxy cannot be used (its setting cannot be read, or a transfer found it down,
    /// unresolvable, asking for credentials, failing its handshake): the run stopped before any
    /// domain was judged by it, and nothing was written.
    case proxyFailed(ProxyFailure)
    /// The report could not be put together (a result that cannot be read back); nothing written.
    case reportNotAssembled(any Error)
    /// The history could not be read; the reports are written without it.
    case historyNotRead(path: String, error: any Error)
    /// The report could not be shown or written.
    case reportsNotWritten(any Error)
    /// `--keep` left a run folder in place.
    case keepLeftInPlace(ReportStore.Note)
    /// A complete run that audited no domain: `latest` in `storeRoot` stays where it was.
    case latestNotMovedNothingAudited(storeRoot: String)
    /// The run was written but could not be recorded in the history.
    case runNotRecorded(path: String, error: any Error)
    /// A signal stopped the run; what it stopped and what was kept.
    case stopped(StopSignal, Stopped)

    // Merge.
    /// A shard's report.json cannot be used.
    case shardReportUnusable(file: String, ReportFile.LoadError)
    /// The shards do not make one report.
    case mergeRefused(ReportMergeError)
    /// What the merge found odd but merged.
    case mergeWarning(String)
    /// Shards of the list that were not given: the first of them (`shown`), how many in all, and the
    /// number of shards the list was cut into.
    case shardsMissing(shown: [Int], count: Int, of: Int)
    /// A shard whose report says it was interrupted.
    case shardInterrupted(source: String)

    /// What a run does: the work a folder check comes before, the work a signal stops.
    public enum Work: Sendable, Equatable {
        case audit, merge
    }

    /// Why `--fail-on new` compares with nothing, so every failing domain fails the run.
    public enum NothingToCompare: Sendable, Equatable {
        /// Neither a baseline nor a history.
        case noBaselineNorHistory
        /// No baseline, and the history at this path could not be read (its warning came first).
        case historyUnreadable(path: String)
        /// No baseline, and no earlier run of the list in the history at this path.
        case noEarlierRun(path: String)
    }

    /// The signal that stopped a run.
    public enum StopSignal: Sendable, Equatable {
        case interrupt, terminate

        /// SIGTERM is `terminate`; SIGINT and anything else `interrupt` (as `ExitPolicy` counts them).
        public init(_ number: Int32) {
            self = ExitPolicy.status(forSignal: number) == .terminated ? .terminate : .interrupt
        }
    }

    /// What a signal stopped, and what it left.
    public enum Stopped: Sendable, Equatable {
        /// The wait for the domain list (a pipe): nothing audited or written.
        case waitingForDomainList(path: String)
        /// Reading the apps' entitlements (`--entitlements`, a large `.ipa`): nothing audited or written.
        case readingApps
        /// The audit: `audited` domains in the report, `notAudited` listed as such (none: the
        /// report is complete); `latestNotMovedIn`: the store whose `latest` the incomplete report
        /// did not move (nil with `--out`, or for a complete report).
        case audit(audited: Int, notAudited: Int, latestNotMovedIn: String?)
        /// The merge, before it wrote anything.
        case mergeBeforeWriting
        /// The wait for another run's lock (`--wait`): nothing audited or written.
        case waitingForRunLock
        /// The merge, once its reports were written whole.
        case mergeAfterWriting
    }

    /// Whether the event is a note on a run that goes on as asked (a warning, or a notice that
    /// changes nothing the run decides but how it compares): under `--quiet` these say `note:`, so
    /// the lines that say `FAIL` can be told from the rest.
    public var isNote: Bool {
        switch self {
        case .failOnNewComparesNothing, .duplicatesAuditedOnce, .entryNote: true
        default: level == .warning
        }
    }

    /// How the event is shown.
    public enum Level: Sendable, Equatable {
        /// Information `--quiet` hides (which shard, which baseline).
        case info
        /// A problem the run goes on after.
        case warning
        /// Always shown: a problem, a skipped line, why the run ended.
        case notice
    }

    /// How this event is shown.
    public var level: Level {
        switch self {
        case .waitingForDomainList, .waitingForRunLock, .shardSelected, .oneOffCheck, .comparingWithBaseline, .latestNotMovedNothingAudited, .appLinkHostsCompared:
            return .info
        case .baselineUnusable, .spoolUnavailable, .historyNotRead, .runNotRecorded, .keepLeftInPlace, .mergeWarning:
            return .warning
        case .domainListUnreadable, .domainListRefused, .inputProblems, .duplicatesAuditedOnce, .entryNote, .caFileUnusable, .androidAppNotes,
             .noDomains, .outputUnwritable, .failOnNewComparesNothing, .fetchFailed, .proxyFailed, .reportNotAssembled, .reportsNotWritten,
             .stopped, .shardReportUnusable, .runLockHeld, .runLockUnusable, .mergeRefused, .shardsMissing, .shardInterrupted:
            return .notice
        }
    }
}
