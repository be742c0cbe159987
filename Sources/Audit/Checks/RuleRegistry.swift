import AASA

/// Every check and every rule the tool can report, each check listed once (docs/findings.md must
/// agree, and a test fails when a check in Sources/Audit/Checks is missing here).
public enum RuleRegistry {
    /// The location checks, in the order they run on each location.
    public static let locationChecks: [any LocationCheck.Type] = [
        NetworkCheck.self, CertificatePolicyCheck.self, CertificateCheck.self, RedirectCheck.self, StatusCheck.self,
        ContentTypeCheck.self, SizeCheck.self, DocumentCheck.self, VerifierTimeoutCheck.self,
    ]

    /// The domain-level checks, in the order the `Auditor` runs them and every reporter lists their
    /// findings, causes first (`DomainResult.domainCheckOrder`): the choice between the two locations,
    /// `.well-known` over each address family (what a client on one family gets),
    /// Apple's crawler (whose refusal is what the CDN caches), Apple's CDN, the expectations written in
    /// domains.txt, the Android ones, Google's view of the Android statements, the apps' entitlement claims.
    public static let domainChecks: [any DomainCheck.Type] = [
        LocationChoice.self, AddressFamilyCheck.self, CrawlerAccessCheck.self, CDNCheck.self, ExpectationCheck.self, AssetLinksIncludeCheck.self, AndroidExpectationCheck.self, GoogleDALCheck.self,
        EntitlementClaimCheck.self,
    ]

    /// The checks of an app rather than a domain, run when its entitlements are read (`AppClaims`).
    public static let appChecks: [any Check.Type] = [ProfileCheck.self]

    /// Every check, once: the location checks, the domain-level ones, the app ones.
    public static var checks: [any Check.Type] {
        locationChecks.map { $0 as any Check.Type } + domainChecks.map { $0 as any Check.Type } + appChecks
    }

    /// Every rule: the location checks' own, the core's document rules they report, the domain-level
    /// and the app checks'. The order of docs/findings.md.
    public static let allRules: [Rule] = locationChecks.flatMap { $0.rules } + locationChecks.flatMap { $0.coreRules }
        + domainChecks.flatMap { $0.rules } + appChecks.flatMap { $0.rules }

    /// The id of the check that reports the rule `ruleID` (`Rule.check`), or nil for an unknown rule.
    /// Every finding the audit makes names its check already; this names the check of findings read
    /// from reports written before findings recorded it (`DomainResult.nameChecks`).
    public static func check(ofRule ruleID: String) -> String? {
        checksByRule[ruleID] ?? nil
    }

    private static let checksByRule: [String: String?] =
        Dictionary(allRules.map { ($0.id, $0.check) }, uniquingKeysWith: { first, _ in first })

    /// The rule with this id, if any.
    public static func rule(id: String) -> Rule? {
        allRules.first { $0.id == id }
    }
}
