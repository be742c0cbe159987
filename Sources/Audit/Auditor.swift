import AASA
import Fetching
import Foundation

/// Turns fetched responses into findings per location and a verdict per domain. Pure.
public struct Auditor: Sendable {
    public var settings: AuditSettings
    /// "Now" for certificate ages, fixed per run so every domain is judged at the same instant.
    public var now: Date

    public init(settings: AuditSettings = AuditSettings(), now: Date = Date()) {
        self.settings = settings
        self.now = now
    }

    /// Headers worth showing a person diagnosing the file.
    static let keptHeaders: Set<String> = [
        "content-type", "content-encoding", "content-length", "location", "cache-control", "age",
        "last-modified", "etag", "server", "via", "x-cache", "cf-ray", "cf-cache-status",
    ]

    /// The result for one domain; `unicodeDomain` is shown for internationalised names. `expectations`
    /// (from domains.txt) are checked against the file Apple would use (`ExpectationCheck`).
    public func audit(_ site: SiteFetch, unicodeDomain: String? = nil, expectations: DomainExpectations = DomainExpectations(),
                      claims: [EntitlementClaim] = []) -> DomainResult {
        auditWithDocument(site, unicodeDomain: unicodeDomain, expectations: expectations, claims: claims).result
    }

    /// The result for one domain and what a device gets from it (`DeviceOutcome`: the document Apple
    /// uses, nil when Apple can read a document from neither location, `LocationUsability`): for
    /// `aasa-audit match DOMAIN`, which decides URLs against that document, even when some of its entries are broken.
    public func auditWithDocument(_ site: SiteFetch, unicodeDomain: String? = nil,
                                  expectations: DomainExpectations = DomainExpectations(),
                                  claims: [EntitlementClaim] = []) -> (result: DomainResult, device: DeviceOutcome) {
        let wellKnown = check(path: AASAFile.wellKnownPath, fetch: site.wellKnown)
        let root = check(path: AASAFile.rootPath, fetch: site.root, sibling: wellKnown.fetched)
        let outcome = LocationChoice.decide(wellKnown: wellKnown, root: root)
        let fetched = [wellKnown.result.path: wellKnown.fetched, root.result.path: root.fetched]
        var extra: [Finding] = []
        var crawler: CrawlerResult?
        var crawled: [String: FetchResponse] = [:]
        crawled[AASAFile.wellKnownPath] = site.crawlerWellKnown
        crawled[AASAFile.rootPath] = site.crawlerRoot
        if !crawled.isEmpty {
            let access = CrawlerAccessCheck.check(usedLocation: outcome.usedLocation, tool: fetched, crawler: crawled,
                                                  crawlerUserAgent: settings.crawlerUserAgent, toolUserAgent: settings.userAgent)
            crawler = access.result
            extra += Self.named(access.findings, by: CrawlerAccessCheck.id)
        }
        var cdn: CDNResult?
        if let response = site.cdn {
            let copy = CDNCheck.check(cdn: response, domain: site.domain, origin: outcome.usedLocation.flatMap { fetched[$0] })
            cdn = copy.result
            extra += Self.named(copy.findings, by: CDNCheck.id)
        }
        // What a device gets (`DeviceOutcome`): the one document the expectations, the claims and `match` decide with.
        let device = DeviceOutcome(usedLocation: outcome.usedLocation,
                                   usedDocument: outcome.usedLocation.flatMap { fetched[$0]?.validation?.document },
                                   wellKnownDocument: wellKnown.result.usable ? wellKnown.fetched.validation?.document : nil, findings: extra)
        extra += Self.named(ExpectationCheck.findings(expectations, domain: site.domain, document: device.release.document), by: ExpectationCheck.id)
        var outcomes: [ClaimOutcome]?
        if !claims.isEmpty {
            let files = EntitlementClaimCheck.HostFiles(device: device, rootUsable: root.result.usable)
            let checked = EntitlementClaimCheck.evaluate(claims, domain: site.domain, files: files)
            extra += Self.named(checked.findings, by: EntitlementClaimCheck.id)
            outcomes = checked.outcomes
        }
        let android = site.android.map { auditAndroid($0, domain: site.domain, expectations: expectations) }
        // Errors about the crawler, the CDN or the expectations fail the domain; warnings warn. The
        // Android part, audited only when asked, counts too (`AndroidResult`).
        let appleVerdict = Verdict.worst(outcome.verdict, Verdict(findings: extra))
        var result = DomainResult(domain: site.domain, unicodeDomain: unicodeDomain == site.domain ? nil : unicodeDomain,
                            verdict: android.map { Verdict.worst(appleVerdict, $0.verdict) } ?? appleVerdict,
                            usedLocation: outcome.usedLocation, findings: Self.named(outcome.findings, by: LocationChoice.id) + extra,
                            locations: [wellKnown.result, root.result], cdn: cdn, crawler: crawler)
        result.claims = outcomes
        if let android {
            result.android = android
            result.appleVerdict = appleVerdict
            result.judge(at: nil)
        }
        return (result, device)
    }

