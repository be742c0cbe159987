import Foundation
import Testing
@testable import Audit

/// Cause before consequence, decided once in the model (`DomainResult.findingGroups`).
@Suite struct FindingOrderTests {
    typealias J = DomainJudgementTests

    static func finding(_ id: String, _ check: String) -> Finding {
        Finding(id: id, severity: .error, message: "\(id) happened", check: check)
    }

    @Test func locationsComeFirstThenTheDomainsOwnInCheckOrder() {
        // Stored in an order a merge or an older report might have: consequences first.
        let domain = DomainResult(domain: "x", verdict: .fail, usedLocation: nil,
                                  findings: [Self.finding("expect.unchecked", ExpectationCheck.id), Self.finding("cdn.missing", CDNCheck.id),
                                             Self.finding("access.blocks-apple", CrawlerAccessCheck.id),
                                             Self.finding("http.well-known-unusable", LocationChoice.id)],
                                  locations: [J.location(J.wk, [J.finding("json.syntax", .error)]), J.location(J.root, [J.finding("http.not-found", .error)])])
        let groups = domain.findingGroups
        #expect(groups.map { $0.location?.path } == [J.wk, J.root, nil])
        #expect(groups[2].findings.map(\.id) == ["http.well-known-unusable", "access.blocks-apple", "cdn.missing", "expect.unchecked"])
        #expect(domain.allFindings.map(\.id) == ["json.syntax", "http.not-found", "http.well-known-unusable", "access.blocks-apple",
                                                 "cdn.missing", "expect.unchecked"])
    }

    @Test func findingsOfOneCheckKeepTheirOrderAndUnknownChecksGoLast() {
        let domain = DomainResult(domain: "x", verdict: .fail, usedLocation: nil,
                                  findings: [Finding(id: "other.thing", severity: .error, message: "?", check: "someday"),
                                             Self.finding("expect.not-opened", ExpectationCheck.id), Self.finding("expect.opened", ExpectationCheck.id),
                                             Self.finding("cdn.missing", CDNCheck.id)],
                                  locations: [])
        #expect(domain.orderedDomainFindings.map(\.id) == ["cdn.missing", "expect.not-opened", "expect.opened", "other.thing"])
    }

    /// The headline follows the same notion: a used file with a broken entry is judged by that entry,
    /// not by Apple's CDN or the unused location.
    @Test func headlineOfAUsedFileWithABrokenEntryIsTheEntry() {
        let domain = DomainResult(domain: "x", verdict: .fail, usedLocation: J.wk,
                                  findings: [Self.finding("cdn.missing", CDNCheck.id)],
                                  locations: [J.location(J.wk, [J.finding("schema.app-id-format", .error)]),
                                              J.location(J.root, [J.finding("http.not-found", .error)])])
        #expect(domain.locations.map(\.usable) == [true, false])
        #expect(domain.headline?.id == "schema.app-id-format")
    }
}
