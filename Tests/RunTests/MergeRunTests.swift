import Audit
import Foundation
import Reporting
import TestSupport
import Testing
@testable import Run

@Suite struct MergeRunTests {
    static func shard(_ index: Int, of count: Int, _ verdicts: [Verdict], in folder: URL, complete: Bool = true) throws -> String {
        var report = AuditReport(tool: ToolInfo(name: "aasa-audit", version: "0.1.0"), generatedAt: Date(timeIntervalSince1970: 1_800_000_000),
                                 complete: complete,
                                 domains: verdicts.enumerated().map { DomainResult(domain: "s\(index)-\($0.offset).example", verdict: $0.element,
                                                                                   usedLocation: nil, findings: [], locations: []) })
        report.shard = Shard(index: index, count: count)
        let out = folder.appendingPathComponent("shard\(index)")
        _ = try ReportOutput(destination: .folder(out.path), formats: [.json]).write(report)
        return out.appendingPathComponent("report.json").path
    }

    static func merge(_ files: [String], in folder: URL, strict: Bool = false) -> (AuditOutcome, RecordingObserver, ReportStore) {
        let store = ReportStore(root: folder.appendingPathComponent("reports").path)
        let run = MergeRun(files: files, baseline: .latest(store),
                           output: ReportOutput(destination: .store(store), formats: [.json, .junit], policy: ExitPolicy(strict: strict)))
        let observer = RecordingObserver()
        return (run.run(observer: observer), observer, store)
    }

