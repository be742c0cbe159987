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
    public func audit(_ site: SiteFetch, unicodeDomain: String? = nil, expectations: DomainExpectations = DomainExpectations()) -> DomainResult {
        auditWithDocument(site, unicodeDomain: unicodeDomain, expectations: expectations).result
    }

    /// The result for one domain and the document Apple would use from it (nil when Apple would use
    /// neither location): for `aasa-audit match DOMAIN`, which decides URLs against that document.
    public func auditWithDocument(_ site: SiteFetch, unicodeDomain: String? = nil,
                                  expectations: DomainExpectations = DomainExpectations()) -> (result: DomainResult, document: AASADocument?) {
        let wellKnown = check(path: SiteFetcher.wellKnownPath, fetch: site.wellKnown)
        let root = check(path: SiteFetcher.rootPath, fetch: site.root, sibling: wellKnown.fetched)
        let outcome = LocationChoice.decide(wellKnown: wellKnown, root: root)
        let fetched = [wellKnown.result.path: wellKnown.fetched, root.result.path: root.fetched]
        var extra: [Finding] = []
        var crawler: CrawlerResult?
        var crawled: [String: FetchResponse] = [:]
        crawled[SiteFetcher.wellKnownPath] = site.crawlerWellKnown
        crawled[SiteFetcher.rootPath] = site.crawlerRoot
        if !crawled.isEmpty {
            let access = CrawlerAccessCheck.check(usedLocation: outcome.usedLocation, tool: fetched, crawler: crawled,
                                                  crawlerUserAgent: settings.crawlerUserAgent, toolUserAgent: settings.userAgent)
            crawler = access.result
            extra += access.findings
        }
        var cdn: CDNResult?
        if let response = site.cdn {
            let copy = CDNCheck.check(cdn: response, domain: site.domain, origin: outcome.usedLocation.flatMap { fetched[$0] })
            cdn = copy.result
            extra += copy.findings
        }
        let document = outcome.usedLocation.flatMap { fetched[$0]?.validation?.document }
        extra += ExpectationCheck.findings(expectations, domain: site.domain, document: document)
        // Errors about the crawler, the CDN or the expectations fail the domain; warnings warn.
        let result = DomainResult(domain: site.domain, unicodeDomain: unicodeDomain == site.domain ? nil : unicodeDomain,
                            verdict: LocationChoice.worst(outcome.verdict, Verdict(findings: extra)),
                            usedLocation: outcome.usedLocation, findings: outcome.findings + extra,
                            locations: [wellKnown.result, root.result], cdn: cdn, crawler: crawler)
        return (result, document)
    }

    /// Runs every location check on one location.
    /// `sibling`: the domain's other location, whose validation is reused when it served the same bytes.
    public func check(path: String, fetch: LocationFetch, sibling: FetchedLocation? = nil) -> (result: LocationResult, fetched: FetchedLocation) {
        let fetched = FetchedLocation(path: path, fetch: fetch, now: now, settings: settings, sibling: sibling)
        let findings = RuleRegistry.locationChecks.flatMap { $0.findings(for: fetched) }
        let response = fetch.response
        var tls = response.tls
        if let notAfter = tls?.certificate?.notAfter {
            tls?.certificate?.daysLeft = CertificateCheck.daysLeft(until: notAfter, now: now)
        }
        let body = response.bytes.truncated || response.body.count > AASAFile.maximumSize ? nil : String(bytes: response.body, encoding: .utf8)
        let result = LocationResult(
            path: path, url: response.url, verdict: Verdict(findings: findings), httpStatus: response.status,
            contentType: response.header("content-type"),
            headers: response.headers.filter { Self.keptHeaders.contains($0.name) },
            bytes: response.bytes, redirect: redirectChain(fetched), tls: tls, timings: response.timings,
            error: response.error, body: body, findings: findings)
        return (result, fetched)
    }

    private func redirectChain(_ location: FetchedLocation) -> RedirectChain? {
        let fetch = location.fetch, response = fetch.response
        guard let status = response.status, (300...399).contains(status) else { return nil }
        let hops = ([response] + fetch.redirectHops).map {
            RedirectHop(url: $0.url, status: $0.status, location: $0.header("location"),
                        contentType: $0.header("content-type"), error: $0.error?.message)
        }
        return RedirectChain(location: response.header("location") ?? response.redirectURL ?? "",
                             hops: hops, end: fetch.redirectEnd ?? "not followed", endServesJSONObject: location.redirectEndServesObject)
    }
}
