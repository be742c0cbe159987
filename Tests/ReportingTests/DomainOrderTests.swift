import AASA
import Audit
import Foundation
import Testing
@testable import Reporting

/// The worst-first order reporters list domains in comes from the small per-domain digests kept in
/// memory, and is the order the results themselves give.
@Suite struct DomainOrderTests {
    static func result(_ name: String, _ verdict: Verdict) -> DomainResult {
        DomainResult(domain: name, verdict: verdict, usedLocation: nil, findings: [], locations: [])
    }

    @Test func theDigestsGiveTheResultsWorstFirstOrder() {
        let verdicts: [Verdict] = [.pass, .warn, .fail, .pass, .fail, .warn, .warn, .pass, .fail]
        let results = verdicts.enumerated().map { Self.result("d\($0.offset).test", $0.element) }
        let domains = InMemoryDomains(results)
        let order = domains.worstFirst.map { domains.digests[$0].domain }
        #expect(order == ["d2.test", "d4.test", "d8.test", "d1.test", "d5.test", "d6.test", "d0.test", "d3.test", "d7.test"])
    }

    @Test func aReportFromDigestsCountsWhatTheResultsCount() throws {
        var results = ReportFixtures.report.domains
        results += results.map { var copy = $0; copy.domain += ".copy"; return copy }
        let whole = AuditReport(tool: ReportFixtures.tool, generatedAt: ReportFixtures.generatedAt, domains: results)
        let streamed = StreamedReport(shell: whole, domains: InMemoryDomains(whole.domains))
        #expect(streamed.report.summary == whole.summary)
        #expect(streamed.report.domains.isEmpty && streamed.domains.count == results.count)
        // The HTML page's order, links and all, from the digests: the same page.
        var page = ""
        try HTMLReporter.render(streamed) { page += $0 }
        #expect(page == HTMLReporter.render(whole))
    }
}
