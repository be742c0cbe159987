import Audit
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Reporting
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Files the tool reads besides the domain list: a `--baseline` report, the shard reports given to
/// `merge`, and the folders `--keep` prunes. Each may be anything: a FIFO, a device, a huge file, a
/// crafted report whose every string is hostile, a folder that only looks like a run of the tool.
@Suite struct HostileReportFilesTests {
    /// Runs the binary under timeout(1), so that a hang fails the test instead of stopping the suite.
    static func run(_ arguments: [String], in folder: URL) throws -> ShellCommand.Outcome {
        try ShellCommand.run("/usr/bin/timeout", ["-s", "KILL", "60", try AuditBinary.path()] + arguments, directory: folder, checked: false)
    }

    /// A folder with a FIFO, a link to /dev/zero, a sparse file beyond the report limit and a folder.
    static func oddFiles() throws -> URL {
        let folder = try AuditBinary.temporaryDirectory()
        #expect(mkfifo(folder.appendingPathComponent("fifo.json").path, 0o644) == 0)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("zero.json").path, withDestinationPath: "/dev/zero")
        let huge = folder.appendingPathComponent("huge.json")
        #expect(FileManager.default.createFile(atPath: huge.path, contents: Data("{".utf8)))
        #expect(truncate(huge.path, 600 << 20) == 0, "a sparse file: no disk used")
        let endless = folder.appendingPathComponent("endless.json")
        #expect(FileManager.default.createFile(atPath: endless.path, contents: Data("{".utf8)))
        #expect(truncate(endless.path, (1 << 36) + 1) == 0, "a sparse file past the limit of a report read one domain at a time")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("folder.json"), withIntermediateDirectories: true)
        return folder
    }

    static let oddCases = [
        ("fifo.json", "it is not a regular file"), ("zero.json", "it is not a regular file"), ("/dev/zero", "it is not a regular file"),
        // Past the 512 MB a report read whole may have, but a baseline or a shard is read one domain at a
        // time: the first NUL byte of the sparse file settles it.
        ("huge.json", "not an aasa-audit report.json (not valid JSON)"),
        ("endless.json", "it is 68719476737 bytes, more than the 65536 MB a report may have"),
        ("folder.json", "it is a folder"), ("missing.json", "no such file"),
    ]

    /// No domain to fetch (one bad argument), so only the baseline is read: at once, with a warning.
    @Test func aBaselineThatIsNotAReportFileIsRefusedAtOnce() throws {
        let folder = try Self.oddFiles()
        for (file, reason) in Self.oddCases {
            let outcome = try Self.run(["--out", "out", "--baseline", file, "not a domain"], in: folder)
            #expect(outcome.status == 2, "\(file): \(outcome.status) \(outcome.stderr)")
            #expect(outcome.seconds < 30, "\(file)")
            #expect(outcome.stderr.contains("warning: cannot use the baseline \(file): \(reason)") || outcome.stderr.contains("warning: cannot use the baseline \(file): it is \(reason)"), "\(file): \(outcome.stderr)")
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/report.json").path))
        }
    }

    @Test func mergeRefusesAShardThatIsNotAReportFileAtOnce() throws {
        let folder = try Self.oddFiles()
        for (file, reason) in Self.oddCases {
            let outcome = try Self.run(["merge", file, "--out", "merged"], in: folder)
            #expect(outcome.status == 2, "\(file): \(outcome.status) \(outcome.stderr)")
            #expect(outcome.seconds < 30, "\(file)")
            #expect(outcome.stderr.contains("\(file): \(reason)"), "\(file): \(outcome.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("merged").path), "nothing written")
        }
    }

