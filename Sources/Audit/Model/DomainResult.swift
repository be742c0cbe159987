import Foundation

/// The result for one domain.
public struct DomainResult: Sendable, Equatable, Codable {
    /// The domain in ASCII (punycode) form, as fetched.
    public var domain: String
    /// The Unicode form, when it differs from `domain` (internationalised names).
    public var unicodeDomain: String?
    public var verdict: Verdict
    /// Which location Apple takes the file from ("/.well-known/apple-app-site-association"): the first
    /// one Apple can read (`LocationResult.usable`), `.well-known` first, even when some of its entries
    /// are broken; nil when Apple can read a file at neither location.
    public var usedLocation: String?
    /// Findings about the domain as a whole (fallback to the root location, copies that differ).
    public var findings: [Finding]
    /// The two locations, `.well-known` first.
    public var locations: [LocationResult]
    /// The Android part: `/.well-known/assetlinks.json` and the Android expectations; nil when the
    /// run did not audit it (no `--android` and no Android expectation for the domain).
    public var android: AndroidResult?
    /// The verdict of the Apple part alone, when there is an Android part (the domain's `verdict` is
    /// then the worse of this and `android.verdict`); nil otherwise, when `verdict` is the Apple part's.
    public var appleVerdict: Verdict?
    /// The platforms the domain was audited for, when not Apple's alone: `["apple", "android"]`, or
    /// `["android"]` for a domain claimed only by Android apps (`--apk`, `platforms=android`), whose
    /// verdict is then its Android part's (it needs no AASA file). Nil: Apple's alone.
    public var platforms: [String]?
    /// What Apple's CDN serves for the domain; nil when the CDN was not asked (`--no-cdn`).
    public var cdn: CDNResult?
    /// What the origin answered Apple's crawler User-Agent; nil when there was nothing to compare
    /// (no HTTP response at the location Apple would use).
    public var crawler: CrawlerResult?
    /// The one finding that best explains the verdict (nil for a pass): judged by the audit
    /// (`DomainResult.judge`), shown by every reporter as the domain's main problem.
    public var headline: Finding?
    /// The certificate the domain is judged by and its days left (nil when none could be read):
    /// judged by the audit (`DomainResult.judge`).
    public var certificate: JudgedCertificate?
    /// What a release device gets from the domain (`DeviceGets`): judged by the audit
    /// (`DomainResult.judge`), the first thing every reporter says of the domain; nil for a domain
    /// only Android apps claim.
    public var deviceGets: DeviceGets?
    /// What each entitlement entry of the apps named with `--entitlements` came to on this host
    /// (`EntitlementClaimCheck`); nil when no entry needs this host's file.
    public var claims: [ClaimOutcome]?
    /// `.well-known` over each address family, when the name has both and families are compared
    /// (`--ip-families both`, `AddressFamilyCheck`); nil otherwise.
    public var addressFamilies: AddressFamilyComparison?

    /// Makes the result and its judgements (`judge(at: nil)`): the headline finding, the certificate
    /// shown, and the check of every finding that does not name one.
    public init(domain: String, unicodeDomain: String? = nil, verdict: Verdict, usedLocation: String?,
                findings: [Finding], locations: [LocationResult], cdn: CDNResult? = nil, crawler: CrawlerResult? = nil) {
        self.domain = domain
        self.unicodeDomain = unicodeDomain
        self.verdict = verdict
        self.usedLocation = usedLocation
        self.findings = findings
        self.locations = locations
        self.cdn = cdn
        self.crawler = crawler
        judge(at: nil)
    }

    /// Reads a domain of report.json. Reports written before the judgements were stored (no
    /// `headline`, `certificate` or finding `check` keys) get them judged here, by the same rules.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        domain = try container.decode(String.self, forKey: .domain)
        unicodeDomain = try container.decodeIfPresent(String.self, forKey: .unicodeDomain)
        verdict = try container.decode(Verdict.self, forKey: .verdict)
        usedLocation = try container.decodeIfPresent(String.self, forKey: .usedLocation)
        findings = try container.decode([Finding].self, forKey: .findings)
        locations = try container.decode([LocationResult].self, forKey: .locations)
        cdn = try container.decodeIfPresent(CDNResult.self, forKey: .cdn)
        crawler = try container.decodeIfPresent(CrawlerResult.self, forKey: .crawler)
        android = try container.decodeIfPresent(AndroidResult.self, forKey: .android)
        appleVerdict = try container.decodeIfPresent(Verdict.self, forKey: .appleVerdict)
        platforms = try container.decodeIfPresent([String].self, forKey: .platforms)
        headline = try container.decodeIfPresent(Finding.self, forKey: .headline)
        certificate = try container.decodeIfPresent(JudgedCertificate.self, forKey: .certificate)
        claims = try container.decodeIfPresent([ClaimOutcome].self, forKey: .claims)
        addressFamilies = try container.decodeIfPresent(AddressFamilyComparison.self, forKey: .addressFamilies)
        // Numbers and dates from a file: out of range, the domain is unusable (before any is judged with).
        var ranges = ReportRange.Checker()
        ranges.domain(self)
        try ranges.throwProblem(at: decoder)
        deviceGets = try container.decodeIfPresent(DeviceGets.self, forKey: .deviceGets)
        if !container.contains(.headline) && !container.contains(.certificate) {
            judge(at: nil)
        } else {
            nameChecks()
            // A report written before roles were recorded gets them by the same rule.
            assignRoles(keepingRecorded: true)
            // One written before what a device gets was recorded gets it by the same rule, too.
            if !container.contains(.deviceGets) && !isAndroidOnly {
                deviceGets = DeviceGets(usedLocation: usedLocation, cdn: cdn, domainFindingIDs: Set(findings.map(\.id)))
            }
        }
    }

    /// Every finding of the domain and its locations, causes first (`findingGroups`): the locations'
    /// findings, then the domain's own, then the Android part's.
    public var allFindings: [Finding] { findingGroups.flatMap(\.findings) + (android?.allFindings ?? []) }

    /// The first error that decides the verdict: from the location Apple uses (readable, though its
    /// entries may be broken), else the domain's own (location choice, Apple's crawler), else, when
    /// Apple can read neither location, any location's,
    /// else Apple's CDN's (a CDN failure is often the echo of an origin problem, so the origin's error
    /// is named first when there is one), else any.
    public var firstError: Finding? {
        Self.firstError(usedLocation: usedLocation, findings: findings, locations: locations)
    }

    static func firstError(usedLocation: String?, findings: [Finding], locations: [LocationResult]) -> Finding? {
        let used = locations.first { $0.path == usedLocation }
        let anyLocation = locations.lazy.flatMap(\.findings).first { $0.severity == .error }
        return (used?.findings ?? []).first { $0.severity == .error }
            ?? findings.first { $0.severity == .error && $0.category != "cdn" }
            ?? (usedLocation == nil ? anyLocation : nil)
            ?? findings.first { $0.severity == .error }
            ?? anyLocation
    }
}
