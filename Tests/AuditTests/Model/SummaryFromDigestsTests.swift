import Testing
@testable import Audit

/// `Summary(digests:)` counts what `Summary(domains:)` counts, from the digests alone (the
/// reports of a spooled run have only those), without copying them.
@Suite struct SummaryFromDigestsTests {
    static func digest(_ verdict: Verdict, android: Verdict? = nil) -> DomainDigest {
        DomainDigest(domain: "example.com", unicodeDomain: nil, verdict: verdict, androidVerdict: android)
    }

    @Test(arguments: [
        ([Verdict](), [Verdict?](), 0, 0, 0, nil as [Int]?),
        ([.pass, .pass, .warn, .fail, .fail, .fail], [nil, nil, nil, nil, nil, nil], 2, 1, 3, nil),
        ([.pass, .warn, .fail], [.fail, nil, .pass], 1, 1, 1, [2, 1, 0, 1]),
        ([.fail, .fail], [.warn, .warn], 0, 0, 2, [2, 0, 2, 0]),
    ] as [([Verdict], [Verdict?], Int, Int, Int, [Int]?)])
    func countsEachVerdictAndTheAndroidParts(verdicts: [Verdict], android: [Verdict?], pass: Int, warn: Int, fail: Int, androidCounts: [Int]?) {
        let summary = Summary(digests: zip(verdicts, android).map { Self.digest($0, android: $1) })
        #expect(summary.domains == verdicts.count)
        #expect([summary.pass, summary.warn, summary.fail] == [pass, warn, fail])
        #expect(summary.android.map { [$0.domains, $0.pass, $0.warn, $0.fail] } == androidCounts)
    }

    @Test func androidVerdictsAreCountedAsAndroidSummaryCountsThem() {
        let verdicts: [Verdict] = [.pass, .fail, .fail, .warn]
        let summary = AndroidSummary(verdicts: verdicts)
        #expect([summary.domains, summary.pass, summary.warn, summary.fail] == [4, 1, 1, 2])
    }
}
