import AASA
import Fetching
import Foundation
import Testing
@testable import Audit

private typealias F = CheckFixtures

/// The domain-level checks run from one context, in the registry's order, and each finding names
/// the check that made it from the moment it is made (no registry lookup after the fact).
@Suite struct DomainCheckTests {
    static let rootURL = "https://example.com/apple-app-site-association"
    static let assetLinksURL = "https://example.com/.well-known/assetlinks.json"
    static let otherJSON = #"{"applinks":{"details":[{"appIDs":["ZYXWV98765.com.exemplo.old"],"components":[{"/":"/old/*"}]}]}}"#
    static let statementList = #"[{"relation":["delegate_permission/common.handle_all_urls"],"target":{"namespace":"android_app","package_name":"com.exemplo.app","sha256_cert_fingerprints":["D2:EA:8B:A3:B0:4B:5C:C0:6A:4B:48:E5:AD:5F:C2:9B:22:4D:63:67:A4:A5:26:1D:22:27:71:49:48:38:A7:0C"]}}]"#

    /// A domain on which every domain check has something to say: the two locations serve different
    /// files, the crawler is refused, the CDN holds another copy, an expected app and an Android
    /// package are missing, and an app's entitlement claims the host.
    static func site() -> SiteFetch {
        SiteFetch(domain: "example.com", wellKnown: LocationFetch(response: F.response()),
                  root: LocationFetch(response: F.response(body: otherJSON, url: rootURL)),
                  cdn: F.response(body: otherJSON, url: "https://app-site-association.cdn-apple.com/a/v1/example.com"),
                  crawlerWellKnown: F.response(status: 403, contentType: "text/html", body: "<html>Forbidden</html>"),
                  android: LocationFetch(response: F.response(body: statementList, url: assetLinksURL)))
    }
    static let expectations = DomainExpectations(apps: ["ABQ7KM3X2P.com.exemplo.missing"], androidApps: ["com.exemplo.other"])
    static func claims() throws -> [EntitlementClaim] {
        [EntitlementClaim(appID: "ABQ7KM3X2P.com.exemplo.claimed", source: "App.entitlements",
                          entry: try AssociatedDomainEntry.parse("applinks:example.com", index: 0))]
    }