    /// Shard files whose every string is hostile: the merged reports hold it all as inert text.
    @Test func mergedHostileShardsStayInertInEveryFormat() throws {
        let folder = try AuditBinary.temporaryDirectory()
        try HostileReport.json(HostileReport.report(shard: Shard(index: 1, count: 2), first: 1)).write(to: folder.appendingPathComponent("a.json"))
        try HostileReport.json(HostileReport.report(shard: Shard(index: 2, count: 2), first: 10)).write(to: folder.appendingPathComponent("b.json"))
        let outcome = try Self.run(["merge", "a.json", "b.json", "--format", "json,html,md,junit,prom", "--out", "merged"], in: folder)
        #expect(outcome.status == 2, "input errors: \(outcome.stderr)")
        let out = folder.appendingPathComponent("merged")
        // Hostile domain names and a hostile tool version stay inside their label values: promtool
        // reads the file, and every sample line is one of the tool's metrics.
        try PublishedFormatChecks.checkMetrics(at: out.appendingPathComponent("report.prom"))
        try PublishedFormatChecks.validateReport(at: out.appendingPathComponent("report.json"))
        let metrics = try String(contentsOf: out.appendingPathComponent("report.prom"), encoding: .utf8)
        #expect(metrics.split(separator: "\n").allSatisfy { $0.hasPrefix("# HELP aasa_audit_") || $0.hasPrefix("# TYPE aasa_audit_") || $0.hasPrefix("aasa_audit_") })
        for (name, text) in [("stdout", outcome.stdout), ("stderr", outcome.stderr)] {
            let bad = text.unicodeScalars.filter { ($0.value < 0x20 && $0.value != 0x0A) || (0x7F..<0xA0).contains($0.value) }
            #expect(bad.isEmpty, "\(name) carries \(bad.map { String($0.value, radix: 16) })")
        }
        #expect(outcome.stdout.contains("[y](javascript:alert(1))"), "ids are shown, as text")
        let markdown = try String(contentsOf: out.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(MarkdownInspector.activeMarkup(in: markdown).isEmpty, "\(MarkdownInspector.activeMarkup(in: markdown).prefix(3))")
        #expect(!markdown.split(separator: "\n").contains { $0.hasPrefix("# INJECTED") || $0.hasPrefix("| INJECTED") })
        let rendered = try MarkdownInspector.renderGitHubFlavoured(markdown)
        #expect(MarkdownInspector.links(inHTML: rendered).isEmpty, "\(MarkdownInspector.links(inHTML: rendered).prefix(3))")
        let junit = try XMLDocument(contentsOf: out.appendingPathComponent("report.junit.xml"), options: [])
        #expect(junit.rootElement()?.elements(forName: "testsuite").count == 6, "the domain list, four domains, and the domains not audited")
        let html = out.appendingPathComponent("report.html")
        let dom = try HeadlessBrowser.renderedDOM(of: html)
        // First that the page rendered with the payload as text, then that nothing became markup.
        #expect(dom.contains("document.title='pwned'"), "the merged page does not show the payload as text")
        #expect(!dom.contains("<pwned") && !dom.contains("pwned</title>") && !dom.contains("<img src=\"x\""))
        #expect(!dom.contains("href=\"javascript:"))
        #expect(try HeadlessBrowser.visibleText(of: html).contains("document.title='pwned'"))
    }

    /// A crafted shard count (0, or absurdly large) is refused or summarised, never a crash or a hang.
    @Test func mergeOfAnAbsurdShardCount() throws {
        let folder = try AuditBinary.temporaryDirectory()
        var zero = String(decoding: try HostileReport.json(HostileReport.report(shard: Shard(index: 1, count: 1))), as: UTF8.self)
        zero = zero.replacingOccurrences(of: "\"count\":1", with: "\"count\":0")
        try zero.write(to: folder.appendingPathComponent("zero.json"), atomically: true, encoding: .utf8)
        let refused = try Self.run(["merge", "zero.json", "--out", "z"], in: folder)
        #expect(refused.status == 2 && refused.stderr.contains("zero.json: not an aasa-audit report.json"), "\(refused.status) \(refused.stderr)")
        // N past what a report may count (`ReportRange.count`) is refused with the reason.
        try HostileReport.json(HostileReport.report(shard: Shard(index: 2, count: Int.max))).write(to: folder.appendingPathComponent("max.json"))
        let beyond = try Self.run(["merge", "max.json", "--out", "m"], in: folder)
        #expect(beyond.status == 2 && beyond.stderr.contains("shard is 2/\(Int.max), outside K/N with 1 ≤ K ≤ N ≤ 2147483647"),
                "\(beyond.status) \(beyond.stderr)")
        // The largest N a report may hold: the missing shards are summarised, never walked.
        let largest = Int(Int32.max)
        try HostileReport.json(HostileReport.report(shard: Shard(index: 2, count: largest))).write(to: folder.appendingPathComponent("largest.json"))
        let huge = try Self.run(["merge", "largest.json", "--out", "m"], in: folder)
        #expect(huge.status == 2, "\(huge.status) \(huge.stderr)")
        #expect(huge.stderr.contains("shards 1/\(largest), 3/\(largest)") && huge.stderr.contains(" more not given"), "\(huge.stderr)")
    }

