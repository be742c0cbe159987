import Foundation
import Testing
@testable import Audit

/// Verdicts are ordered in one place, worst first.
@Suite struct VerdictOrderTests {
    @Test func worstFirst() {
        #expect(Verdict.fail < .warn && Verdict.warn < .pass && !(Verdict.pass < .fail))
        #expect([Verdict.pass, .fail, .warn, .pass, .fail].sorted() == [.fail, .fail, .warn, .pass, .pass])
    }

    @Test(arguments: [
        (Verdict.pass, Verdict.pass, Verdict.pass), (.pass, .warn, .warn), (.warn, .pass, .warn),
        (.warn, .fail, .fail), (.fail, .pass, .fail), (.fail, .fail, .fail), (.warn, .warn, .warn),
    ])
    func worst(a: Verdict, b: Verdict, expected: Verdict) {
        #expect(Verdict.worst(a, b) == expected)
    }

    @Test func domainsAreListedWorstFirstInReportOrderWithinAVerdict() {
        let verdicts: [Verdict] = [.pass, .fail, .warn, .fail, .pass]
        let domains = InMemoryDomains(verdicts.enumerated().map {
            DomainResult(domain: "d\($0.offset).test", verdict: $0.element, usedLocation: nil, findings: [], locations: [])
        })
        #expect(domains.worstFirst == [1, 3, 2, 0, 4])
    }
}