    static func context(_ auditor: Auditor) throws -> DomainCheckContext {
        let site = site()
        let wellKnown = auditor.check(path: AASAFile.wellKnownPath, fetch: site.wellKnown)
        let root = auditor.check(path: AASAFile.rootPath, fetch: site.root, sibling: wellKnown.fetched)
        return DomainCheckContext(domain: site.domain, wellKnown: wellKnown, root: root, choice: LocationChoice.decide(wellKnown: wellKnown, root: root),
                                  crawled: [AASAFile.wellKnownPath: try #require(site.crawlerWellKnown)], cdn: site.cdn,
                                  android: site.android.map { auditor.check(path: AssetLinksFile.path, fetch: $0, kind: .assetLinks) },
                                  expectations: expectations, claims: try claims(), settings: auditor.settings)
    }

    @Test func everyDomainCheckNamesItselfInEachOfItsFindings() throws {
        let context = try Self.context(Auditor(now: F.now))
        var expected: [String: String] = [
            LocationChoice.id: "http.locations-differ", CrawlerAccessCheck.id: "access.blocks-apple", CDNCheck.id: "cdn.stale",
            ExpectationCheck.id: "expect.app-missing", AndroidExpectationCheck.id: "expect.android-missing",
            EntitlementClaimCheck.id: "entitlement.applinks-missing",
        ]
        for check in RuleRegistry.domainChecks {
            let findings = check.check(context).findings
            // A check added later need not speak on this domain, but what it says names it.
            if let wanted = expected.removeValue(forKey: check.id) {
                #expect(findings.map(\.id).contains(wanted), "\(check.id): \(findings.map(\.id))")
            }
            #expect(findings.allSatisfy { $0.check == check.id }, "\(check.id): \(findings.map { ($0.id, $0.check) })")
        }
        #expect(expected.isEmpty, "not run: \(expected.keys.sorted())")
    }

    /// The Auditor stores each check's findings in its part, in registry order, and each check's facts.
    @Test func theAuditorRunsTheRegistryInOrderAndStoresWhatEachCheckSays() throws {
        let auditor = Auditor(now: F.now)
        let context = try Self.context(auditor)
        let result = auditor.audit(Self.site(), expectations: Self.expectations, claims: try Self.claims())
        // Each check sees the findings of those before it, as in the Auditor: what a device gets reads the CDN's.
        var running = context
        var apple: [DomainCheckOutput] = []
        for check in RuleRegistry.domainChecks where check.part == .apple {
            let output = check.check(running)
            apple.append(output)
            running.earlierFindings += output.findings
        }
        #expect(result.findings == apple.flatMap(\.findings))
        let order = RuleRegistry.domainChecks.map { $0.id }
        let ranks = result.findings.compactMap { finding in order.firstIndex { $0 == finding.check } }
        #expect(ranks.count == result.findings.count && ranks == ranks.sorted() && Set(ranks).count >= 5, "\(result.findings.map(\.check))")
        #expect(result.android?.findings == AndroidExpectationCheck.check(context).findings)
        #expect(result.android?.findings.isEmpty == false && result.findings.allSatisfy { $0.check != AndroidExpectationCheck.id })
        #expect(CDNCheck.check(context).facts == result.cdn.map(DomainCheckFacts.cdn) && result.cdn != nil)
        #expect(CrawlerAccessCheck.check(context).facts == result.crawler.map(DomainCheckFacts.crawler) && result.crawler != nil)
        #expect(EntitlementClaimCheck.check(running).facts == result.claims.map(DomainCheckFacts.claims) && result.claims?.count == 1)
        #expect(result.verdict == .fail && result.appleVerdict == .fail)
    }

    /// A check with nothing to read says nothing and measures nothing: the report keeps no empty
    /// `crawler`, `cdn`, `claims` or `android` for a domain that had none.
    @Test func checksWithNothingToReadSayNothing() {
        let site = SiteFetch(domain: "example.com", wellKnown: LocationFetch(response: F.response()),
                             root: LocationFetch(response: F.response(status: 404, contentType: "text/html", body: "", url: Self.rootURL)))
        let result = Auditor(now: F.now).audit(site)
        #expect(result.findings.isEmpty && result.crawler == nil && result.cdn == nil && result.claims == nil && result.android == nil)
        #expect(result.verdict == .pass)
    }

    /// Location findings name their check when made, the core's document findings included (`DocumentCheck`, `SizeCheck`).
    @Test(arguments: [
        ("an expired certificate", F.response(tls: TLSFacts(version: "TLSv1.3", certificate: F.certificate(daysLeft: -2)))),
        ("a 404 page", F.response(status: 404, contentType: "text/html", body: "<html></html>")),
        ("a redirect", F.response(status: 301, contentType: "text/html", body: "", headers: [HTTPHeader(name: "Location", value: "https://example.com/x")])),
        ("broken JSON", F.response(contentType: "text/plain", body: #"{"applinks": "#)),
        ("a schema problem", F.response(body: #"{"applinks":{"details":[{"appIDs":["bad"],"paths":["*"]}]},"extra":1}"#)),
        ("a file over the limit", F.response(body: String(repeating: " ", count: 140_000) + "{}")),
        ("an HTML page", F.response(contentType: "text/html", body: "<!doctype html><title>Sign in</title>")),
        ("a timeout", F.response(status: nil, body: "", error: F.failure(.timeout, 28, "Operation timed out"), tls: nil)),
    ])
    func everyLocationCheckNamesItselfInEachOfItsFindings(_ what: String, _ response: FetchResponse) {
        let location = F.located(response)
        var all: [Finding] = []
        for check in RuleRegistry.locationChecks {
            let findings = check.findings(for: location)
            #expect(findings.allSatisfy { $0.check == check.id }, "\(what), \(check.id): \(findings.map { ($0.id, $0.check) })")
            all += findings
        }
        #expect(all.contains { $0.severity != .info }, "\(what): \(all.map(\.id))")
    }
}
