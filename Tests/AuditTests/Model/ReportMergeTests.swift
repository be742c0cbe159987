import Foundation
import Testing
@testable import Audit

@Suite struct ReportMergeTests {
    static let tool = ToolInfo(name: "aasa-audit", version: "0.1.0")

    static func domain(_ name: String, _ verdict: Verdict) -> DomainResult {
        DomainResult(domain: name, verdict: verdict, usedLocation: nil, findings: [], locations: [])
    }

    static func shard(_ index: Int, of count: Int, _ domains: [DomainResult], at seconds: Double = 1_800_000_000,
                      problems: [InputProblem] = [], complete: Bool = true) -> ReportMerge.Input {
        var report = AuditReport(tool: tool, generatedAt: Date(timeIntervalSince1970: seconds), complete: complete,
                                 inputErrors: problems, domains: domains)
        report.shard = Shard(index: index, count: count)
        return ReportMerge.Input(source: "shard\(index).json", report: report)
    }

    static let problem = InputProblem(file: "domains.txt", line: 4, text: "not a domain", reason: "contains a space")

    @Test func combinesDomainsSortedWithSummaryRecomputed() throws {
        let outcome = try ReportMerge.merge([
            Self.shard(2, of: 3, [Self.domain("c.example", .fail), Self.domain("a.example", .pass)], at: 1_800_000_100, problems: [Self.problem]),
            Self.shard(1, of: 3, [Self.domain("b.example", .warn)], at: 1_800_000_000, problems: [Self.problem]),
            Self.shard(3, of: 3, [], at: 1_800_000_050, problems: [Self.problem]),
        ])
        let report = outcome.report
        #expect(report.domains.map(\.domain) == ["a.example", "b.example", "c.example"])
        #expect(report.summary == Summary(domains: report.domains))
        #expect(report.summary.fail == 1 && report.summary.warn == 1 && report.summary.pass == 1)
        #expect(report.inputErrors == [Self.problem], "every shard reports the list's bad lines; kept once")
        #expect(report.generatedAt == Date(timeIntervalSince1970: 1_800_000_000), "the earliest shard's start")
        #expect(report.complete)
        #expect(report.shard == nil)
        #expect(report.schemaVersion == AuditReport.currentSchemaVersion)
        #expect(outcome.missingShards.isEmpty)
    }

    @Test func aMissingOrInterruptedShardMakesItIncomplete() throws {
        let missing = try ReportMerge.merge([Self.shard(1, of: 3, []), Self.shard(3, of: 3, [])])
        #expect(missing.missingShards == [2])
        #expect(!missing.report.complete)
        let interrupted = try ReportMerge.merge([Self.shard(1, of: 2, []), Self.shard(2, of: 2, [], complete: false)])
        #expect(interrupted.missingShards.isEmpty)
        #expect(!interrupted.report.complete)
    }

    @Test func interruptedShardsAreNamedAndOddInputsWarned() throws {
        let interrupted = try ReportMerge.merge([Self.shard(1, of: 2, []), Self.shard(2, of: 2, [], complete: false)])
        #expect(interrupted.interruptedSources == ["shard2.json"])
        #expect(interrupted.warnings.isEmpty)
        var old = Self.shard(2, of: 2, [], at: 1_800_000_000 - 13 * 3600)
        old.report.tool.version = "0.0.9"
        let odd = try ReportMerge.merge([Self.shard(1, of: 2, []), old])
        #expect(odd.interruptedSources.isEmpty)
        #expect(odd.warnings.count == 2)
        #expect(odd.warnings.first?.contains("shard2.json was written by aasa-audit 0.0.9, shard1.json by aasa-audit 0.1.0") == true)
        #expect(odd.warnings.last?.contains("13 hours apart (shard2.json at") == true)
        let close = try ReportMerge.merge([Self.shard(1, of: 2, []), Self.shard(2, of: 2, [], at: 1_800_000_000 + 11 * 3600)])
        #expect(close.warnings.isEmpty, "shards of one night may start hours apart")
    }

    @Test func anInterruptedShardsUnfinishedDomainsStayNamed() throws {
        var interrupted = Self.shard(2, of: 2, [Self.domain("b.example", .pass)], complete: false)
        interrupted.report.notAudited = ["z.example", "c.example"]
        let outcome = try ReportMerge.merge([Self.shard(1, of: 2, [Self.domain("a.example", .pass)]), interrupted])
        #expect(outcome.report.notAudited == ["c.example", "z.example"])
        let whole = try ReportMerge.merge([Self.shard(1, of: 2, []), Self.shard(2, of: 2, [])])
        #expect(whole.report.notAudited == nil)
    }

    @Test func errorsNameTheFile() throws {
        var unsharded = Self.shard(1, of: 2, [])
        unsharded.report.shard = nil
        unsharded.source = "whole.json"
        var otherVersion = Self.shard(2, of: 2, [])
        otherVersion.report.schemaVersion = 99
        let cases: [([ReportMerge.Input], ReportMergeError, String)] = [
            ([], .noReports, "no reports to merge"),
            ([unsharded], .notAShard(source: "whole.json"), "whole.json: not a shard report"),
            ([Self.shard(1, of: 2, []), unsharded], .notAShard(source: "whole.json"), "written without --shard"),
            ([Self.shard(1, of: 2, []), Self.shard(2, of: 3, [])],
             .shardCountDiffers(source: "shard2.json", shard: Shard(index: 2, count: 3)!, firstSource: "shard1.json", firstShard: Shard(index: 1, count: 2)!),
             "shard2.json: shard 2/3, but shard1.json is shard 1/2"),
            ([Self.shard(1, of: 2, []), Self.shard(1, of: 2, [])],
             .duplicateShard(source: "shard1.json", shard: Shard(index: 1, count: 2)!, otherSource: "shard1.json"), "shard 1/2 is also in"),
            ([Self.shard(1, of: 2, [Self.domain("a.example", .pass)]), Self.shard(2, of: 2, [Self.domain("a.example", .pass)])],
             .duplicateDomain(domain: "a.example", source: "shard2.json", otherSource: "shard1.json"), "shard2.json: a.example is also in shard1.json"),
            ([Self.shard(1, of: 2, []), otherVersion],
             .schemaVersionDiffers(source: "shard2.json", found: 99, expected: AuditReport.currentSchemaVersion, firstSource: "shard1.json"), "shard2.json: schema version 99"),
        ]
        for (inputs, expected, text) in cases {
            #expect {
                try ReportMerge.merge(inputs)
            } throws: { error in
                guard let error = error as? ReportMergeError else { return false }
                return error == expected && error.description.contains(text)
            }
        }
    }
}
