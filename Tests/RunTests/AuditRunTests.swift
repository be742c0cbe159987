import Audit
import Fetching
import Foundation
import Reporting
import Synchronization
import TestSupport
import Testing
@testable import Run

/// Records what a run tells, in order: its events as values (`events`), the rest as lines.
final class RecordingObserver: AuditRunObserver, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []
    private var told: [RunEvent] = []
    /// Progress, fetching, the report made and written, in order.
    var lines: [String] { lock.withLock { recorded } }
    /// The events, in order.
    var events: [RunEvent] { lock.withLock { told } }
    var madeReport: AuditReport?
    var failReportMade = false

    private func record(_ line: String) { lock.withLock { recorded.append(line) } }
    func event(_ event: RunEvent) { lock.withLock { told.append(event) } }
    func progress(done: Int, of total: Int) { record("progress: \(done)/\(total)") }
    func fetching(total: Int?) { record("fetching: \(total.map(String.init) ?? "done")") }
    func reportMade(_ report: AuditReport) throws {
        madeReport = report
        record("report: \(report.domains.count) domains")
        if failReportMade { throw Refused() }
    }
    func reportsWritten(in directory: URL) { record("written: \(directory.lastPathComponent)") }
    struct Refused: Error, CustomStringConvertible { var description: String { "the terminal went away" } }
}

/// Events compared as values: every case and payload the same. An error in a payload is compared
/// by its type and what it says, as errors are not Equatable.
extension RunEvent: Equatable {
    public static func == (a: RunEvent, b: RunEvent) -> Bool {
        String(reflecting: a) == String(reflecting: b)
    }
}

/// The run as a library, without the binary. The fetches go to a closed port on loopback, so every
/// domain fails to connect, quickly and without any server.
@Suite struct AuditRunTests {
    static func run(_ domains: AuditRun.Domains, in folder: URL, caFile: String? = nil, shard: Shard? = nil,
                    formats: [ReportFormat] = [.json], strict: Bool = false) -> (AuditOutcome, RecordingObserver, ReportStore) {
        let store = ReportStore(root: folder.appendingPathComponent("reports").path)
        // Port 9 (discard) on loopback: nothing listens, the connection is refused at once.
        let fetch = FetchOptions(userAgent: "aasa-audit/test", caFile: caFile, connectTo: ["::127.0.0.1:9"], connectTimeout: 2,
                                 totalTimeout: 4, concurrency: 4)
        let run = AuditRun(domains: domains, fetch: fetch, audit: AuditSettings(userAgent: "aasa-audit/test"), shard: shard,
                           baseline: .latest(store), output: ReportOutput(destination: .store(store), formats: formats,
                                                                          policy: ExitPolicy(strict: strict)),
                           tool: ToolInfo(name: "aasa-audit", version: "0.1.0"))
        let observer = RecordingObserver()
        return (run.run(observer: observer), observer, store)
    }

