import AASA

/// A check of one domain as a whole, after its locations were checked: the choice between them,
/// Apple's crawler, Apple's CDN, the expectations, the entitlement claims. Pure: one context in
/// (`DomainCheckContext`), findings and facts out. The `Auditor` runs `RuleRegistry.domainChecks` in order.
public protocol DomainCheck: Check {
    /// The part of the domain's result its findings belong to; `.apple` unless the check says otherwise.
    static var part: DomainPart { get }
    /// The findings for one domain, and the facts it measured (nothing when the context holds nothing
    /// for it: no CDN answer, no claims ...).
    static func check(_ context: DomainCheckContext) -> DomainCheckOutput
}

extension DomainCheck {
    public static var part: DomainPart { .apple }
}

/// Where a domain check's findings are stored.
public enum DomainPart: Sendable, Equatable {
    /// The domain's own findings (`DomainResult.findings`), counted in the Apple verdict.
    case apple
    /// The Android part's (`AndroidResult.findings`), kept only when the domain's assetlinks.json was audited.
    case android
}

/// What one domain check says about a domain.
public struct DomainCheckOutput: Sendable, Equatable {
    public var findings: [Finding]
    /// What the check measured beyond its findings, stored in the result; nil when it measured nothing.
    public var facts: DomainCheckFacts?

    public init(findings: [Finding] = [], facts: DomainCheckFacts? = nil) {
        self.findings = findings
        self.facts = facts
    }
}

/// The measurements a domain check stores in the result, one case per field of `DomainResult` it fills.
public enum DomainCheckFacts: Sendable, Equatable {
    /// `DomainResult.crawler`.
    case crawler(CrawlerResult)
    /// `DomainResult.cdn`.
    case cdn(CDNResult)
    /// `DomainResult.claims`.
    case claims([ClaimOutcome])
    /// `DomainResult.addressFamilies`.
    case addressFamilies(AddressFamilyComparison)
    /// `AndroidResult.googleDAL`.
    case googleDAL(GoogleDALResult)
}
