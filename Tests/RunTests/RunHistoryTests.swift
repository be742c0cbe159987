import Audit
import Fetching
import Foundation
import History
import Testing
import TestSupport
@testable import Run

/// A history that records what the run asked of it, and fails when told to.
final class FakeHistory: RunHistory, @unchecked Sendable {
    let path = "fake.sqlite"
    let failing: Bool
    private let lock = NSLock()
    private(set) var asked: [RunRecord] = []
    private(set) var recorded: [RunRecord] = []

    init(failing: Bool) { self.failing = failing }

    struct Broken: Error, CustomStringConvertible { var description: String { "database disk image is malformed" } }

    func insights(for run: RunRecord) throws -> ReportHistory {
        lock.withLock { asked.append(run) }
        if failing { throw Broken() }
        return ReportHistory(earlierListRuns: 7)
    }

    func record(_ run: RunRecord) throws {
        lock.withLock { recorded.append(run) }
        if failing { throw Broken() }
    }
}

/// How AuditRun and MergeRun use the history: read before the reports are written, recorded after,
/// one-off checks told apart, a failure a warning that changes neither the reports nor the status.
@Suite struct RunHistoryTests {
    static func run(_ domains: AuditRun.Domains, history: FakeHistory, in folder: URL, failOn: FailOnList = .any) -> (AuditOutcome, RecordingObserver) {
        let store = ReportStore(root: folder.appendingPathComponent("reports").path)
        let fetch = FetchOptions(userAgent: "aasa-audit/test", connectTo: ["::127.0.0.1:9"], connectTimeout: 2, totalTimeout: 4, concurrency: 4)
        let run = AuditRun(domains: domains, fetch: fetch, audit: AuditSettings(userAgent: "aasa-audit/test"),
                           baseline: .none, output: ReportOutput(destination: .store(store), formats: [.json], policy: ExitPolicy(failOn: failOn)),
                           tool: ToolInfo(name: "aasa-audit", version: "0.1.0"), history: history)
        let observer = RecordingObserver()
        return (run.run(observer: observer), observer)
    }

    @Test func theReportCarriesTheHistoryAndTheRunIsRecordedAfterItsReports() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let list = folder.appendingPathComponent("domains.txt").path
        try "a.example\nb.example\n".write(toFile: list, atomically: true, encoding: .utf8)
        let history = FakeHistory(failing: false)
        let (outcome, _) = Self.run(.file(list, given: true), history: history, in: folder)
        #expect(outcome.status == .domainFailed)
        #expect(outcome.report?.history == ReportHistory(earlierListRuns: 7))
        let written = try AuditBinary.readReport(at: try #require(outcome.directory).appendingPathComponent("report.json"))
        #expect(written.history == ReportHistory(earlierListRuns: 7), "report.json holds it")
        let recorded = try #require(history.recorded.first)
        #expect(history.recorded.count == 1 && recorded.kind == .list && recorded.origin == .audit && recorded.listSource == list)
        #expect(recorded.report.history != nil && recorded.endedAt != nil)
        #expect(history.asked.first?.report.history == nil, "asked before the report had it")
    }

    @Test func aOneOffCheckIsRecordedAsOne() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let history = FakeHistory(failing: false)
        _ = Self.run(.arguments(["a.example"]), history: history, in: folder)
        #expect(history.recorded.map(\.kind) == [.oneOff] && history.recorded.first?.listSource == nil)
    }

    @Test func aBrokenHistoryIsTwoWarningsAndChangesNothingElse() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let history = FakeHistory(failing: true)
        let (outcome, observer) = Self.run(.arguments(["a.example"]), history: history, in: folder)
        #expect(outcome.status == .domainFailed, "the audit's own status")
        #expect(outcome.report?.history == nil)
        #expect(FileManager.default.fileExists(atPath: try #require(outcome.directory).appendingPathComponent("report.json").path))
        let warnings = observer.events.filter { $0.level == .warning }
        #expect(warnings == [.historyNotRead(path: "fake.sqlite", error: FakeHistory.Broken()),
                             .runNotRecorded(path: "fake.sqlite", error: FakeHistory.Broken())])
    }

    /// `--fail-on new` with no baseline and a history that could not be read: said as it is, not
    /// as a history without earlier runs.
    @Test func failOnNewWithAnUnreadableHistorySaysItCouldNotBeRead() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let (outcome, observer) = Self.run(.arguments(["a.example"]), history: FakeHistory(failing: true), in: folder, failOn: .new)
        #expect(outcome.status == .domainFailed)
        #expect(observer.events.filter { if case .failOnNewComparesNothing = $0 { true } else { false } }
                == [.failOnNewComparesNothing(.historyUnreadable(path: "fake.sqlite"))], "\(observer.events)")
    }

    @Test func theDefaultHistoryIsInTheStoreAndNoneWithOut() {
        #expect(HistoryFile.choice(file: nil, noHistory: false, output: .store(ReportStore(root: "reports")))
                == HistoryFile(path: "reports/history.sqlite", createsFolder: true))
        #expect(HistoryFile.choice(file: nil, noHistory: false, output: .folder("out")) == nil)
        #expect(HistoryFile.choice(file: "h.sqlite", noHistory: false, output: .folder("out")) == HistoryFile(path: "h.sqlite"))
        #expect(HistoryFile.choice(file: nil, noHistory: true, output: .store(ReportStore())) == nil)
    }

    @Test func aFIFOIsRefusedBeforeSQLiteOpensIt() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let fifo = folder.appendingPathComponent("h.sqlite").path
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: DatabaseError.self) { try HistoryFile(path: fifo).open() }
    }

    @Test func aSymbolicLinkInTheStoreIsRefusedAndNothingIsWrittenOutside() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let outside = folder.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        let reports = folder.appendingPathComponent("reports").path
        for sidecar in ["", "-wal", "-shm", "-journal"] {
            let path = (reports as NSString).appendingPathComponent(HistoryStore.defaultFileName)
            try? FileManager.default.removeItem(atPath: reports)
            try FileManager.default.createDirectory(atPath: reports, withIntermediateDirectories: true)
            let target = outside.appendingPathComponent("planted\(sidecar)").path
            try FileManager.default.createSymbolicLink(atPath: path + sidecar, withDestinationPath: target)
            let error = #expect(throws: DatabaseError.self) { try HistoryFile(path: path, createsFolder: true).open() }
            #expect(error?.description == "opening \(path): " + (sidecar.isEmpty ? "it" : "\(path + sidecar) beside it")
                    + " is a symbolic link; the history in the report folder is never written through one"
                    + " (delete it, or name a file with --history FILE)")
            #expect(!FileManager.default.fileExists(atPath: target), "\(sidecar)")
        }
    }
}