    @Test func aMissingDefaultListSaysHowToStart() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let path = folder.appendingPathComponent("domains.txt").path
        let (outcome, observer, _) = Self.run(.file(path, given: false), in: folder)
        #expect(outcome.status == .usageOrInputError && outcome.report == nil)
        #expect(observer.events == [.domainListUnreadable(path: path, reason: "No such file or directory", isDefault: true)])
        let (given, givenObserver, _) = Self.run(.file(path, given: true), in: folder)
        #expect(given.status == .usageOrInputError)
        #expect(givenObserver.events == [.domainListUnreadable(path: path, reason: "No such file or directory", isDefault: false)])
    }

    @Test func aBinaryListIsRefusedWhole() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let path = folder.appendingPathComponent("list.txt").path
        try Data("a.example\nb\0c\n".utf8).write(to: URL(fileURLWithPath: path))
        let (outcome, observer, _) = Self.run(.file(path, given: true), in: folder)
        #expect(outcome.status == .usageOrInputError)
        #expect(observer.events == [.domainListRefused(.binary(path, line: 2))])
    }

    @Test func nothingToAuditAndAMissingCAFile() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let path = folder.appendingPathComponent("empty.txt").path
        try Data("# nothing\n\n".utf8).write(to: URL(fileURLWithPath: path))
        let (empty, emptyObserver, _) = Self.run(.file(path, given: true), in: folder)
        #expect(empty.status == .usageOrInputError)
        #expect(emptyObserver.events == [.noDomains(.file(path, given: true))])
        let (noCA, noCAObserver, store) = Self.run(.arguments(["a.example"]), in: folder, caFile: "/nonexistent/ca.pem")
        #expect(noCA.status == .usageOrInputError)
        #expect(noCAObserver.events == [.caFileUnusable(path: "/nonexistent/ca.pem", problem: "No such file or directory")])
        #expect(!FileManager.default.fileExists(atPath: store.root), "nothing is written before the fetch")
    }

    @Test func aWholeRunWritesTheStoreAndFails() throws {
        let folder = try AuditBinary.temporaryDirectory()
        // A run of the domain list (a one-off check of arguments would not move `latest`).
        let list = folder.appendingPathComponent("domains.txt")
        try Data("a.example\nb.example\nA.example\nnot a domain\n".utf8).write(to: list)
        let (outcome, observer, store) = Self.run(.file(list.path, given: true), in: folder)
        // A skipped line makes it 2 although both domains fail.
        #expect(outcome.status == .usageOrInputError)
        let report = try #require(outcome.report)
        #expect(report.domains.map(\.domain) == ["a.example", "b.example"])
        #expect(report.domains.allSatisfy { $0.verdict == .fail })
        #expect(report.inputErrors.count == 1 && report.complete)
        let directory = try #require(outcome.directory)
        #expect(store.latestFolderName == directory.lastPathComponent)
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("report.json").path))
        let lines = observer.lines
        // The list's problems first, whole, before anything is fetched.
        let problems = [InputProblem(file: list.path, line: 4, text: "not a domain", reason: "contains a space: one domain per line")]
        #expect(observer.events == [.inputProblems(problems, total: 1), .duplicatesAuditedOnce(count: 1)])
        #expect(lines.contains("fetching: 2") && lines.contains("fetching: done") && lines.contains("progress: 2/2"))
        #expect(lines.suffix(2) == ["report: 2 domains", "written: \(directory.lastPathComponent)"])
        #expect(observer.madeReport == report)

        // The next run compares with it, and fails with 1 (no skipped line).
        try Data("a.example\n".utf8).write(to: list)
        let (next, nextObserver, _) = Self.run(.file(list.path, given: true), in: folder)
        #expect(next.status == .domainFailed)
        #expect(nextObserver.events == [.comparingWithBaseline(path: "\(store.root)/\(directory.lastPathComponent)/report.json",
                                                               generatedAt: report.generatedAt)])
        #expect(next.report?.changes != nil)
    }

    @Test func aShardSaysWhatItTookAndAFailedReportHookWritesNothing() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let names = (1...6).map { "d\($0).example" }
        let shard = try #require(Shard(index: 1, count: 2))
        let store = ReportStore(root: folder.appendingPathComponent("reports").path)
        let fetch = FetchOptions(userAgent: "t", connectTo: ["::127.0.0.1:9"], connectTimeout: 2, totalTimeout: 4)
        let run = AuditRun(domains: .arguments(names), fetch: fetch, audit: AuditSettings(), shard: shard, baseline: .none,
                           output: ReportOutput(destination: .store(store)), tool: ToolInfo(name: "aasa-audit", version: "0.1.0"))
        let observer = RecordingObserver()
        observer.failReportMade = true
        let outcome = run.run(observer: observer)
        #expect(outcome.status == .usageOrInputError && outcome.directory == nil)
        #expect(outcome.report?.shard == shard)
        let expected = shard.subset(of: DomainList.parse(arguments: names)).entries.count
        #expect(observer.events.first == .shardSelected(shard, selected: expected, total: 6))
        #expect(observer.events.last == .reportsNotWritten(RecordingObserver.Refused()))
        #expect(!FileManager.default.fileExists(atPath: store.root))
    }

    @Test func aSignalBeforeTheFetchWritesAnIncompleteReportAndLeavesLatest() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let store = ReportStore(root: folder.appendingPathComponent("reports").path)
        let fetch = FetchOptions(userAgent: "t", connectTo: ["::127.0.0.1:9"], connectTimeout: 2, totalTimeout: 4)
        let run = AuditRun(domains: .arguments(["a.example", "b.example"]), fetch: fetch, audit: AuditSettings(), baseline: .none,
                           output: ReportOutput(destination: .store(store)), tool: ToolInfo(name: "aasa-audit", version: "0.1.0"))
        let stop = StopSwitch()
        stop.stop()
        let observer = RecordingObserver()
        let outcome = run.run(observer: observer, stop: stop, signal: { ExitPolicy.sigterm })
        #expect(outcome.status == .terminated)
        let report = try #require(outcome.report)
        #expect(!report.complete && report.domains.isEmpty && report.notAudited == ["a.example", "b.example"])
        #expect(outcome.directory != nil && store.latestFolderName == nil)
        #expect(observer.events.last == .stopped(.terminate, .audit(audited: 0, notAudited: 2, latestNotMovedIn: store.root)))
    }
}
