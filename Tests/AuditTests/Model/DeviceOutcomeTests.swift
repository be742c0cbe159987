import AASA
import Fetching
import Foundation
import Testing
@testable import Audit

/// What a device gets, built once per domain by the audit: the file plain entries and `?mode=`
/// entries are decided with, or why there is none, and what the crawler and the CDN make of it.
@Suite struct DeviceOutcomeTests {
    typealias F = CheckFixtures
    static let rootURL = "https://example.com/apple-app-site-association"

    func device(wellKnown: FetchResponse, root: FetchResponse) -> DeviceOutcome {
        let site = SiteFetch(domain: "example.com", wellKnown: LocationFetch(response: wellKnown), root: LocationFetch(response: root))
        return Auditor(now: F.now).auditWithDocument(site).device
    }

    static var notFound: FetchResponse { F.response(status: 404, contentType: "text/html", body: "no") }

    @Test func aWorkingWellKnownIsReadByEveryEntry() {
        let outcome = device(wellKnown: F.response(), root: F.response(status: 404, contentType: "text/html", body: "no", url: Self.rootURL))
        #expect(outcome.release.location == AASAFile.wellKnownPath && outcome.release.document != nil && outcome.release.absence == nil)
        #expect(outcome.file(forModeEntry: true).location == AASAFile.wellKnownPath && outcome.direct.document != nil)
        #expect(outcome.obstacles.isEmpty)
    }

    @Test func aRootFallbackServesPlainEntriesButNoModeEntry() {
        let outcome = device(wellKnown: Self.notFound, root: F.response(url: Self.rootURL))
        #expect(outcome.release.location == AASAFile.rootPath && outcome.release.document != nil)
        #expect(outcome.file(forModeEntry: true).document == nil)
        #expect(outcome.direct.absence == .noWellKnownFile)
    }

    @Test func nothingReadableGivesNoFileAndSaysWhy() {
        let outcome = device(wellKnown: Self.notFound, root: F.response(status: 404, contentType: "text/html", body: "no", url: Self.rootURL))
        #expect(outcome.release.document == nil && outcome.release.location == nil)
        #expect(outcome.release.absence == .noReadableLocation)
        #expect(outcome.direct.absence == .noWellKnownFile)
    }

    @Test func theCrawlerAndTheCDNAreRecordedAsObstacles() {
        let findings = [CrawlerAccessCheck.blocksApple.finding("403"), CDNCheck.stale.finding("stale"), CDNCheck.ok.finding("ok")]
        let outcome = DeviceOutcome(usedLocation: nil, usedDocument: nil, wellKnownDocument: nil, findings: findings)
        #expect(outcome.obstacles == [.crawlerBlocked, .cdnCopyStale])
        #expect(DeviceOutcome(usedLocation: nil, usedDocument: nil, wellKnownDocument: nil,
                              findings: [CDNCheck.missing.finding("none")]).obstacles == [.cdnHasNoCopy])
    }
}
