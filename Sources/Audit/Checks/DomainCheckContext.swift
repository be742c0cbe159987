import AASA
import Fetching
import SignedFiles

/// A location with its checked result and what was fetched there (`Auditor.check(path:fetch:…)`).
public typealias CheckedLocation = (result: LocationResult, fetched: FetchedLocation)

/// A statement list assetlinks.json includes, checked as a location of its own.
public struct CheckedInclude: Sendable {
    public var url: String
    public var location: CheckedLocation

    public init(url: String, location: CheckedLocation) {
        self.url = url
        self.location = location
    }
}

/// Everything a domain check may read of one domain, made once per domain by the `Auditor` after the
/// location checks: the two checked Apple locations and the choice between them, what Apple's crawler
/// and Apple's CDN answered, the checked assetlinks.json, what the domain list expects and what the
/// apps' entitlements claim. A value: a check reads what it needs and nothing else.
public struct DomainCheckContext: Sendable {
    public var domain: String
    public var wellKnown: CheckedLocation
    public var root: CheckedLocation
    /// The choice between the two locations (`LocationChoice.decide`), made before any domain check
    /// runs: every one of them reads the location Apple uses.
    public var choice: LocationChoice.Outcome
    /// What Apple's crawler User-Agent got, by path; empty when it did not fetch.
    public var crawled: [String: FetchResponse]
    /// Apple's CDN's answer; nil when it was not asked (`--no-cdn`).
    public var cdn: FetchResponse?
    /// `.well-known` fetched over the address family the first fetch did not use; nil when it was not.
    public var otherFamily: FamilyFetch?
    /// Google's Digital Asset Links API answer for the site (`SiteFetch.googleDAL`); nil when not asked.
    public var googleDAL: FetchResponse?
    /// The checked assetlinks.json location; nil when the domain's Android part was not audited.
    public var android: CheckedLocation?
    /// The lists assetlinks.json includes, fetched and checked (`SiteFetch.androidIncludes`).
    public var androidIncludes: [CheckedInclude] = []
    public var expectations: DomainExpectations
    /// The entitlement entries of the apps that need this domain's file.
    public var claims: [EntitlementClaim]
    public var settings: AuditSettings
    /// The Apple part's findings of the domain checks run before this one (`RuleRegistry.domainChecks`
    /// order); the `Auditor` fills it as it goes.
    public var earlierFindings: [Finding] = []

    public init(domain: String, wellKnown: CheckedLocation, root: CheckedLocation, choice: LocationChoice.Outcome,
                crawled: [String: FetchResponse] = [:], cdn: FetchResponse? = nil, android: CheckedLocation? = nil,
                expectations: DomainExpectations = DomainExpectations(), claims: [EntitlementClaim] = [],
                settings: AuditSettings = AuditSettings()) {
        self.domain = domain
        self.wellKnown = wellKnown
        self.root = root
        self.choice = choice
        self.crawled = crawled
        self.cdn = cdn
        self.android = android
        self.expectations = expectations
        self.claims = claims
        self.settings = settings
    }

    /// The statement list of assetlinks.json, when Android reads one from it (its location usable).
    public var androidDocument: AssetLinksDocument? {
        guard let android, android.result.usable else { return nil }
        return android.fetched.assetLinks?.document
    }

    /// The path of the location Apple uses; nil when Apple can read a document from neither (`LocationUsability`).
    public var usedLocation: String? { choice.usedLocation }

    /// What was fetched at each Apple location, by path.
    public var fetched: [String: FetchedLocation] {
        [wellKnown.result.path: wellKnown.fetched, root.result.path: root.fetched]
    }

    /// The location Apple uses, as fetched; nil when there is none.
    public var used: FetchedLocation? { usedLocation.flatMap { fetched[$0] } }

    /// The document Apple uses (broken entries and all); nil when there is none.
    public var usedDocument: AASADocument? { used?.validation?.document }

    /// What a device gets (`DeviceOutcome`), from the location choice and the findings of the checks
    /// run so far: the crawler's and the CDN's come before the expectations and the claims that read it.
    public var device: DeviceOutcome {
        DeviceOutcome(usedLocation: usedLocation, usedDocument: usedDocument,
                      wellKnownDocument: wellKnown.result.usable ? wellKnown.fetched.validation?.document : nil,
                      cdnDocument: cdnDocument, findings: earlierFindings)
    }

    /// The document of Apple's CDN copy: nil when the CDN was not asked, did not answer 200, or
    /// serves something that is not an AASA document.
    public var cdnDocument: AASADocument? {
        guard let cdn, cdn.error == nil, cdn.status == 200 else { return nil }
        return DocumentValidator.validate(SignedFile.open(cdn.body)).document
    }
}
