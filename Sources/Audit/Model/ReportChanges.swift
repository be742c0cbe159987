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
        compare(baseline: baseline, current: current, count: current.domains.count, baselinePath: baselinePath,
                expiryWarningDays: expiryWarningDays) { body in current.domains.forEach(body) }
    }

    /// `between` for a streamed report: its domains are read one at a time. Throws the first domain
    /// that cannot be read back.
    public static func between(baseline: AuditReport, current: StreamedReport, baselinePath: String?,
                               expiryWarningDays: Int) throws -> ReportChanges {
        try compare(baseline: baseline, current: current.report, count: current.domains.count, baselinePath: baselinePath,
                    expiryWarningDays: expiryWarningDays) { body in try current.domains.forEach(body) }
    }

    /// `between`, with the current report's `count` domains handed over by `forEachDomain` (its
    /// `domains` are not used).
    static func compare(baseline: AuditReport, current: AuditReport, count: Int, baselinePath: String?, expiryWarningDays: Int,
                        forEachDomain: ((DomainResult) -> Void) throws -> Void) rethrows -> ReportChanges {
        var changes = ReportChanges(baselineGeneratedAt: baseline.generatedAt, baselinePath: baselinePath,
                                    baselineComplete: baseline.complete)
        var before: [String: DomainResult] = [:]
        before.reserveCapacity(baseline.domains.count)
        for domain in baseline.domains where before[domain.domain] == nil { before[domain.domain] = domain }
        var seen = Set<String>()
        seen.reserveCapacity(count)

        try forEachDomain { now in
            seen.insert(now.domain)
            guard let then = before[now.domain] else {
                // A domain outside the baseline's shard was not in its list to begin with: not added.
                if baseline.shard?.contains(now.domain) ?? true { changes.domainsAdded.append(now.domain) }
                return
            }
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
            if let certificate = certificateChange(from: then, at: baseline.generatedAt, to: now, at: current.generatedAt,
                                                   threshold: expiryWarningDays) {
                changes.certificates.append(certificate)
            }
        }
        if baseline.complete {
            // A domain this run did not reach (interrupted) is still on the list, not removed.
            // Nor is a domain of another shard: a sharded run audits only its own part of the list.
            var listed = Set(current.notAudited ?? [])
            for domain in baseline.domains where !seen.contains(domain.domain) && (current.shard?.contains(domain.domain) ?? true)
                && listed.insert(domain.domain).inserted {
                changes.domainsRemoved.append(domain.domain)
            }
        }
        return changes
    }

    /// Errors and warnings keyed by (location, id): what is new and what went away for one domain.
    static func findingChanges(from then: DomainResult, to now: DomainResult) -> (appeared: [FindingChange], gone: [FindingChange]) {
        struct Key: Hashable { var location: String?; var id: String }
        // The Android part is compared only when both runs audited it: a run with --android after
        // one without is not news about the domain.
        let android = then.android != nil && now.android != nil
        func keyed(_ domain: DomainResult) -> [(Key, Finding)] {
            var list: [(Key, Finding)] = []
            var seen = Set<Key>()
            // Causes first, as every reporter lists findings (`DomainResult.findingGroups`).
            var groups: [(String?, [Finding])] = domain.findingGroups.map { ($0.location?.path, $0.findings) }
            if android, let part = domain.android { groups.append((part.location.path, part.allFindings)) }
            for (location, findings) in groups {
                for finding in findings where finding.severity != .info {
                    let key = Key(location: location, id: finding.id)
                    if seen.insert(key).inserted { list.append((key, finding)) }
                }
            }
            return list
        }
        let old = keyed(then), new = keyed(now)
        let oldKeys = Set(old.map(\.0)), newKeys = Set(new.map(\.0))
        func change(_ key: Key, _ finding: Finding, _ domain: DomainResult) -> FindingChange {
            FindingChange(domain: domain.domain, location: key.location, id: finding.id, severity: finding.severity, message: finding.message)
        }
        return (new.filter { !oldKeys.contains($0.0) }.map { change($0.0, $0.1, now) },
                old.filter { !newKeys.contains($0.0) }.map { change($0.0, $0.1, then) })
    }

    /// Compares the certificates the two results are judged by (`DomainResult.certificate`).
    static func certificateChange(from then: DomainResult, at thenDate: Date, to now: DomainResult, at nowDate: Date,
                                  threshold: Int) -> CertificateChange? {
        guard let old = then.certificate, let new = now.certificate,
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
