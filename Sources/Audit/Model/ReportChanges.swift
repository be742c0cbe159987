import AASA
import Foundation

/// What changed between a baseline report (usually last night's) and this run: the part of a
/// report people read first. Pure: computed from two `AuditReport` values, no I/O.
///
/// Only domains present in both reports are compared for verdicts, findings and certificates;
/// the others are listed as added or removed. Findings are matched by domain, location (nil for
/// the domain's own findings) and finding id; `info` findings are left out (nothing to act on).
public struct ReportChanges: Sendable, Equatable, Codable {
    /// When the baseline run started.
    public var baselineGeneratedAt: Date
    /// Where the baseline was read from, as given (nil when it did not come from a file).
    public var baselinePath: String?
    /// False when the baseline run was interrupted: then domains missing from it are not "removed".
    public var baselineComplete: Bool
    /// Domains that fail now and did not fail in the baseline.
    public var newlyFailing: [VerdictChange]
    /// Domains that failed in the baseline and no longer fail.
    public var recovered: [VerdictChange]
    /// The other verdict changes (pass to warn, warn to pass).
    public var otherVerdictChanges: [VerdictChange]
    /// Errors and warnings present now that were not in the baseline.
    public var findingsAppeared: [FindingChange]
    /// Errors and warnings of the baseline that are gone now.
    public var findingsGone: [FindingChange]
    /// Certificates that crossed the expiry-warning threshold, expired, or were renewed.
    public var certificates: [CertificateChange]
    /// Domains audited now that the baseline did not have (ASCII form).
    public var domainsAdded: [String]
    /// Domains of the baseline not audited now (ASCII form); empty when the baseline is incomplete.
    public var domainsRemoved: [String]

    /// True when nothing changed.
    public var isEmpty: Bool {
        newlyFailing.isEmpty && recovered.isEmpty && otherVerdictChanges.isEmpty && findingsAppeared.isEmpty
            && findingsGone.isEmpty && certificates.isEmpty && domainsAdded.isEmpty && domainsRemoved.isEmpty
    }

    public init(baselineGeneratedAt: Date, baselinePath: String?, baselineComplete: Bool = true,
                newlyFailing: [VerdictChange] = [], recovered: [VerdictChange] = [], otherVerdictChanges: [VerdictChange] = [],
                findingsAppeared: [FindingChange] = [], findingsGone: [FindingChange] = [],
                certificates: [CertificateChange] = [], domainsAdded: [String] = [], domainsRemoved: [String] = []) {
        self.baselineGeneratedAt = baselineGeneratedAt
        self.baselinePath = baselinePath
        self.baselineComplete = baselineComplete
        self.newlyFailing = newlyFailing
        self.recovered = recovered
        self.otherVerdictChanges = otherVerdictChanges
        self.findingsAppeared = findingsAppeared
        self.findingsGone = findingsGone
        self.certificates = certificates
        self.domainsAdded = domainsAdded
        self.domainsRemoved = domainsRemoved
    }

    /// Compares `current` with `baseline`. Linear in the size of both reports; lists follow the
    /// current report's domain order (removed domains: the baseline's order).
    ///
    /// Sharded reports (`--shard K/N`) are compared on the domains both cover: a domain of another
    /// shard than the current run's is not "removed", and one outside the baseline's shard is not
    /// "added", so a shard can be compared with an unsharded (or merged) report or with its own last run.
    ///
    /// `expiryWarningDays` is the threshold in force for this run (`--expiry-warning-days`); a
    /// certificate crosses it when it had at least that many days left in the baseline and fewer now.
    public static func between(baseline: AuditReport, current: AuditReport, baselinePath: String?,
                               expiryWarningDays: Int) -> ReportChanges {
        compare(baseline: baseline, then: baseline.domains.map(BaselineDomain.init), current: current, count: current.domains.count,
                baselinePath: baselinePath, expiryWarningDays: expiryWarningDays) { body in current.domains.forEach(body) }
    }

    /// `between` for a streamed report: its domains are read one at a time. Throws the first domain
    /// that cannot be read back.
    public static func between(baseline: AuditReport, current: StreamedReport, baselinePath: String?,
                               expiryWarningDays: Int) throws -> ReportChanges {
        try between(baseline: baseline, domains: baseline.domains.map(BaselineDomain.init), current: current,
                    baselinePath: baselinePath, expiryWarningDays: expiryWarningDays)
    }

    /// `between` for a streamed report and a baseline held as `domains` (`BaselineDomain`: what is
    /// compared of each; `baseline`'s own `domains` are not used).
    public static func between(baseline: AuditReport, domains: [BaselineDomain], current: StreamedReport, baselinePath: String?,
                               expiryWarningDays: Int) throws -> ReportChanges {
        try compare(baseline: baseline, then: domains, current: current.report, count: current.domains.count, baselinePath: baselinePath,
                    expiryWarningDays: expiryWarningDays) { body in try current.domains.forEach(body) }
    }

