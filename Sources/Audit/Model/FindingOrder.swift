import AASA

/// The findings of one place of a domain, as the reporters list them: a location's, or the domain's own.
public struct FindingGroup: Sendable, Equatable {
    /// The location whose findings these are; nil for the domain's own findings.
    public var location: LocationResult?
    /// The findings, in the order they are listed.
    public var findings: [Finding]

    public init(location: LocationResult?, findings: [Finding]) {
        self.location = location
        self.findings = findings
    }
}

// Cause before consequence, decided once for every reporter (terminal, HTML, Markdown, JUnit).
extension DomainResult {
    /// The order of the domain's own findings: the choice between the locations, then Apple's crawler,
    /// whose refusal is what Apple's CDN caches, then the CDN, then the expectations written in domains.txt:
    /// the order the registry lists the domain checks in (`RuleRegistry.domainChecks`).
    public static let domainCheckOrder = RuleRegistry.domainChecks.map { $0.id }

    /// Every finding of the domain grouped by where it comes from, causes first: what the origin serves
    /// at each location (`.well-known`, then the root location), then the domain's own findings, which
    /// follow from it (the location choice, Apple's crawler, Apple's CDN, the expectations; in that
    /// order, `domainCheckOrder`). A fix that points at "the findings above" so points at something
    /// listed before it. Every location is a group, even one without findings; so is the domain.
    /// A domain claimed for Android alone (`isAndroidOnly`) lists none of its Apple findings.
    public var findingGroups: [FindingGroup] {
        listedLocations.map { FindingGroup(location: $0, findings: $0.findings) }
            + [FindingGroup(location: nil, findings: orderedDomainFindings)]
    }

    /// Claimed for Android alone (`--apk`, `platforms=android`): it needs no AASA file, so what its Apple
    /// locations serve (a 404, most often) is no problem of it and its verdict is its Android part's.
    public var isAndroidOnly: Bool { platforms == ["android"] }

    /// The locations whose findings the reporters list: both, but none for an Android-only domain.
    public var listedLocations: [LocationResult] { isAndroidOnly ? [] : locations }

    /// The domain's own findings in `domainCheckOrder` (a finding of another or no check last), each
    /// check's findings in the order it made them.
    public var orderedDomainFindings: [Finding] {
        guard !isAndroidOnly else { return [] }
        let rank = { (finding: Finding) -> Int in
            finding.check.flatMap { Self.domainCheckOrder.firstIndex(of: $0) } ?? Self.domainCheckOrder.count
        }
        return findings.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
    }
}
