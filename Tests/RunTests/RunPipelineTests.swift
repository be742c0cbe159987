import Audit
import Foundation
import History
import TestSupport
import Testing
@testable import Run

/// The end `audit` and `merge` share (`RunPipeline`), driven directly with a report in memory, a
/// store in a temporary folder and a fake history: the same events for both, told as values.
@Suite struct RunPipelineTests {
    static let works: [RunEvent.Work] = [.audit, .merge]

    static func report(_ verdicts: [Verdict], complete: Bool = true) -> StreamedReport {
        var report = AuditReport(tool: ToolInfo(name: "aasa-audit", version: "0.1.0"), generatedAt: Date(timeIntervalSince1970: 1_800_000_000),
                                 complete: complete,
                                 domains: verdicts.enumerated().map { DomainResult(domain: "d\($0.offset).example", verdict: $0.element,
                                                                                   usedLocation: nil, findings: [], locations: []) })
        if !complete { report.notAudited = ["late.example"] }
        return StreamedReport(report)
    }

    static func pipeline(_ work: RunEvent.Work, in folder: URL, history: (any RunHistory)? = nil,
                         failOn: FailOnList = .any) -> (RunPipeline, ReportStore) {
        let store = ReportStore(root: folder.appendingPathComponent("reports").path)
        let output = ReportOutput(destination: .store(store), formats: [.json], policy: ExitPolicy(failOn: failOn))
        return (RunPipeline(work: work, output: output, history: history, expiryWarningDays: 30), store)
    }

    static func finish(_ pipeline: RunPipeline, _ report: StreamedReport, baseline: BaselineReport? = nil, incomplete: [RunEvent] = [],
                       signal: Int32? = nil) -> (AuditOutcome, RecordingObserver) {
        let observer = RecordingObserver()
        let outcome = pipeline.finish(report, baseline: baseline, recording: .init(kind: .list, listSource: nil), incomplete: incomplete,
                                      observer: observer, signal: { signal })
        return (outcome, observer)
    }

    @Test(arguments: works) func aWholeRunIsWrittenRecordedAndSaysNothing(work: RunEvent.Work) throws {
        let folder = try AuditBinary.temporaryDirectory()
        let history = FakeHistory(failing: false)
        let (pipeline, store) = Self.pipeline(work, in: folder, history: history)
        let (outcome, observer) = Self.finish(pipeline, Self.report([.pass, .fail]))
        #expect(outcome.status == .domainFailed)
        let directory = try #require(outcome.directory)
        #expect(store.latestFolderName == directory.lastPathComponent)
        #expect(observer.events.isEmpty, "\(observer.events)")
        #expect(observer.lines == ["report: 2 domains", "written: \(directory.lastPathComponent)"])
        #expect(outcome.report?.history == ReportHistory(earlierListRuns: 7), "the history read before the reports")
        #expect(history.asked.count == 1 && history.recorded.map(\.origin) == [work == .audit ? .audit : .merge])
        #expect(history.recorded.first?.endedAt != nil)
    }

