import Audit
import Fetching
import Foundation
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
        let shards = try (1...3).map { try AuditBinary.run(common + ["--shard", "\($0)/3", "--out", "shard\($0)"], in: folder) }
        let merge = try AuditBinary.run(["merge", "shard3/report.json", "shard1/report.json", "shard2/report.json", "--out", "merged"], in: folder)
        return Runs(folder: folder, whole: whole, shards: shards, merge: merge)
    }

    static func report(_ name: String) throws -> AuditReport {
        try AuditBinary.readReport(at: try runs.get().folder.appendingPathComponent("\(name)/report.json"))
    }

    /// What may differ between two runs of the same list: timings, the start, curl's "after N ms".
    static func normalised(_ report: AuditReport) throws -> String {
        var report = report
        report.generatedAt = Date(timeIntervalSince1970: 0)
        report.domains.sort { $0.domain < $1.domain }
        for domain in report.domains.indices {
            for location in report.domains[domain].locations.indices {
                report.domains[domain].locations[location].timings = Timings()
            }
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
            (["shard1/report.json", "other.json"], "other.json: not an aasa-audit report.json"),
            (["--format", "pdf", "shard1/report.json"], "\"pdf\" is not a format"),
            (["--bogus"], "unknown option --bogus"),
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
        let outcome = try AuditBinary.run(["merge", "shard1/report.json", "shard3/report.json", "--out", "partial", "--format", "json"], in: runs.folder)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("shard 2/3 not given"))
        let partial = try Self.report("partial")
        #expect(!partial.complete)
        #expect(!FileManager.default.fileExists(atPath: runs.folder.appendingPathComponent("partial/report.html").path))
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
