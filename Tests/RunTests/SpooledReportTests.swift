import Audit
import Fetching
import Foundation
import Reporting
import Testing
import TestSupport
@testable import Run

/// A real run's reports are the same bytes whether written from results held in memory or read
/// back one at a time from the spool; the spool never shows in the output folder.
@Suite struct SpooledReportTests {
    static func run(in folder: URL, spools: Bool, observer: AuditRunObserver = RecordingObserver(),
                    baseline: BaselineReport.Choice = .none) throws -> AuditOutcome {
        let sites = try LocalSites.shared.get()
        var fetch = FetchOptions(userAgent: "aasa-audit/test", caFile: sites.certificateAuthority.certificatePath,
                                 connectTo: sites.connectToEntries, connectTimeout: 5, totalTimeout: 10, concurrency: 8,
                                 appleCDNBase: Scenarios.appleCDNBase)
        fetch.assetLinks = .all
        var run = AuditRun(domains: .arguments(Scenarios.all.map(\.host)), fetch: fetch, audit: AuditSettings(), baseline: baseline,
                           output: ReportOutput(destination: .folder(folder.path), formats: ReportFormat.allCases),
                           tool: ToolInfo(name: "aasa-audit", version: "0.1.0"))
        run.spoolsResults = spools
        return run.run(observer: observer)
    }

    /// Every output that reads every domain, as bytes: the four report files, the console summary
    /// (with details), `--json`'s pieces joined, the domains `--quiet` names, the exit status.
    static func outputs(_ report: StreamedReport) throws -> [String: Data] {
        var outputs: [String: Data] = [:]
        for format in ReportFormat.allCases {
            var data = Data()
            try format.render(report, policy: ExitPolicy(), to: { data.append($0) })
            outputs[format.fileName] = data
        }
        var strict = Data()
        try ReportFormat.junit.render(report, policy: ExitPolicy(strict: true), to: { strict.append($0) })
        outputs["junit --strict"] = strict
        var console = ""
        try ConsoleSummary.render(report, colour: true, width: 80, details: true) { console += $0 }
        outputs["console"] = Data(console.utf8)
        let failing = ExitPolicy().failingPositions(in: report).map { report.domains.digests[$0].domain }
        outputs["failing"] = Data(failing.joined(separator: "\n").utf8)
        outputs["status"] = Data("\(ExitPolicy(strict: true).status(for: report))".utf8)
        return outputs
    }

    @Test func reportsFromTheSpoolAreTheReportsFromMemory() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let outcome = try Self.run(in: folder.appendingPathComponent("memory"), spools: false)
        let memory = try #require(outcome.streamed)
        #expect(memory.domains is InMemoryDomains, "the comparison's first half holds the results in memory")
        let listed = DomainList.parse(arguments: Scenarios.all.map(\.host)).entries.count
        #expect(memory.domains.count == listed && listed > 30)
        let whole = try memory.whole()
        // The same results through a spool, which also renders each domain's HTML section as it
        // stores it (the page then copies the sections).
        let spool = try ResultSpool(in: folder.appendingPathComponent("spool"), count: whole.domains.count, generatedAt: whole.generatedAt,
                                    htmlSections: .full)
        for (index, domain) in whole.domains.enumerated().reversed() { spool.append(domain, at: index) }
        let results = try spool.seal().results
        #expect(try results.digests.indices.allSatisfy { try results.storedHTMLSection(at: $0) != nil }, "every section is stored")
        let spooled = StreamedReport(shell: memory.report, domains: results)
        #expect(try spooled.whole() == whole, "every result comes back equal")
        #expect(spooled.report.summary == whole.summary)
        let fromMemory = try Self.outputs(memory), fromSpool = try Self.outputs(spooled)
        for (name, data) in fromMemory {
            #expect(fromSpool[name] == data, "\(name) differs")
        }
        // What the run wrote is the same again (the reports of the in-memory run).
        for format in ReportFormat.allCases {
            var written = try Data(contentsOf: folder.appendingPathComponent("memory").appendingPathComponent(format.fileName))
            if format == .prom {
                // The run's metrics also say how long it took, which a report rendered later cannot.
                let lines = String(decoding: written, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
                written = Data(lines.filter { !$0.contains("aasa_audit_run_duration_seconds") }.joined(separator: "\n").utf8)
            }
            #expect(written == fromSpool[format.fileName], "\(format.fileName) as written")
        }
        // Changes against a baseline: compared one domain at a time, the same as whole.
        var baseline = whole
        baseline.domains = Array(whole.domains.dropFirst(2).reversed())
        let changes = ReportChanges.between(baseline: baseline, current: whole, baselinePath: "b", expiryWarningDays: 30)
        #expect(try ReportChanges.between(baseline: baseline, current: spooled, baselinePath: "b", expiryWarningDays: 30) == changes)
        #expect(!changes.isEmpty)
    }

    /// Watches the output folder while the report is being made: the spool is open then, and the
    /// folder shows nothing.
    final class FolderWatcher: AuditRunObserver, @unchecked Sendable {
        let folder: URL
        var seen: [String]?
        var spooled = false
        init(folder: URL) { self.folder = folder }
        func event(_ event: RunEvent) {}
        func progress(done: Int, of total: Int) {}
        func fetching(total: Int?) {}
        func reportMade(_ report: AuditReport) throws {}
        func reportMade(streamed report: StreamedReport) throws {
            spooled = report.domains is SpooledResults
            seen = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        }
        func reportsWritten(in directory: URL) {}
    }

    @Test func theSpoolNeverShowsInTheOutputFolderAndIsGoneAfterTheRun() throws {
        let folder = try AuditBinary.temporaryDirectory().appendingPathComponent("out")
        let watcher = FolderWatcher(folder: folder)
        let outcome = try Self.run(in: folder, spools: true, observer: watcher)
        #expect(watcher.spooled, "the run's results were spooled")
        #expect(watcher.seen == [], "the folder is empty while the spool holds every result")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ReportFormat.allCases.map(\.fileName).sorted())
        #expect(outcome.report?.domains.count == DomainList.parse(arguments: Scenarios.all.map(\.host)).entries.count)
    }
}