    /// `between`, with the current report's `count` domains handed over by `forEachDomain` (its
    /// `domains` are not used).
    static func compare(baseline: AuditReport, then baselineDomains: [BaselineDomain], current: AuditReport, count: Int,
                        baselinePath: String?, expiryWarningDays: Int,
                        forEachDomain: ((DomainResult) -> Void) throws -> Void) rethrows -> ReportChanges {
        var changes = ReportChanges(baselineGeneratedAt: baseline.generatedAt, baselinePath: baselinePath,
                                    baselineComplete: baseline.complete)
        // Positions, not copies: the baseline is held once.
        var before: [String: Int] = [:]
        before.reserveCapacity(baselineDomains.count)
        for (position, domain) in baselineDomains.enumerated() where before[domain.domain] == nil { before[domain.domain] = position }
        var seen = Set<String>()
        seen.reserveCapacity(count)

        try forEachDomain { now in
            seen.insert(now.domain)
            guard let position = before[now.domain] else {
                // A domain outside the baseline's shard was not in its list to begin with: not added.
                if baseline.shard?.contains(now.domain) ?? true { changes.domainsAdded.append(now.domain) }
                return
            }
            let then = baselineDomains[position]
            if then.verdict != now.verdict {
                let change = VerdictChange(domain: now.domain, unicodeDomain: now.unicodeDomain, from: then.verdict, to: now.verdict,
                                           reason: now.verdict == .fail ? now.firstError : nil)
                if now.verdict == .fail {
                    changes.newlyFailing.append(change)
                } else if then.verdict == .fail {
                    changes.recovered.append(change)
                } else {
                    changes.otherVerdictChanges.append(change)
                }
            }
            let (appeared, gone) = findingChanges(from: then, to: now)
            changes.findingsAppeared += appeared
            changes.findingsGone += gone
            if let certificate = certificateChange(from: then.certificate, at: baseline.generatedAt, to: now, at: current.generatedAt,
                                                   threshold: expiryWarningDays) {
                changes.certificates.append(certificate)
            }
        }
        if baseline.complete {
            // A domain this run did not reach (interrupted) is still on the list, not removed.
            // Nor is a domain of another shard: a sharded run audits only its own part of the list.
            var listed = Set(current.notAudited ?? [])
            for domain in baselineDomains where !seen.contains(domain.domain) && (current.shard?.contains(domain.domain) ?? true)
                && listed.insert(domain.domain).inserted {
                changes.domainsRemoved.append(domain.domain)
            }
        }
        return changes
    }

    /// An error or warning of a domain, keyed by its location (nil: the domain's own) and id.
    struct KeyedFinding: Sendable, Equatable {
        struct Key: Hashable, Sendable { var location: String?; var id: String }
        var key: Key
        var severity: Severity
        var message: String
    }

    /// The errors and warnings of `groups` keyed by (location, id), the first of each key, in order.
    static func keyed(_ groups: [(String?, [Finding])]) -> [KeyedFinding] {
        var list: [KeyedFinding] = []
        var seen = Set<KeyedFinding.Key>()
        for (location, findings) in groups {
            for finding in findings where finding.severity != .info {
                let key = KeyedFinding.Key(location: location, id: finding.id)
                if seen.insert(key).inserted { list.append(KeyedFinding(key: key, severity: finding.severity, message: finding.message)) }
            }
        }
        return list
    }

    /// `domain`'s Apple part keyed, causes first, as every reporter lists findings (`DomainResult.findingGroups`).
    static func keyedAppleFindings(_ domain: DomainResult) -> [KeyedFinding] {
        keyed(domain.findingGroups.map { ($0.location?.path, $0.findings) })
    }

    /// `domain`'s Android part keyed; nil when it was not audited.
    static func keyedAndroidFindings(_ domain: DomainResult) -> [KeyedFinding]? {
        domain.android.map { keyed([($0.location.path, $0.allFindings)]) }
    }

    /// Errors and warnings keyed by (location, id): what is new and what went away for one domain.
    static func findingChanges(from then: BaselineDomain, to now: DomainResult) -> (appeared: [FindingChange], gone: [FindingChange]) {
        // The Android part is compared only when both runs audited it: a run with --android after
        // one without is not news about the domain.
        let nowAndroid = keyedAndroidFindings(now)
        let android = then.androidFindings != nil && nowAndroid != nil
        let old = then.findings + (android ? then.androidFindings ?? [] : [])
        let new = keyedAppleFindings(now) + (android ? nowAndroid ?? [] : [])
        let oldKeys = Set(old.map(\.key)), newKeys = Set(new.map(\.key))
        func change(_ keyed: KeyedFinding, _ domain: String) -> FindingChange {
            FindingChange(domain: domain, location: keyed.key.location, id: keyed.key.id, severity: keyed.severity, message: keyed.message)
        }
        return (new.filter { !oldKeys.contains($0.key) }.map { change($0, now.domain) },
                old.filter { !newKeys.contains($0.key) }.map { change($0, then.domain) })
    }