    @Test func mergesIntoTheStoreWithTheSamePolicyAsTheAudit() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let files = [try Self.shard(1, of: 2, [.pass, .warn], in: folder), try Self.shard(2, of: 2, [.pass], in: folder)]
        let (outcome, observer, store) = Self.merge(files, in: folder)
        #expect(outcome.status == .success)
        #expect(outcome.report?.domains.count == 3 && outcome.report?.complete == true)
        let directory = try #require(outcome.directory)
        #expect(store.latestFolderName == directory.lastPathComponent)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["report.json", "report.junit.xml"])
        #expect(observer.lines == ["report: 3 domains", "written: \(directory.lastPathComponent)"])
        let (strict, _, _) = Self.merge(files, in: folder, strict: true)
        #expect(strict.status == .domainFailed, "--strict: a warning fails the merge as it fails the audit")
    }

    @Test func aMissingShardIsWrittenButExitsTwo() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let files = [try Self.shard(1, of: 3, [.pass], in: folder)]
        let (outcome, observer, store) = Self.merge(files, in: folder)
        #expect(outcome.status == .usageOrInputError)
        #expect(outcome.directory != nil && store.latestFolderName == nil, "an incomplete merge never becomes latest")
        #expect(observer.events.last == .shardsMissing(shown: [2, 3], count: 2, of: 3))
    }

    @Test func aFileThatIsNotAReportStopsTheMergeBeforeWriting() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let good = try Self.shard(1, of: 2, [.pass], in: folder)
        let bad = folder.appendingPathComponent("bad.json")
        try Data("{\"tool\": 1}".utf8).write(to: bad)
        let (outcome, observer, store) = Self.merge([good, bad.path], in: folder)
        #expect(outcome.status == .usageOrInputError && outcome.report == nil)
        #expect(observer.lines.isEmpty && observer.events.count == 1)
        guard case .shardReportUnusable(bad.path, .notAReport)? = observer.events.first else {
            Issue.record("\(observer.events)")
            return
        }
        #expect(!FileManager.default.fileExists(atPath: store.root))
        let (missing, missingObserver, _) = Self.merge([good, "/nonexistent.json"], in: folder)
        #expect(missing.status == .usageOrInputError)
        #expect(missingObserver.events == [.shardReportUnusable(file: "/nonexistent.json", .unreadable("no such file"))])
    }

    @Test func aSignalBeforeWritingWritesNothing() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let files = [try Self.shard(1, of: 1, [.pass], in: folder)]
        let store = ReportStore(root: folder.appendingPathComponent("reports").path)
        let observer = RecordingObserver()
        let outcome = MergeRun(files: files, baseline: .none, output: ReportOutput(destination: .store(store)))
            .run(observer: observer, signal: { ExitPolicy.sigint })
        #expect(outcome.status == .interrupted && outcome.directory == nil)
        #expect(observer.events == [.stopped(.interrupt, .mergeBeforeWriting)] && observer.lines.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: store.root))
    }

    /// The shards' domains are read one at a time into the results spool: the merged report.json,
    /// report.html and report.md are byte for byte those of the merge held in memory, with hostile
    /// strings, several domains per shard and shards given out of order.
    @Test func theMergeThroughTheSpoolWritesTheSameReportsAsInMemory() throws {
        let folder = try AuditBinary.temporaryDirectory()
        var files: [String] = []
        for (index, first) in [(2, 10), (1, 1), (3, 20)] {
            var report = HostileReport.report(shard: Shard(index: index, count: 3), first: first)
            report.domains += (first + 100...first + 104).map(HostileReport.result)
            let out = folder.appendingPathComponent("shard\(index)")
            _ = try ReportOutput(destination: .folder(out.path), formats: [.json]).write(report)
            files.append(out.appendingPathComponent("report.json").path)
        }
        func merged(spooling: Bool) throws -> [String: Data] {
            let out = folder.appendingPathComponent(spooling ? "spooled" : "memory")
            var run = MergeRun(files: files, baseline: .none, output: ReportOutput(destination: .folder(out.path), formats: [.json, .html, .md]))
            run.spoolsResults = spooling
            _ = run.run(observer: RecordingObserver())
            var written: [String: Data] = [:]
            for name in ["report.json", "report.html", "report.md"] {
                written[name] = try Data(contentsOf: out.appendingPathComponent(name))
            }
            // The one thing two merges may differ in: how long each took.
            let json = String(decoding: try #require(written["report.json"]), as: UTF8.self)
            written["report.json"] = Data(json.replacing(try Regex(#""durationSeconds" : [0-9.e+-]+"#), with: #""durationSeconds" : 0"#).utf8)
            return written
        }
        let spooled = try merged(spooling: true), inMemory = try merged(spooling: false)
        for name in ["report.json", "report.html", "report.md"] {
            #expect(spooled[name] == inMemory[name], "\(name) differs")
        }
        let report = try JSONReporter.decode(try #require(spooled["report.json"]))
        #expect(report.domains.count == 21 && report.domains.map(\.domain) == report.domains.map(\.domain).sorted())
        // Every domain of the three shards serves the one hostile body: the merge stores it once.
        let json = try #require(spooled["report.json"])
        let top = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        #expect((top["bodies"] as? [String: String])?.values.sorted() == [HostileReport.payload])
        #expect(report.domains.allSatisfy { $0.locations.allSatisfy { $0.body == HostileReport.payload } })
    }

    /// `merge --bodies none` leaves out what the shards stored, through the spool and in memory alike.
    @Test func mergeBodiesNoneLeavesOutTheShardsBodies() throws {
        let folder = try AuditBinary.temporaryDirectory()
        var files: [String] = []
        for index in 1...2 {
            let out = folder.appendingPathComponent("shard\(index)")
            _ = try ReportOutput(destination: .folder(out.path), formats: [.json]).write(HostileReport.report(shard: Shard(index: index, count: 2), first: index * 10))
            files.append(out.appendingPathComponent("report.json").path)
        }
        for spooling in [true, false] {
            let out = folder.appendingPathComponent(spooling ? "spooled" : "memory")
            var run = MergeRun(files: files, baseline: .none, output: ReportOutput(destination: .folder(out.path), formats: [.json]))
            run.spoolsResults = spooling
            run.bodies = BodiesPolicy.none
            _ = run.run(observer: RecordingObserver())
            let data = try Data(contentsOf: out.appendingPathComponent("report.json"))
            let top = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(top["bodies"] == nil, "spooling: \(spooling)")
            let report = try JSONReporter.decode(data)
            #expect(report.domains.count == 4 && report.domains.allSatisfy { $0.locations.allSatisfy { $0.body == nil && $0.bodyOmittedBy == BodiesPolicy.none } })
        }
    }

    /// A domain in two shards stops the merge when its second copy is read, naming both files.
    @Test func aDomainInTwoShardsIsRefusedWhileStreaming() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let one = try Self.shard(1, of: 2, [.pass, .pass], in: folder)
        var report = try ReportFile.load(one).get()
        report.shard = Shard(index: 2, count: 2)
        let out = folder.appendingPathComponent("shard2")
        _ = try ReportOutput(destination: .folder(out.path), formats: [.json]).write(report)
        let two = out.appendingPathComponent("report.json").path
        let (outcome, observer, _) = Self.merge([one, two], in: folder)
        #expect(outcome.status == .usageOrInputError && outcome.directory == nil)
        #expect(observer.events.contains(.mergeRefused(ReportMergeError.duplicateDomain(domain: "s1-0.example", source: two, otherSource: one))))
    }

    /// A domain longer than the limit of one domain is refused by its place, not read whole.
    @Test func aDomainPastTheLimitIsNamedNotCollected() throws {
        let data = Data(#"{"schemaVersion":1,"domains":[{"domain":"a"},{"domain":"\#(String(repeating: "b", count: 100))"},{"domain":"c"}]}"#.utf8)
        var splitter = ReportJSONSplitter(maxElementBytes: 50)
        var elements: [Data] = []
        data.withUnsafeBytes { splitter.feed($0) { elements.append($0) } }
        #expect(splitter.firstOversized == 1 && elements.count == 2 && splitter.isBalanced)
        var shellOnly = ReportJSONSplitter(keepingElements: false)
        var none = 0
        data.withUnsafeBytes { shellOnly.feed($0) { _ in none += 1 } }
        #expect(none == 0 && shellOnly.shell == Data(#"{"schemaVersion":1,"domains":[]}"#.utf8))
    }
}
