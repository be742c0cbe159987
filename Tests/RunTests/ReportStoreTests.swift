import Audit
import Foundation
import Reporting
import TestSupport
import Testing
@testable import Run

@Suite struct ReportStoreTests {
    static let started = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15T08:00:00Z

    static func report(complete: Bool = true, _ verdicts: [Verdict] = [.pass]) -> AuditReport {
        AuditReport(tool: ToolInfo(name: "aasa-audit", version: "0.1.0"), generatedAt: started, complete: complete,
                    domains: verdicts.enumerated().map { DomainResult(domain: "d\($0.offset).example", verdict: $0.element,
                                                                      usedLocation: nil, findings: [], locations: []) })
    }

    static func store() throws -> ReportStore {
        ReportStore(root: try AuditBinary.temporaryDirectory().appendingPathComponent("reports").path)
    }

    static func names(_ store: ReportStore) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: store.root).sorted()
    }

    @Test func runFoldersAreNamedByUTCTimeAndNeverReused() throws {
        let store = try Self.store()
        let first = try store.newRunFolder(startedAt: Self.started)
        let second = try store.newRunFolder(startedAt: Self.started)
        let third = try store.newRunFolder(startedAt: Self.started)
        #expect(first.lastPathComponent == "20270115T080000Z")
        #expect(second.lastPathComponent == "20270115T080000Z-1")
        #expect(third.lastPathComponent == "20270115T080000Z-2")
        #expect(try Self.names(store) == ["20270115T080000Z", "20270115T080000Z-1", "20270115T080000Z-2"])
        #expect([first, second, third].allSatisfy { ReportStore.isRunFolderName($0.lastPathComponent) })
    }

    @Test func runFolderNames() {
        #expect(ReportStore.isRunFolderName("20261129T190000Z"))
        #expect(ReportStore.isRunFolderName("20261129T190000Z-12"))
        for name in ["latest", "20261129T190000", "20261129T190000Z-", "20261129T190000Z-x", "2026112aT190000Z", "20261129X190000Z",
                     "20261129T190000Zz", "notes"] {
            #expect(!ReportStore.isRunFolderName(name), "\(name)")
        }
        #expect(ReportStore.isReportFile("report.json") && ReportStore.isReportFile("report.junit.xml"))
        #expect(ReportStore.isReportFile(".report.html.tmp-123"))
        #expect(!ReportStore.isReportFile("notes.txt") && !ReportStore.isReportFile("report.pdf"))
    }

    @Test func writesEveryFormatAndMovesLatestOnlyForACompleteReport() throws {
        let store = try Self.store()
        let output = ReportOutput(destination: .store(store), formats: ReportFormat.allCases)
        #expect(store.latestFolderName == nil && store.defaultBaselinePath == nil)
        let written = try output.write(Self.report())
        #expect(try FileManager.default.contentsOfDirectory(atPath: written.directory.path).sorted()
                == ["report.html", "report.json", "report.junit.xml", "report.md", "report.prom"])
        #expect(store.latestFolderName == written.directory.lastPathComponent)
        #expect(store.defaultBaselinePath == "\(store.root)/\(written.directory.lastPathComponent)/report.json")
        // The JSON written is the report.
        let data = try Data(contentsOf: written.directory.appendingPathComponent("report.json"))
        #expect(try JSONReporter.decode(data) == Self.report())

        let interrupted = try output.write(Self.report(complete: false))
        #expect(interrupted.directory != written.directory)
        #expect(store.latestFolderName == written.directory.lastPathComponent, "an interrupted run never becomes latest")
    }

    @Test func latestIsARelativeLinkAndTheDefaultBaselineNeedsJSON() throws {
        let store = try Self.store()
        let written = try ReportOutput(destination: .store(store), formats: [.html]).write(Self.report())
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: "\(store.root)/latest")
        #expect(link == written.directory.lastPathComponent, "relative, so the folder can be moved whole")
        #expect(store.defaultBaselinePath == nil, "a run without report.json leaves nothing to compare with")
        #expect(!FileManager.default.fileExists(atPath: "\(store.root)/.latest.tmp-\(getpid())"))
    }

    @Test func outFolderIsCreatedAndNeitherLatestNorPruned() throws {
        let root = try AuditBinary.temporaryDirectory()
        let out = root.appendingPathComponent("a/b").path
        let written = try ReportOutput(destination: .folder(out), formats: [.json, .md], keep: 1).write(Self.report())
        #expect(written.directory.path == out)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == ["report.json", "report.md"])
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("reports").path))
    }

    @Test func junitFollowsTheExitPolicy() throws {
        let finding = Finding(id: "status.not-200", severity: .warning, message: "a warning")
        var report = Self.report([.warn])
        report.domains[0].findings = [finding]
        let root = try AuditBinary.temporaryDirectory()
        let lenient = try ReportOutput(destination: .folder(root.appendingPathComponent("l").path), formats: [.junit]).write(report)
        let strict = try ReportOutput(destination: .folder(root.appendingPathComponent("s").path), formats: [.junit],
                                      policy: ExitPolicy(strict: true)).write(report)
        let lenientXML = try String(contentsOf: lenient.directory.appendingPathComponent("report.junit.xml"), encoding: .utf8)
        let strictXML = try String(contentsOf: strict.directory.appendingPathComponent("report.junit.xml"), encoding: .utf8)
        #expect(!lenientXML.contains("<failure"))
        #expect(strictXML.contains("<failure"))
    }

    // MARK: --keep

    /// Makes run folders by name, each with a report.json.
    static func makeRuns(_ names: [String], in store: ReportStore) throws {
        for name in names {
            let folder = URL(fileURLWithPath: store.root).appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("{}".utf8).write(to: folder.appendingPathComponent("report.json"))
        }
    }

    @Test func keepRemovesTheOldestAndCountsTheCurrent() throws {
        let store = try Self.store()
        try Self.makeRuns(["20260101T000000Z", "20260102T000000Z", "20260102T000000Z-1", "20260102T000000Z-2", "20260103T000000Z"], in: store)
        let current = URL(fileURLWithPath: store.root).appendingPathComponent("20260103T000000Z")
        let result = store.prune(keep: 2, current: current)
        #expect(result.notes.isEmpty)
        #expect(Set(result.removed) == ["\(store.root)/20260101T000000Z", "\(store.root)/20260102T000000Z", "\(store.root)/20260102T000000Z-1"])
        #expect(try Self.names(store) == ["20260102T000000Z-2", "20260103T000000Z"], "-2 is newer than -1 within one second")
    }

    @Test func keepNeverDeletesWhatLatestPointsTo() throws {
        let store = try Self.store()
        try Self.makeRuns(["20260101T000000Z", "20260102T000000Z", "20260103T000000Z", "20260104T000000Z"], in: store)
        let root = URL(fileURLWithPath: store.root)
        try store.markLatest(root.appendingPathComponent("20260101T000000Z"))
        // An interrupted run is current but not latest: both are kept even with --keep 1.
        let result = store.prune(keep: 1, current: root.appendingPathComponent("20260104T000000Z"))
        #expect(try Self.names(store) == ["20260101T000000Z", "20260104T000000Z", "latest"])
        #expect(result.removed.count == 2)
        #expect(store.latestFolderName == "20260101T000000Z")
    }

    @Test func keepLeavesWhatThisToolDidNotWrite() throws {
        let store = try Self.store()
        try Self.makeRuns(["20260101T000000Z", "20260102T000000Z", "20260103T000000Z", "20260104T000000Z"], in: store)
        let root = URL(fileURLWithPath: store.root)
        let manager = FileManager.default
        try Data("mine".utf8).write(to: root.appendingPathComponent("20260101T000000Z/notes.txt"))
        try manager.removeItem(at: root.appendingPathComponent("20260102T000000Z/report.json"))
        try manager.createDirectory(at: root.appendingPathComponent("20260102T000000Z/report.json"), withIntermediateDirectories: true)
        // Not run folders: a link named like one, a file named like one, a folder of another name.
        try manager.createSymbolicLink(atPath: root.appendingPathComponent("20250101T000000Z").path, withDestinationPath: "20260103T000000Z")
        try Data().write(to: root.appendingPathComponent("20250102T000000Z"))
        try manager.createDirectory(at: root.appendingPathComponent("old"), withIntermediateDirectories: true)
        let result = store.prune(keep: 1, current: root.appendingPathComponent("20260104T000000Z"))
        #expect(result.removed == ["\(store.root)/20260103T000000Z"])
        #expect(result.notes.map(\.description).sorted() == [
            "--keep: left \(store.root)/20260101T000000Z in place: it holds notes.txt, which this tool did not write",
            "--keep: left \(store.root)/20260102T000000Z in place: it holds report.json, which this tool did not write",
        ])
        #expect(try Self.names(store) == ["20250101T000000Z", "20250102T000000Z", "20260101T000000Z", "20260102T000000Z", "20260104T000000Z", "old"])
    }

    @Test func keepInAMissingRootDoesNothing() throws {
        let store = try Self.store()
        let result = store.prune(keep: 1, current: URL(fileURLWithPath: store.root).appendingPathComponent("20260101T000000Z"))
        #expect(result.removed.isEmpty && result.notes.isEmpty)
    }
}
