import Audit
import Foundation
import History
import Reporting
import Testing
import TestSupport
@testable import Run

/// `history import`: what is one run and what is two.
@Suite struct HistoryImportTests {
    /// A report started at `at` in which each domain has `verdict`.
    static func report(at: Date, _ verdict: Verdict) -> AuditReport {
        let domains = ["a.test", "b.test"].map {
            DomainResult(domain: $0, verdict: verdict, usedLocation: nil, findings: [], locations: [])
        }
        return AuditReport(tool: ToolInfo(name: "aasa-audit", version: "test"), generatedAt: at, domains: domains)
    }

    static func write(_ report: AuditReport, in folder: URL, _ name: String) throws -> String {
        let run = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: run, withIntermediateDirectories: true)
        try JSONReporter.render(report).write(to: run.appendingPathComponent("report.json"))
        return run.path
    }

    @Test func twoRunsStartedInTheSameSecondAreTwoAndTheSameReportNamedTwiceIsOne() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let at = Date(timeIntervalSince1970: 1_764_547_200)
        let first = try Self.write(Self.report(at: at, .pass), in: folder, "20251201T000000Z")
        let second = try Self.write(Self.report(at: at, .fail), in: folder, "20251201T000000Z-1")
        let latest = folder.appendingPathComponent("latest").path
        try FileManager.default.createSymbolicLink(atPath: latest, withDestinationPath: "20251201T000000Z-1")
        let store = try HistoryStore(path: folder.appendingPathComponent("history.sqlite").path)

        let once = try HistoryRun.importReports([first, second, latest], into: store, spoolFolder: folder)
        #expect(once.imported == 2)
        #expect(once.alreadyThere == 1)
        #expect(try store.overview().map(\.fail) == [0, 2])
        let again = try HistoryRun.importReports([first, second, latest], into: store, spoolFolder: folder)
        #expect(again.imported == 0)
        #expect(again.alreadyThere == 3)
        #expect(try store.overview().count == 2)
    }

    /// A stop (Ctrl-C) during an import: the reports recorded before it stay, the rest are counted, not read.
    @Test func aStopBetweenReportsKeepsThoseRecordedAndReadsNoMore() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let paths = try (0..<3).map { try Self.write(Self.report(at: Date(timeIntervalSince1970: 1_764_547_200 + 86_400 * Double($0)), .pass),
                                                      in: folder, "run\($0)") }
        let store = try HistoryStore(path: folder.appendingPathComponent("history.sqlite").path)
        var asked = 0
        let outcome = try HistoryRun.importReports(paths, into: store, spoolFolder: folder, stopped: { asked += 1; return asked > 1 })
        #expect(outcome.imported == 1 && outcome.notRead == 2 && outcome.problems.isEmpty, "\(outcome)")
        #expect(try store.overview().count == 1)
    }
}
