import Foundation
import AASA

/// What the reports need of one domain across all domains, in a few dozen bytes: its name (for
/// links and comparisons), its verdicts (for the worst-first order, the counts and the exit status),
/// and what its line in a summary shows (the HTML summary table, the terminal's domain lines), so
/// those are written without reading the domain back. Kept in memory for every domain while the
/// results themselves are read one at a time.
public struct DomainDigest: Sendable, Equatable {
    // Held for every domain of a run: the strings first and the small values after them, so that
    // none needs padding (80 bytes a digest instead of 96 in declaration order).
    /// The domain in ASCII form (`DomainResult.domain`).
    public var domain: String
    /// The Unicode form, when it differs (`DomainResult.unicodeDomain`).
    public var unicodeDomain: String?
    /// The location Apple takes the file from (`DomainResult.usedLocation`).
    public var usedLocation: String?
    /// The message of the finding that best explains the verdict (`DomainResult.headline`).
    public var headline: String?
    /// The days left of the certificate the domain is judged by (`DomainResult.certificate`).
    public var certificateDaysLeft: Int?
    public var verdict: Verdict
    /// The Android part's verdict, when it was audited (`DomainResult.android`).
    public var androidVerdict: Verdict?
    /// Why Apple refuses that certificate whatever its days left (`JudgedCertificate.problem`).
    public var certificateProblem: CertificateProblem?
    /// What a release device gets (`DomainResult.deviceGets`).
    public var deviceGets: DeviceGets?

    /// The digest of `result`.
    public init(_ result: DomainResult) {
        domain = result.domain
        // Held for every domain of a run: a Unicode form equal to the name shares its storage, and
        // the location used is one of two constants rather than a copy per domain.
        unicodeDomain = result.unicodeDomain == result.domain ? result.domain : result.unicodeDomain
        verdict = result.verdict
        androidVerdict = result.android?.verdict
        usedLocation = Self.shared(result.usedLocation)
        certificateDaysLeft = result.certificate?.daysLeft
        headline = result.headline?.message
        certificateProblem = result.certificate?.problem
        deviceGets = result.deviceGets
    }

    /// `location`, as the string constant of that location when it is one of the two.
    static func shared(_ location: String?) -> String? {
        switch location {
        case AASAFile.wellKnownPath?: return AASAFile.wellKnownPath
        case AASAFile.rootPath?: return AASAFile.rootPath
        default: return location
        }
    }

    /// A digest of its parts (a result read back from a file, a test).
    public init(domain: String, unicodeDomain: String?, verdict: Verdict, androidVerdict: Verdict?,
                usedLocation: String? = nil, certificateDaysLeft: Int? = nil, headline: String? = nil,
                certificateProblem: CertificateProblem? = nil, deviceGets: DeviceGets? = nil) {
        self.domain = domain
        self.unicodeDomain = unicodeDomain
        self.verdict = verdict
        self.androidVerdict = androidVerdict
        self.usedLocation = usedLocation
        self.certificateDaysLeft = certificateDaysLeft
        self.headline = headline
        self.certificateProblem = certificateProblem
        self.deviceGets = deviceGets
    }
}

/// The domains of a report in report order, each read whole only when asked for: from memory
/// (`InMemoryDomains`), or from the run's results spool, so a run of any length holds one domain's
/// result at a time besides the digests.
public protocol DomainResults: Sendable {
    /// One digest per domain, in report order.
    var digests: [DomainDigest] { get }
    /// The domain at `position` of `digests`, read whole. Throws when it cannot be read back.
    func result(at position: Int) throws -> DomainResult
    /// The domain at `position` as report.json holds it (one element of `domains`, indented four
    /// spaces as it sits there, `JSONReporter.encodeDomainElement`), when it is stored that way; nil
    /// when it must be encoded from `result(at:)`.
    func storedJSON(at position: Int) throws -> Data?
    /// Each body the results store apart (report.json's `bodies`), once, by SHA-256 in increasing
    /// order. By default collected from the results; a store that keeps them apart gives its own.
    func forEachStoredBody(_ take: (_ sha256: String, _ text: String) throws -> Void) throws
}

extension DomainResults {
    /// How many domains there are.
    public var count: Int { digests.count }

    public func forEachStoredBody(_ take: (_ sha256: String, _ text: String) throws -> Void) throws {
        var bodies: [String: String] = [:]
        try forEach { result in _ = result.bodiesApart { bodies[$0] = $1 } }
        for (digest, text) in bodies.sorted(by: { $0.key < $1.key }) { try take(digest, text) }
    }

    /// True when there are none.
    public var isEmpty: Bool { digests.isEmpty }

    /// Calls `body` with each domain in report order, one read at a time.
    public func forEach(_ body: (DomainResult) throws -> Void) throws {
        for position in digests.indices { try body(try result(at: position)) }
    }

    /// Every domain read into memory: for small reports only (tests, a one-off check).
    public func all() throws -> [DomainResult] {
        var results: [DomainResult] = []
        results.reserveCapacity(count)
        try forEach { results.append($0) }
        return results
    }

    /// The positions of `digests` worst first: failing domains, then warnings, then passes, report
    /// order within each (the order people read domains in). From the digests alone.
    public var worstFirst: [Int] {
        let all = digests
        // `Verdict`'s own order is worst first.
        return all.indices.sorted { (all[$0].verdict, $0) < (all[$1].verdict, $1) }
    }
}

/// Domains held in memory: a report read from a file, a merge, a test.
public struct InMemoryDomains: DomainResults {
    public let results: [DomainResult]
    public let digests: [DomainDigest]

    public init(_ results: [DomainResult]) {
        self.results = results
        digests = results.map(DomainDigest.init)
    }

    public func result(at position: Int) -> DomainResult { results[position] }
    public func storedJSON(at position: Int) -> Data? { nil }
}

/// A report whose domains are read one at a time: `report` is everything but the domains (its
/// `domains` is empty, its `summary` counts them all), `domains` are the domains. What the audit
/// hands its reporters, so no reporter needs every result in memory at once.
public struct StreamedReport: Sendable {
    /// The report without its domains.
    public var report: AuditReport
    /// The domains, in report order.
    public var domains: any DomainResults

    /// A report held whole in memory, as a streamed one.
    public init(_ whole: AuditReport) {
        var shell = whole
        shell.domains = []
        report = shell
        domains = InMemoryDomains(whole.domains)
    }

    /// `shell` (its domains are dropped) with `domains`; the summary is counted from their digests.
    public init(shell: AuditReport, domains: any DomainResults) {
        var report = shell
        report.domains = []
        report.summary = Summary(digests: domains.digests)
        self.report = report
        self.domains = domains
    }

    /// The whole report in memory (every domain read back): for callers that need an `AuditReport`
    /// value (tests, the library's `AuditOutcome.report`), never for a long list.
    public func whole() throws -> AuditReport {
        var whole = report
        whole.domains = try domains.all()
        return whole
    }
}

extension Summary {
    /// The counts of the domains of `digests` (the same as `init(domains:)` of their results).
    public init(digests: [DomainDigest]) {
        self.init(verdicts: digests.lazy.map { ($0.verdict, $0.androidVerdict) })
    }
}
