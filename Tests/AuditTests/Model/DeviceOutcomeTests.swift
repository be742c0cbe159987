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

    static func document(_ appID: String) -> AASADocument? {
        (try? JSONParser.parse(Array(#"{"applinks": {"details": [{"appIDs": ["\#(appID)"], "components": [{"/": "/*"}]}]}}"#.utf8)))
            .flatMap { AASADocument(json: $0) }
    }

    /// What a release device reads, by what the crawler and the CDN made of the origin's file: the CDN's
    /// copy where it answered, none where it has none (or the crawler is refused and it was not asked).
    @Test(arguments: [
        // (the domain's findings, a CDN copy that parses?, the release file's app or its absence, from the CDN?)
        ([String](), false, "ORIGIN", false),
        ([CDNCheck.unreachable.id], false, "ORIGIN", false),
        ([CDNCheck.ok.id], true, "CDN", true),
        ([CDNCheck.stale.id], true, "CDN", true),
        ([CDNCheck.stale.id], false, "cdn-copy-unreadable", false),
        ([CDNCheck.missing.id], false, "cdn-no-copy", false),
        ([CrawlerAccessCheck.blocksApple.id], false, "crawler-blocked", false),
        ([CrawlerAccessCheck.blocksApple.id, CDNCheck.unreachable.id], false, "crawler-blocked", false),
        // The CDN still serves a copy while the crawler is refused: devices read the copy until it refreshes.
        ([CrawlerAccessCheck.blocksApple.id, CDNCheck.ok.id], true, "CDN", true),
        ([CrawlerAccessCheck.blocksApple.id, CDNCheck.missing.id], false, "cdn-no-copy", false),
    ])
    func theReleaseFileIsWhatTheCDNServes(ids: [String], cdnParses: Bool, expected: String, fromCDN: Bool) throws {
        let rules = (CDNCheck.rules + CrawlerAccessCheck.rules).filter { ids.contains($0.id) }
        let outcome = DeviceOutcome(usedLocation: AASAFile.wellKnownPath, usedDocument: Self.document("ORIGIN.app"),
                                    wellKnownDocument: Self.document("ORIGIN.app"),
                                    cdnDocument: cdnParses ? Self.document("CDN.app") : nil, findings: rules.map { $0.finding("x") })
        let release = outcome.release
        let got = release.absence?.rawValue ?? (release.document.map { URLMatcher($0, host: nil).appIDs.first ?? "" } ?? "")
        #expect(got == (release.absence == nil ? "\(expected).app" : expected))
        #expect(release.fromAppleCDN == fromCDN)
        #expect(outcome.origin.document != nil && outcome.direct.document != nil, "the origin's file and ?mode= entries' are kept apart")
    }
}
