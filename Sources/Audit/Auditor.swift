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
    ///
    /// The location checks run on each location (the Android one too, when it was fetched); then
    /// the domain-level checks of `RuleRegistry.domainChecks`, in order, on one context, each seeing
    /// the findings of those before it (`DomainCheckContext.earlierFindings`: what a device gets reads
    /// the crawler's and the CDN's).
    public func auditWithDocument(_ site: SiteFetch, unicodeDomain: String? = nil,
                                  expectations: DomainExpectations = DomainExpectations(),
                                  claims: [EntitlementClaim] = []) -> (result: DomainResult, device: DeviceOutcome) {
        let wellKnown = check(path: AASAFile.wellKnownPath, fetch: site.wellKnown)
        let root = check(path: AASAFile.rootPath, fetch: site.root, sibling: wellKnown.fetched)
        var crawled: [String: FetchResponse] = [:]
        crawled[AASAFile.wellKnownPath] = site.crawlerWellKnown
        crawled[AASAFile.rootPath] = site.crawlerRoot
        var context = DomainCheckContext(
            domain: site.domain, wellKnown: wellKnown, root: root, choice: LocationChoice.decide(wellKnown: wellKnown, root: root),
            crawled: crawled, cdn: site.cdn, android: site.android.map { check(path: AssetLinksFile.path, fetch: $0, kind: .assetLinks) },
            expectations: expectations, claims: claims, settings: settings)
        context.otherFamily = site.otherFamily
        context.googleDAL = site.googleDAL
        context.androidIncludes = site.androidIncludes.map { included in
            CheckedInclude(url: included.url, location: check(path: URLComponents(string: included.url)?.path ?? included.url,
                                                             fetch: included.fetch, kind: .assetLinks))
        }
        var findings: [Finding] = [], androidFindings: [Finding] = []
        var googleDAL: GoogleDALResult?
        var crawler: CrawlerResult?, cdn: CDNResult?, outcomes: [ClaimOutcome]?, families: AddressFamilyComparison?
        for domainCheck in RuleRegistry.domainChecks {
            let output = domainCheck.check(context)
            switch domainCheck.part {
            case .apple:
                findings += output.findings
                context.earlierFindings = findings
            case .android: androidFindings += output.findings
            }
            switch output.facts {
            case .crawler(let facts)?: crawler = facts
            case .cdn(let facts)?: cdn = facts
            case .claims(let facts)?: outcomes = facts
            case .addressFamilies(let facts)?: families = facts
            case .googleDAL(let facts)?: googleDAL = facts
            case nil: break
            }
        }
        let includes = context.androidIncludes.map(\.location.result)
        var android = context.android.map { AndroidResult(location: $0.result, findings: androidFindings, includes: includes.isEmpty ? nil : includes) }
        android?.googleDAL = googleDAL
        // Errors about the crawler, the CDN or the expectations fail the domain; warnings warn. The
        // Android part, audited only when asked, counts too (`AndroidResult`).
        let appleVerdict = Verdict.worst(context.choice.verdict, Verdict(findings: findings))
        // A domain claimed for Android alone needs no AASA file: its verdict is its Android part's.
        let androidOnly = expectations.isAndroidOnly && android != nil && claims.isEmpty
        let verdict = android.map { androidOnly ? $0.verdict : Verdict.worst(appleVerdict, $0.verdict) } ?? appleVerdict
        var result = DomainResult(domain: site.domain, unicodeDomain: unicodeDomain == site.domain ? nil : unicodeDomain,
                            verdict: verdict,
                            usedLocation: context.usedLocation, findings: findings,
                            locations: [wellKnown.result, root.result], cdn: cdn, crawler: crawler)
        result.claims = outcomes
        result.addressFamilies = families
        // What devices get, as the one DeviceOutcome of this domain says it (after every Apple check).
        let device = context.device
        result.deviceGets = androidOnly ? nil : DeviceGets(device)
        if let android {
            result.android = android
            result.appleVerdict = appleVerdict
            result.platforms = androidOnly ? ["android"] : ["apple", "android"]
            result.judge(at: nil)
        }
        return (result, device)
    }

    /// Runs every location check on one location.
    /// `sibling`: the domain's other location, whose validation is reused when it served the same bytes.
    public func check(path: String, fetch: LocationFetch, sibling: FetchedLocation? = nil,
                      kind: LocationKind = .appleAppSiteAssociation) -> CheckedLocation {
        let fetched = FetchedLocation(path: path, fetch: fetch, now: now, settings: settings, sibling: sibling, kind: kind)
        let findings = RuleRegistry.locationChecks.flatMap { $0.findings(for: fetched) }
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
            timings: TransferTimings(response.timings), error: response.error.map(TransferFailure.init), body: body, findings: findings,
            proxy: response.proxy?.proxy, connectedAddress: response.primaryAddress)
        return (result, fetched)
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
