import Audit
import Fetching
import Foundation
import Reporting
import Synchronization
import TestSupport
import Testing
@testable import Run

/// Records what a run tells, in order.
final class RecordingObserver: AuditRunObserver, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []
    var lines: [String] { lock.withLock { recorded } }
    var madeReport: AuditReport?
    var failReportMade = false

    private func record(_ line: String) { lock.withLock { recorded.append(line) } }
    func notice(_ text: String) { record("notice: \(text)") }
    func info(_ text: String) { record("info: \(text)") }
    func progress(done: Int, of total: Int) { record("progress: \(done)/\(total)") }
    func fetching(total: Int?) { record("fetching: \(total.map(String.init) ?? "done")") }
    func reportMade(_ report: AuditReport) throws {
        madeReport = report
        record("report: \(report.domains.count) domains")
        struct Refused: Error, CustomStringConvertible { var description: String { "the terminal went away" } }
        if failReportMade { throw Refused() }
    }
    func reportsWritten(in directory: URL) { record("written: \(directory.lastPathComponent)") }
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
        #expect(observer.lines == ["notice: cannot read the domain list \(path): No such file or directory (name domains as arguments, or create domains.txt with one domain per line)"])
        let (given, givenObserver, _) = Self.run(.file(path, given: true), in: folder)
        #expect(given.status == .usageOrInputError)
        #expect(givenObserver.lines == ["notice: cannot read the domain list \(path): No such file or directory"])
    }

    @Test func aBinaryListIsRefusedWhole() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let path = folder.appendingPathComponent("list.txt").path
        try Data("a.example\nb\0c\n".utf8).write(to: URL(fileURLWithPath: path))
        let (outcome, observer, _) = Self.run(.file(path, given: true), in: folder)
        #expect(outcome.status == .usageOrInputError)
        #expect(observer.lines == ["notice: the domain list \(path) holds a NUL byte on line 2: it is a binary file, not a list of domains"])
    }

    @Test func nothingToAuditAndAMissingCAFile() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let path = folder.appendingPathComponent("empty.txt").path
        try Data("# nothing\n\n".utf8).write(to: URL(fileURLWithPath: path))
        let (empty, emptyObserver, _) = Self.run(.file(path, given: true), in: folder)
        #expect(empty.status == .usageOrInputError)
        #expect(emptyObserver.lines == ["notice: no domains to audit in \(path)"])
        let (noCA, noCAObserver, store) = Self.run(.arguments(["a.example"]), in: folder, caFile: "/nonexistent/ca.pem")
        #expect(noCA.status == .usageOrInputError)
        #expect(noCAObserver.lines == ["notice: --cacert /nonexistent/ca.pem: No such file or directory"])
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
        #expect(lines.prefix(2) == ["notice: \(list.path):4: \"not a domain\": contains a space: one domain per line",
                                    "notice: 1 duplicate line audited once"])
        #expect(lines.contains("fetching: 2") && lines.contains("fetching: done") && lines.contains("progress: 2/2"))
        #expect(lines.suffix(2) == ["report: 2 domains", "written: \(directory.lastPathComponent)"])
        #expect(observer.madeReport == report)

        // The next run compares with it, and fails with 1 (no skipped line).
        try Data("a.example\n".utf8).write(to: list)
        let (next, nextObserver, _) = Self.run(.file(list.path, given: true), in: folder)
        #expect(next.status == .domainFailed)
        #expect(nextObserver.lines.contains { $0.hasPrefix("info: comparing with \(store.root)/\(directory.lastPathComponent)/report.json (run of ") })
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
        #expect(observer.lines.first == "info: shard 1/2: \(expected) of the list's 6 domains")
        #expect(observer.lines.last == "notice: the terminal went away")
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
        #expect(observer.lines.last == "notice: stopped by SIGTERM: 0 of 2 domains checked; the report is marked \"complete\": false and lists the 2 not audited under \"notAudited\"; reports/latest was not moved")
    }
}