    @Test(arguments: works) func aBrokenHistoryIsTwoWarnings(work: RunEvent.Work) throws {
        let folder = try AuditBinary.temporaryDirectory()
        let (pipeline, _) = Self.pipeline(work, in: folder, history: FakeHistory(failing: true))
        let (outcome, observer) = Self.finish(pipeline, Self.report([.pass]))
        #expect(outcome.status == .success && outcome.directory != nil)
        #expect(observer.events == [.historyNotRead(path: "fake.sqlite", error: FakeHistory.Broken()),
                                    .runNotRecorded(path: "fake.sqlite", error: FakeHistory.Broken())])
        #expect(observer.events.allSatisfy { $0.level == .warning })
    }

    /// A signal is told once the reports are whole; what it says depends on the work stopped.
    @Test(arguments: works) func aSignalIsToldAfterTheReportsAreWritten(work: RunEvent.Work) throws {
        let folder = try AuditBinary.temporaryDirectory()
        let (pipeline, store) = Self.pipeline(work, in: folder)
        let (outcome, observer) = Self.finish(pipeline, Self.report([.pass], complete: false), signal: ExitPolicy.sigterm)
        #expect(outcome.status == .terminated && outcome.directory != nil)
        #expect(store.latestFolderName == nil, "an incomplete report never becomes latest")
        let stopped: RunEvent.Stopped = work == .audit ? .audit(audited: 1, notAudited: 1, latestNotMovedIn: store.root) : .mergeAfterWriting
        #expect(observer.events == [.stopped(.terminate, stopped)])
        #expect(observer.lines.last?.hasPrefix("written: ") == true, "told after the writing")
    }

    @Test func aCompleteAuditStoppedAfterItsLastDomainSaysSo() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let (pipeline, store) = Self.pipeline(.audit, in: folder)
        let (outcome, observer) = Self.finish(pipeline, Self.report([.pass]), signal: ExitPolicy.sigint)
        #expect(outcome.status == .interrupted)
        #expect(store.latestFolderName == outcome.directory?.lastPathComponent)
        #expect(observer.events == [.stopped(.interrupt, .audit(audited: 1, notAudited: 0, latestNotMovedIn: nil))])
    }

    /// What keeps a merged report from being a night's is told after the writing and makes it 2.
    @Test(arguments: works) func anIncompleteReportIsWrittenThenExitsTwo(work: RunEvent.Work) throws {
        let folder = try AuditBinary.temporaryDirectory()
        let (pipeline, _) = Self.pipeline(work, in: folder)
        let incomplete: [RunEvent] = [.shardInterrupted(source: "a.json"), .shardInterrupted(source: "b.json")]
        let (outcome, observer) = Self.finish(pipeline, Self.report([.pass]), incomplete: incomplete)
        #expect(outcome.status == .usageOrInputError && outcome.directory != nil)
        #expect(observer.events == incomplete)
    }

    @Test(arguments: works) func noDomainLeavesLatestAndTheHistoryAlone(work: RunEvent.Work) throws {
        let folder = try AuditBinary.temporaryDirectory()
        let history = FakeHistory(failing: false)
        let (pipeline, store) = Self.pipeline(work, in: folder, history: history)
        let (outcome, observer) = Self.finish(pipeline, Self.report([]))
        #expect(outcome.status == .success && outcome.directory != nil && store.latestFolderName == nil)
        #expect(observer.events == [.latestNotMovedNothingAudited(storeRoot: store.root)])
        #expect(history.asked.isEmpty && history.recorded.isEmpty)
    }

    @Test(arguments: works) func aReportThatCannotBeShownIsNotWritten(work: RunEvent.Work) throws {
        let folder = try AuditBinary.temporaryDirectory()
        let history = FakeHistory(failing: false)
        let (pipeline, store) = Self.pipeline(work, in: folder, history: history)
        let observer = RecordingObserver()
        observer.failReportMade = true
        let outcome = pipeline.finish(Self.report([.pass]), baseline: nil, recording: .init(kind: .list, listSource: nil),
                                      observer: observer, signal: { nil })
        #expect(outcome.status == .usageOrInputError && outcome.directory == nil)
        #expect(observer.events == [.reportsNotWritten(RecordingObserver.Refused())])
        #expect(history.recorded.isEmpty && !FileManager.default.fileExists(atPath: store.root))
    }

    /// The baseline read in `prepare` gives the changes in `finish`, for the audit and the merge alike.
    @Test(arguments: works) func theBaselineIsReadFirstAndComparedLast(work: RunEvent.Work) throws {
        let folder = try AuditBinary.temporaryDirectory()
        let (pipeline, store) = Self.pipeline(work, in: folder)
        let (first, _) = Self.finish(pipeline, Self.report([.pass]))
        let firstFolder = try #require(first.directory).lastPathComponent

        let observer = RecordingObserver()
        let baseline = try pipeline.prepare(baseline: .latest(store), observer: observer)
        let path = "\(store.root)/\(firstFolder)/report.json"
        #expect(observer.events == [.comparingWithBaseline(path: path, generatedAt: Date(timeIntervalSince1970: 1_800_000_000))])
        let (outcome, finishObserver) = Self.finish(pipeline, Self.report([.fail]), baseline: baseline)
        #expect(finishObserver.events.isEmpty)
        #expect(outcome.report?.changes?.baselinePath == path && outcome.report?.changes?.newlyFailing.map(\.domain) == ["d0.example"])
    }

    @Test(arguments: works) func prepareRefusesAFolderThatCannotBeWritten(work: RunEvent.Work) throws {
        let folder = try AuditBinary.temporaryDirectory()
        let (pipeline, store) = Self.pipeline(work, in: folder)
        try Data("x".utf8).write(to: URL(fileURLWithPath: store.root))
        let observer = RecordingObserver()
        #expect(throws: RunEnded.self) { try pipeline.prepare(baseline: .none, observer: observer) }
        #expect(observer.events == [.outputUnwritable(ReportWriteError(path: store.root, reason: "\(store.root) is not a folder"), before: work)])
    }

    @Test(arguments: works) func aBaselineThatCannotBeReadIsAWarning(work: RunEvent.Work) throws {
        let folder = try AuditBinary.temporaryDirectory()
        let (pipeline, _) = Self.pipeline(work, in: folder)
        let observer = RecordingObserver()
        #expect(try pipeline.prepare(baseline: .file("/nonexistent.json"), observer: observer) == nil)
        #expect(observer.events == [.baselineUnusable(BaselineReport.Problem(path: "/nonexistent.json", reason: "no such file"))])
    }

    /// `--fail-on new` with nothing to compare with says why: before the work when there is neither
    /// a baseline nor a history, after it when the history holds no earlier run or could not be read.
    @Test func failOnNewSaysWhyItComparesNothing() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let (alone, _) = Self.pipeline(.audit, in: folder, failOn: .new)
        let observer = RecordingObserver()
        _ = try alone.prepare(baseline: .none, observer: observer)
        #expect(observer.events == [.failOnNewComparesNothing(.noBaselineNorHistory)])

        let (broken, _) = Self.pipeline(.audit, in: folder, history: FakeHistory(failing: true), failOn: .new)
        let brokenPrepare = RecordingObserver()
        _ = try broken.prepare(baseline: .none, observer: brokenPrepare)
        #expect(brokenPrepare.events.isEmpty, "the history is asked after the work")
        let (_, brokenFinish) = Self.finish(broken, Self.report([.fail]))
        #expect(brokenFinish.events.contains(.failOnNewComparesNothing(.historyUnreadable(path: "fake.sqlite"))))

        // An empty report asks no history: it has no earlier run to offer.
        let (_, empty) = Self.finish(broken, Self.report([]))
        #expect(empty.events.contains(.failOnNewComparesNothing(.noEarlierRun(path: "fake.sqlite"))))
    }

    /// Missing shards are told first (the first twenty named); interrupted ones only when none is missing.
    @Test func mergeTellsWhatMakesItIncomplete() {
        #expect(MergeRun.incompleteness(missingShards: Array(2...30), missingCount: 29, of: 30, interrupted: ["s1.json"])
                == [.shardsMissing(shown: Array(2...21), count: 29, of: 30)])
        #expect(MergeRun.incompleteness(missingShards: [], missingCount: 0, of: 30, interrupted: ["s1.json", "s2.json"])
                == [.shardInterrupted(source: "s1.json"), .shardInterrupted(source: "s2.json")])
        #expect(MergeRun.incompleteness(missingShards: [], missingCount: 0, of: 30, interrupted: []).isEmpty)
    }
}