    /// Compares the certificates the two results are judged by (`DomainResult.certificate`).
    static func certificateChange(from then: JudgedCertificate?, at thenDate: Date, to now: DomainResult, at nowDate: Date,
                                  threshold: Int) -> CertificateChange? {
        guard let old = then, let new = now.certificate,
              let oldDays = old.daysLeft ?? old.notAfter.map({ CertificateCheck.daysLeft(until: $0, now: thenDate) }),
              let newDays = new.daysLeft ?? new.notAfter.map({ CertificateCheck.daysLeft(until: $0, now: nowDate) }) else { return nil }
        // Both ends judged by the one expiry judgement, against this run's threshold.
        let before = CertificateExpiry(daysLeft: oldDays, warningDays: threshold)
        let after = CertificateExpiry(daysLeft: newDays, warningDays: threshold)
        let kind: CertificateChange.Kind
        switch (before, after) {
        case (.fine, .expired), (.expiringSoon, .expired): kind = .expired
        case (.fine, .expiringSoon): kind = .expiringSoon
        case (.expired, .fine), (.expiringSoon, .fine): kind = .renewed
        default: return nil
        }
        return CertificateChange(domain: now.domain, kind: kind, daysLeftBefore: oldDays, daysLeft: newDays, notAfter: new.notAfter)
    }
}

/// A domain whose verdict changed since the baseline.
public struct VerdictChange: Sendable, Equatable, Codable {
    /// The domain (ASCII form).
    public var domain: String
    /// The Unicode form, for internationalised names.
    public var unicodeDomain: String?
    public var from: Verdict
    public var to: Verdict
    /// For a domain that fails now: the error that decides it.
    public var reason: Finding?

    public init(domain: String, unicodeDomain: String? = nil, from: Verdict, to: Verdict, reason: Finding? = nil) {
        self.domain = domain
        self.unicodeDomain = unicodeDomain
        self.from = from
        self.to = to
        self.reason = reason
    }
}

/// An error or warning that appeared or went away since the baseline.
public struct FindingChange: Sendable, Equatable, Codable {
    public var domain: String
    /// The location's path, or nil for a finding about the domain as a whole.
    public var location: String?
    public var id: String
    public var severity: Severity
    /// The message: the current one for a finding that appeared, the baseline's for one that went away.
    public var message: String

    public init(domain: String, location: String?, id: String, severity: Severity, message: String) {
        self.domain = domain
        self.location = location
        self.id = id
        self.severity = severity
        self.message = message
    }
}

/// A certificate that changed state since the baseline.
public struct CertificateChange: Sendable, Equatable, Codable {
    /// What happened.
    public enum Kind: String, Sendable, Codable {
        /// Fewer days left than the expiry-warning threshold now, at least that many before.
        case expiringSoon = "expiring-soon"
        /// Expired since the baseline.
        case expired
        /// Below the threshold (or expired) before, at or above it now: a new certificate.
        case renewed
    }

    public var domain: String
    public var kind: Kind
    /// Days left at the baseline's time.
    public var daysLeftBefore: Int
    /// Days left now (negative once expired).
    public var daysLeft: Int
    public var notAfter: Date?

    public init(domain: String, kind: Kind, daysLeftBefore: Int, daysLeft: Int, notAfter: Date?) {
        self.domain = domain
        self.kind = kind
        self.daysLeftBefore = daysLeftBefore
        self.daysLeft = daysLeft
        self.notAfter = notAfter
    }
}

/// What a baseline keeps of one domain: what `ReportChanges` compares (its verdict, its errors and
/// warnings keyed, the certificate it was judged by), in about a hundred bytes where a whole
/// `DomainResult` is 1.4 KB before what it points to; a baseline holds one per domain for the run
/// (at 100,000 domains: about 20 MB instead of 550).
public struct BaselineDomain: Sendable, Equatable {
    public var domain: String
    public var verdict: Verdict
    var findings: [ReportChanges.KeyedFinding]
    /// The Android part's; nil when the baseline did not audit it.
    var androidFindings: [ReportChanges.KeyedFinding]?
    var certificate: JudgedCertificate?

    public init(_ result: DomainResult) {
        domain = result.domain
        verdict = result.verdict
        findings = ReportChanges.keyedAppleFindings(result)
        androidFindings = ReportChanges.keyedAndroidFindings(result)
        certificate = result.certificate
    }
}