    /// The Android part of a domain: assetlinks.json through the same location checks as Apple's
    /// files (transport, then the statement list instead of the AASA document), and the Android expectations.
    public func auditAndroid(_ fetch: LocationFetch, domain: String, expectations: DomainExpectations) -> AndroidResult {
        let location = check(path: AssetLinksFile.path, fetch: fetch, kind: .assetLinks)
        let expected = AndroidExpectationCheck.findings(expectations, domain: domain, document: location.fetched.assetLinks?.document)
        return AndroidResult(location: location.result, findings: Self.named(expected, by: AndroidExpectationCheck.id))
    }

    /// Runs every location check on one location.
    /// `sibling`: the domain's other location, whose validation is reused when it served the same bytes.
    public func check(path: String, fetch: LocationFetch, sibling: FetchedLocation? = nil,
                      kind: LocationKind = .appleAppSiteAssociation) -> (result: LocationResult, fetched: FetchedLocation) {
        let fetched = FetchedLocation(path: path, fetch: fetch, now: now, settings: settings, sibling: sibling, kind: kind)
        let findings = RuleRegistry.locationChecks.flatMap { check in Self.named(check.findings(for: fetched), by: check.id) }
        let response = fetch.response
        let body = response.bytes.truncated || response.body.count > LocationResult.maxShownBodyBytes ? nil : String(bytes: response.body, encoding: .utf8)
        // A readable location always has a document: `match`, the CDN and the crawler comparisons read it.
        // assetlinks.json's is the statement list (an array), not an AASA object.
        let document = kind == .assetLinks ? fetched.assetLinks?.document != nil : fetched.validation?.document != nil
        let usable = LocationUsability.isUsable(httpStatus: response.status, findings: findings) && document
        let result = LocationResult(
            path: path, url: response.url, verdict: Verdict(findings: findings), usable: usable, httpStatus: response.status,
            contentType: response.header("content-type"),
            headers: response.headers.filter { Self.keptHeaders.contains($0.name) }.map(HeaderField.init),
            bytes: BodySize(response.bytes), redirect: redirectChain(fetched), tls: response.tls.map { TLSConnection($0, now: now) },
            timings: TransferTimings(response.timings), error: response.error.map(TransferFailure.init), body: body, findings: findings)
        return (result, fetched)
    }

    /// `findings`, each naming the check that made it.
    static func named(_ findings: [Finding], by check: String) -> [Finding] {
        findings.map { finding in
            var named = finding
            named.check = check
            return named
        }
    }

    private func redirectChain(_ location: FetchedLocation) -> RedirectChain? {
        let fetch = location.fetch, response = fetch.response
        guard response.isRedirect else { return nil }
        let hops = ([response] + fetch.redirectHops).map {
            RedirectHop(url: $0.url, status: $0.status, location: $0.header("location"),
                        contentType: $0.header("content-type"), error: $0.error?.message)
        }
        return RedirectChain(location: response.header("location") ?? response.redirectURL ?? "",
                             hops: hops, end: fetch.redirectEnd ?? "not followed", endServesJSONObject: location.redirectEndServesObject)
    }
}
