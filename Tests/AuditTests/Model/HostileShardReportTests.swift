import Foundation
import Testing
@testable import Audit

/// Shard reports are files `merge` reads: any of them may be hand-made or damaged. A shard that
/// breaks its own rule (1 ≤ K ≤ N) is refused when decoded; an absurd N or a huge list of input
/// errors costs time linear in what the files hold, never in N or in its square.
@Suite struct HostileShardReportTests {
    @Test(arguments: ["{\"index\":1,\"count\":0}", "{\"index\":0,\"count\":3}", "{\"index\":4,\"count\":3}",
                      "{\"index\":-1,\"count\":-1}", "{\"index\":1,\"count\":2147483648}"])
    func aShardOutsideOneToNIsNotDecoded(json: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Shard.self, from: Data(json.utf8)) }
    }

    @Test func aValidShardStillDecodes() throws {
        let shard = try JSONDecoder().decode(Shard.self, from: Data("{\"index\":2,\"count\":8}".utf8))
        #expect(shard == Shard(index: 2, count: 8))
        #expect(try JSONDecoder().decode(Shard.self, from: JSONEncoder().encode(shard)) == shard)
    }

    @Test func aHugeShardCountListsAFewMissingShardsAndCountsTheRest() throws {
        // Never walks 1...N: `make bench-inputs`' `merge-huge-n` case times it.
        let outcome = try ReportMerge.merge([ReportMergeTests.shard(1, of: Int.max, []), ReportMergeTests.shard(3, of: Int.max, [])])
        #expect(outcome.missingShards.count == ReportMerge.maxMissingListed)
        #expect(outcome.missingShards.prefix(3) == [2, 4, 5])
        #expect(outcome.missingShardCount == Int.max - 2)
        #expect(!outcome.report.complete)
    }

    @Test func manyInputErrorsInEveryShardMergeInLinearTime() throws {
        // A domain list of binary junk: every shard repeats all its rejected lines.
        let problems = (1...60_000).map { InputProblem(file: "domains.txt", line: $0, text: "junk \($0)", reason: "contains a space") }
        // Linear work is well under a second, the quadratic search took minutes: `make bench-inputs`'
        // `merge-input-errors` case times it.
        let outcome = try ReportMerge.merge([ReportMergeTests.shard(1, of: 2, [], problems: problems),
                                             ReportMergeTests.shard(2, of: 2, [], problems: problems)])
        // Listed up to the limit, the rest counted (each shard lists the same problems).
        #expect(outcome.report.inputErrors == Array(problems.prefix(DomainList.maximumKeptProblems)))
        #expect(outcome.report.inputErrorCount == 60_000)
        #expect(outcome.missingShardCount == 0 && outcome.missingShards.isEmpty)
    }
}
