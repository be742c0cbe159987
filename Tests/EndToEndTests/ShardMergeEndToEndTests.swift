import Audit
import Foundation
import Reporting
import Testing
import TestSupport

/// `--shard K/N` over a real list against the real nginx, then `aasa-audit merge`: the merged report
/// is the report of one unsharded run (apart from timings and the run's start).
@Suite struct ShardMergeEndToEndTests {
    static let hosts = ["good.test", "wellknown-only.test", "root-only.test", "differ.test", "wrong-type.test",
                        "notfound.test", "error500.test", "html.test", "invalid-json.test", "redirect.test",
                        "refused.test", "stale.test"]
    static let list = "# scenarios\n" + hosts.joined(separator: "\n") + "\nnot a domain\n"

    struct Runs: Sendable {
        var folder: URL
        var whole: ShellCommand.Outcome
        var shards: [ShellCommand.Outcome]
        var merge: ShellCommand.Outcome
    }

    static let runs: Result<Runs, Error> = Result {
        let sites = try LocalSites.shared.get()
        let folder = try AuditBinary.temporaryDirectory()
        try list.write(to: folder.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        let common = ["--cacert", sites.certificateAuthority.certificatePath, "--timeout", "3"]
            + sites.connectToArguments + sites.appleCDNArguments
        let whole = try AuditBinary.run(common + ["--out", "whole"], in: folder)
        let shards = try (1...3).map { try AuditBinary.run(common + ["--shard", "\($0)/3", "--out", "shard\($0)", "--format", "json,html,prom"], in: folder) }
        let merge = try AuditBinary.run(["merge", "shard3/report.json", "shard1/report.json", "shard2/report.json", "--out", "merged"], in: folder)
        return Runs(folder: folder, whole: whole, shards: shards, merge: merge)
    }

    static func report(_ name: String) throws -> AuditReport {
        try AuditBinary.readReport(at: try runs.get().folder.appendingPathComponent("\(name)/report.json"))
    }

    /// What may differ between two runs of the same list: timings, the start, curl's "after N ms",
    /// and a certificate's whole days left, counted from each run's start (the test certificates are
    /// made seconds before, so 90 days left becomes 89 when the runs straddle a second). `notAfter`,
    /// which days left come from, is still compared.
    static func normalised(_ report: AuditReport) throws -> String {
        var report = report
        report.generatedAt = Date(timeIntervalSince1970: 0)
        report.domains.sort { $0.domain < $1.domain }
        for domain in report.domains.indices {
            for location in report.domains[domain].locations.indices {
                report.domains[domain].locations[location].timings = TransferTimings()
                report.domains[domain].locations[location].tls?.certificate?.daysLeft = nil
            }
            report.domains[domain].certificate?.daysLeft = nil
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = String(decoding: try encoder.encode(report), as: UTF8.self)
        return text.replacingOccurrences(of: #"after [0-9]+ ms"#, with: "after N ms", options: .regularExpression)
    }

    @Test func shardsPartitionTheListAndRecordTheirShard() throws {
        let runs = try Self.runs.get()
        var seen: [String] = []
        for index in 1...3 {
            #expect(runs.shards[index - 1].status == 2, "the bad line is an input error in every shard: \(runs.shards[index - 1].stderr)")
            let shard = try Self.report("shard\(index)")
            #expect(shard.shard == Shard(index: index, count: 3))
            #expect(shard.inputErrors.map(\.line) == [Self.hosts.count + 2])
            #expect(shard.domains.allSatisfy { Shard.shardIndex(of: $0.domain, count: 3) == index })
            #expect(runs.shards[index - 1].stderr.contains("shard \(index)/3: \(shard.domains.count) of the list's \(Self.hosts.count) domains"))
            seen += shard.domains.map(\.domain)
        }
        #expect(seen.sorted() == Self.hosts.sorted(), "every domain in exactly one shard")
        let json = try String(contentsOf: runs.folder.appendingPathComponent("shard2/report.json"), encoding: .utf8)
        #expect(json.contains("\"shard\" : {\n    \"count\" : 3,\n    \"index\" : 2\n  }"))
        #expect(try Self.report("whole").shard == nil)
    }

    @Test func mergedReportIsTheUnshardedReport() throws {
        let runs = try Self.runs.get()
        #expect(runs.merge.status == runs.whole.status, "\(runs.merge.stderr)")
        #expect(runs.merge.status == 2, "the list's bad line is kept as an input error")
        let merged = try Self.report("merged")
        let whole = try Self.report("whole")
        #expect(merged.domains.map(\.domain) == Self.hosts.sorted(), "sorted by name")
        #expect(merged.complete && merged.shard == nil)
        #expect(merged.summary == whole.summary)
        #expect(merged.inputErrors == whole.inputErrors)
        #expect(try Self.normalised(merged) == Self.normalised(whole))
        let html = try String(contentsOf: runs.folder.appendingPathComponent("merged/report.html"), encoding: .utf8)
        #expect(html.contains("refused.test") && html.hasSuffix("</html>\n"))
        #expect(runs.merge.stdout.contains("\(Self.hosts.count) domains"))
    }

    @Test func mergeRefusesReportsThatDoNotFit() throws {
        let runs = try Self.runs.get()
        try "{\"hello\": 1}".write(to: runs.folder.appendingPathComponent("other.json"), atomically: true, encoding: .utf8)
        let cases: [([String], String)] = [
            (["shard1/report.json", "shard1/report.json"], "shard1/report.json: shard 1/3 is also in shard1/report.json"),
            (["shard1/report.json", "whole/report.json"], "whole/report.json: not a shard report"),
            (["shard1/report.json", "missing.json"], "missing.json: no such file"),
            (["shard1", "shard2/report.json"], "shard1: it is a folder; name its report.json"),
            (["shard1/report.json", "other.json"], "other.json: not an aasa-audit report.json"),
            (["--format", "pdf", "shard1/report.json"], "\"pdf\" is not a format"),
            (["--bogus"], "unknown option '--bogus'"),
            ([], "name the report.json of each shard"),
        ]
        for (arguments, text) in cases {
            let out = "refused-\(UUID().uuidString)"
            let outcome = try AuditBinary.run(["merge"] + arguments + ["--out", out], in: runs.folder)
            #expect(outcome.status == 2, "\(arguments)")
            #expect(outcome.stderr.contains(text), "\(arguments): \(outcome.stderr)")
            #expect(!FileManager.default.fileExists(atPath: runs.folder.appendingPathComponent(out).path), "nothing written")
        }
    }

    @Test func aMissingShardIsSaidAndTheReportMarkedIncomplete() throws {
        let runs = try Self.runs.get()
        let outcome = try AuditBinary.run(["merge", "shard1/report.json", "shard3/report.json", "--out", "partial", "--format", "json,prom"], in: runs.folder)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("shard 2/3 not given"))
        let partial = try Self.report("partial")
        #expect(!partial.complete)
        #expect(!FileManager.default.fileExists(atPath: runs.folder.appendingPathComponent("partial/report.html").path))
        // The metrics say what the exit status says (readReport checked them with promtool).
        let metrics = try String(contentsOf: runs.folder.appendingPathComponent("partial/report.prom"), encoding: .utf8)
        #expect(metrics.contains("\naasa_audit_run_exit_status 2\n") && metrics.contains("\naasa_audit_run_complete 0\n"), "\(metrics)")
    }

    /// Copies of the three shard reports without the list's bad line (so the exit status says what
    /// the merge decided), changed by `edit`, as s1.json ... s3.json in a fresh folder.
    static func editedShards(_ edit: (Int, inout AuditReport) -> Void = { _, _ in }) throws -> URL {
        let folder = try AuditBinary.temporaryDirectory()
        for index in 1...3 {
            var report = try Self.report("shard\(index)")
            report.inputErrors = []
            edit(index, &report)
            try JSONReporter.render(report).write(to: folder.appendingPathComponent("s\(index).json"))
        }
        return folder
    }

    static let shardFiles = ["s1.json", "s2.json", "s3.json"]

    @Test func anInterruptedShardMakesTheMergeExit2AndNamesIt() throws {
        let complete = try Self.editedShards()
        let control = try AuditBinary.run(["merge"] + Self.shardFiles + ["--out", "merged", "--format", "json,md,junit"], in: complete)
        #expect(control.status == 1, "complete shards, some domains fail: \(control.stderr)")
        for name in ["report.json", "report.md", "report.junit.xml"] {
            #expect(FileManager.default.fileExists(atPath: complete.appendingPathComponent("merged/\(name)").path), "\(name)")
        }
        #expect(!FileManager.default.fileExists(atPath: complete.appendingPathComponent("merged/report.html").path))

        var unfinished: String?
        let folder = try Self.editedShards { index, report in
            guard index == 2, let last = report.domains.popLast() else { return }
            report.complete = false
            report.notAudited = [last.domain]
            unfinished = last.domain
        }
        let outcome = try AuditBinary.run(["merge"] + Self.shardFiles + ["--out", "merged", "--format", "json,md,prom"], in: folder)
        #expect(outcome.status == 2, "an incomplete merged report must not pass for the whole list: \(outcome.stderr)")
        #expect(outcome.stderr.contains("s2.json: this shard was interrupted"), "\(outcome.stderr)")
        let merged = try AuditBinary.readReport(at: folder.appendingPathComponent("merged/report.json"))
        #expect(!merged.complete)
        #expect(merged.notAudited == [try #require(unfinished)])
        #expect(merged.domains.count == Self.hosts.count - 1)
        let markdown = try String(contentsOf: folder.appendingPathComponent("merged/report.md"), encoding: .utf8)
        #expect(markdown.contains(try #require(unfinished)), "the Markdown report names the domain not audited")
    }

    @Test func strictMergeFailsOnWarningsLikeAStrictAudit() throws {
        let folder = try Self.editedShards { _, report in report.domains.removeAll { $0.verdict == .fail } }
        let merged = try AuditBinary.run(["merge"] + Self.shardFiles + ["--out", "lenient", "--format", "json"], in: folder)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(try AuditBinary.readReport(at: folder.appendingPathComponent("lenient/report.json")).summary.warn > 0)
        let strict = try AuditBinary.run(["merge", "--strict"] + Self.shardFiles + ["--out", "strict", "--format", "junit"], in: folder)
        #expect(strict.status == 1, "\(strict.stderr)")
        let junit = try String(contentsOf: folder.appendingPathComponent("strict/report.junit.xml"), encoding: .utf8)
        #expect(junit.contains("<failure"), "warnings are JUnit failures with --strict")
    }

    @Test func quietMergeSaysOnlyProblems() throws {
        let folder = try Self.editedShards()
        let quiet = try AuditBinary.run(["merge", "--quiet"] + Self.shardFiles + ["--out", "quiet", "--format", "json"], in: folder)
        #expect(quiet.status == 1)
        #expect(quiet.stdout.isEmpty && quiet.stderr.isEmpty, "a nightly cron merge mails whatever it prints: \(quiet.stdout)")
        let missing = try AuditBinary.run(["merge", "-q", "s1.json", "s3.json", "--out", "missing", "--format", "json"], in: folder)
        #expect(missing.status == 2 && missing.stdout.isEmpty)
        #expect(missing.stderr.contains("shard 2/3 not given"))
    }

    @Test func shardsOfOtherVersionsOrFarApartAreMergedWithAWarning() throws {
        let folder = try Self.editedShards { index, report in
            guard index == 3 else { return }
            report.tool.version = "0.0.1-old"
            report.generatedAt -= 86_400
        }
        let outcome = try AuditBinary.run(["merge"] + Self.shardFiles + ["--out", "merged", "--format", "json"], in: folder)
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("warning: s3.json was written by aasa-audit 0.0.1-old"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("the shards started 24 hours apart"), "\(outcome.stderr)")
        let same = try AuditBinary.run(["merge"] + Self.shardFiles + ["--out", "again", "--format", "json"], in: try Self.editedShards())
        #expect(!same.stderr.contains("warning"), "\(same.stderr)")
    }

    @Test func mergeComparesWithTheLastMergeLikeAnAudit() throws {
        let folder = try Self.editedShards()
        let first = try AuditBinary.run(["merge"] + Self.shardFiles + ["--format", "json"], in: folder)
        #expect(first.status == 1 && !first.stderr.contains("comparing with"), "\(first.stderr)")
        let second = try AuditBinary.run(["merge"] + Self.shardFiles + ["--format", "json"], in: folder)
        #expect(second.stderr.contains("comparing with reports/"), "\(second.stderr)")
        let latest = try AuditBinary.readReport(at: folder.appendingPathComponent("reports/latest/report.json"))
        let changes = try #require(latest.changes)
        #expect(changes.isEmpty, "the same shards merged twice: nothing changed")
        let none = try AuditBinary.run(["merge"] + Self.shardFiles + ["--no-baseline", "--baseline", "x.json"], in: folder)
        #expect(none.status == 2 && none.stderr.contains("--no-baseline contradicts it"))
    }

    @Test func aShardComparedWithTheWholeListsBaselineRemovesNoOtherShardsDomain() throws {
        let runs = try Self.runs.get()
        let sites = try LocalSites.shared.get()
        let outcome = try AuditBinary.run(["--cacert", sites.certificateAuthority.certificatePath, "--timeout", "3", "--no-cdn",
                                           "--shard", "2/3", "--baseline", "whole/report.json", "--out", "shard2-vs-whole", "--format", "json"]
                                          + sites.connectToArguments, in: runs.folder)
        let report = try Self.report("shard2-vs-whole")
        let changes = try #require(report.changes, "\(outcome.stderr)")
        #expect(changes.domainsRemoved.isEmpty, "the other shards' domains are not removed: \(changes.domainsRemoved)")
        #expect(changes.domainsAdded.isEmpty)
    }

    @Test func quietShardSaysNothingWhenNothingIsWrong() throws {
        let sites = try LocalSites.shared.get()
        let folder = try AuditBinary.temporaryDirectory()
        let common = ["--cacert", sites.certificateAuthority.certificatePath, "--no-cdn", "--format", "json"] + sites.connectToArguments
        let loud = try AuditBinary.run(common + ["--shard", "1/1", "--out", "loud", "good.test"], in: folder)
        #expect(loud.status == 0 && loud.stderr.contains("shard 1/1: 1 of the list's 1 domains"), "\(loud.stderr)")
        let quiet = try AuditBinary.run(common + ["--quiet", "--shard", "1/1", "--out", "quiet", "good.test"], in: folder)
        #expect(quiet.status == 0)
        #expect(quiet.stderr.isEmpty && quiet.stdout.isEmpty, "cron mails any output: \(quiet.stderr)")
    }

    @Test(arguments: [
        (["--shard", "0/3", "example.com"], "--shard \"0/3\": K counts from 1"),
        (["--shard", "4/3", "example.com"], "K must be at most N"),
        (["--shard", "1/0", "example.com"], "N must be at least 1"),
        (["--shard", "half", "example.com"], "expected K/N"),
        (["--shard"], "--shard needs a value"),
        (["--max-per-host", "-1", "example.com"], "--max-per-host \"-1\""),
        (["--max-per-host", "many", "example.com"], "expected a whole number"),
    ])
    func badShardAndMaxPerHostAreUsageErrors(arguments: [String], text: String) throws {
        let outcome = try AuditBinary.run(arguments)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains(text), "\(outcome.stderr)")
    }

    @Test func helpNamesTheNewOptionsAndMerge() throws {
        let help = try AuditBinary.run(["--help"])
        for text in ["--max-per-host", "--shard K/N", "aasa-audit merge"] { #expect(help.stdout.contains(text), "\(text)") }
        let mergeHelp = try AuditBinary.run(["merge", "--help"])
        #expect(mergeHelp.status == 0 && mergeHelp.stdout.contains("USAGE: aasa-audit merge"))
    }
}