    /// --keep deletes only real run folders of report files: never what a folder or a link named
    /// like a report file holds, never anything outside reports/.
    @Test func keepNeverDeletesWhatItDidNotWrite() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let manager = FileManager.default
        let reports = folder.appendingPathComponent("reports"), outside = folder.appendingPathComponent("outside")
        try manager.createDirectory(at: outside.appendingPathComponent("20200105T000000Z"), withIntermediateDirectories: true)
        try "precious".write(to: outside.appendingPathComponent("20200105T000000Z/report.json"), atomically: true, encoding: .utf8)
        try "precious".write(to: outside.appendingPathComponent("secret.txt"), atomically: true, encoding: .utf8)
        func make(_ name: String) throws -> URL {
            let url = reports.appendingPathComponent(name)
            try manager.createDirectory(at: url, withIntermediateDirectories: true)
            return url
        }
        // A folder named report.json holding someone's file.
        try "precious".write(to: try make("20200101T000000Z/report.json").appendingPathComponent("keep-me.txt"), atomically: true, encoding: .utf8)
        // A link named report.html to a file outside.
        try manager.createSymbolicLink(atPath: try make("20200102T000000Z").appendingPathComponent("report.html").path,
                                       withDestinationPath: outside.appendingPathComponent("secret.txt").path)
        // A run folder that is a link to a folder outside.
        try manager.createSymbolicLink(atPath: reports.appendingPathComponent("20200103T000000Z").path,
                                       withDestinationPath: outside.appendingPathComponent("20200105T000000Z").path)
        // latest points outside, through "..".
        try manager.createSymbolicLink(atPath: reports.appendingPathComponent("latest").path, withDestinationPath: "../outside/20200105T000000Z")
        // A real old run: the only thing to delete.
        try "{}".write(to: try make("20200104T000000Z").appendingPathComponent("report.json"), atomically: true, encoding: .utf8)
        let outcome = try Self.run(["--keep", "1", "--no-baseline", "not a domain"], in: folder)
        #expect(outcome.status == 2, "\(outcome.stderr)")
        let left = try manager.contentsOfDirectory(atPath: reports.path)
        #expect(!left.contains("20200104T000000Z"), "the old run is pruned: \(left)")
        #expect(manager.fileExists(atPath: reports.appendingPathComponent("20200101T000000Z/report.json/keep-me.txt").path))
        #expect(outcome.stderr.contains("--keep: left reports/20200101T000000Z in place: it holds report.json"), "\(outcome.stderr)")
        #expect(manager.fileExists(atPath: reports.appendingPathComponent("20200102T000000Z/report.html").path))
        #expect((try? manager.destinationOfSymbolicLink(atPath: reports.appendingPathComponent("20200103T000000Z").path)) != nil)
        #expect(try String(contentsOf: outside.appendingPathComponent("secret.txt"), encoding: .utf8) == "precious")
        #expect(try String(contentsOf: outside.appendingPathComponent("20200105T000000Z/report.json"), encoding: .utf8) == "precious")
    }

    /// Ctrl-C while `merge` writes: the reports are finished first (no temporary file, no format
    /// missing), and the exit status says it was interrupted.
    @Test func sigintWhileMergeWritesLeavesWholeReports() throws {
        let folder = try AuditBinary.temporaryDirectory()
        for index in 1...2 {
            var report = AuditReport(tool: ToolInfo(name: "aasa-audit", version: "0"), generatedAt: Date(timeIntervalSince1970: 1_800_000_000),
                                     domains: (0..<1_500).map { HostileReport.result(index * 10_000 + $0) })
            report.shard = Shard(index: index, count: 2)
            try HostileReport.json(report).write(to: folder.appendingPathComponent("\(index).json"))
        }
        let merged = folder.appendingPathComponent("merged")
        let merge = try RunningAudit(["merge", "1.json", "2.json", "--format", "json,html,md,junit", "--out", "merged"], in: folder)
        // The folder is made when the merge takes its lock, before the shards' domains are read; the
        // first staged report in it says the writing has begun.
        // No deadline that sends the signal anyway: under a loaded suite the reading alone can take
        // minutes, and a SIGINT before the writing tests something else (CI failed that way).
        let deadline = Date().addingTimeInterval(600)
        var seen: [String] = []
        func writingBegan() -> Bool {
            seen = (try? FileManager.default.contentsOfDirectory(atPath: merged.path)) ?? []
            // A staged report (`.report.json.tmp-…`), not the writable probe of the finish.
            return seen.contains { ($0.hasPrefix(".report.") || $0.hasPrefix("report.")) && !$0.contains("spool") }
        }
        while !writingBegan() && Date() < deadline && merge.isRunning { usleep(1_000) }
        try #require(writingBegan(), "the merge never began writing its reports")
        try merge.send(SIGINT)
        usleep(20_000)
        try? merge.send(SIGINT)
        // A guard against a hang only: writing 3,000 domains in four formats takes 11 s alone on the
        // 2 shared cores, and over 60 s inside the full suite (load above 10).
        let result = merge.wait(limit: 300)
        #expect(result.outcome.status == 130, "\(result.outcome.stderr)")
        #expect(result.outcome.stderr.contains("stopped by SIGINT"), "\(result.outcome.stderr)")
        let names = try #require(try? FileManager.default.contentsOfDirectory(atPath: merged.path).sorted(),
                                 "no \(merged.path) after SIGINT when it held \(seen): \(result.outcome.stderr)")
        #expect(names == ["report.html", "report.json", "report.junit.xml", "report.md"], "\(names)")
        let report = try JSONReporter.decode(try Data(contentsOf: merged.appendingPathComponent("report.json")))
        #expect(report.domains.count == 3_000)
        #expect(try String(contentsOf: merged.appendingPathComponent("report.html"), encoding: .utf8).hasSuffix("</html>\n"))
        #expect(throws: Never.self) { try XMLDocument(contentsOf: merged.appendingPathComponent("report.junit.xml"), options: []) }
    }
}
