import Foundation

/// What the history database (`reports/history.sqlite`) tells about a run: computed by the History
/// target before the reports are written, from the earlier runs of the domain list and this one,
/// and stored in the report (`AuditReport.history`) so reporters only render it. See docs/history.md.
public struct ReportHistory: Sendable, Equatable, Codable {
    /// Earlier runs of the domain list the history held (one-off checks and single shards are not runs of the list).
    public var earlierListRuns: Int
    /// Domains that fail in this run, with the run their unbroken run of failures began, longest first.
    public var failingSince: [FailingStreak]
    /// Domains that failed in the previous run of the list and do not in this one.
    public var fixed: [FixedDomain]
    /// Domains whose verdict changed at least `FlappingDomain.minimumChanges` times in the last
    /// `FlappingDomain.window` runs of the list (this one included), most changes first.
    public var flapping: [FlappingDomain]
    /// Certificates of this run's domains that have expired or expire within `expiryWarningDays`
    /// days of the run's start (`CertificateExpiry`), soonest first; each says which (`expiry`).
    public var expiringCertificates: [ExpiringCertificate]
    /// The threshold `expiringCertificates` was drawn with: the run's `--expiry-warning-days`
    /// (`AuditReport.expiryWarningDays`). Histories written before it was recorded read as 30, the
    /// window they were drawn with.
    public var expiryWarningDays: Int
    /// Pass, warn and fail counts of the last runs of the list (up to `RunTally.window`), oldest
    /// first; this run is the last one when it is a run of the list.
    public var trend: [RunTally]

    public init(earlierListRuns: Int, failingSince: [FailingStreak] = [], fixed: [FixedDomain] = [],
                flapping: [FlappingDomain] = [], expiringCertificates: [ExpiringCertificate] = [], trend: [RunTally] = [],
                expiryWarningDays: Int = CertificateExpiry.defaultWarningDays) {
        self.earlierListRuns = earlierListRuns
        self.failingSince = failingSince
        self.fixed = fixed
        self.flapping = flapping
        self.expiringCertificates = expiringCertificates
        self.trend = trend
        self.expiryWarningDays = expiryWarningDays
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        earlierListRuns = try container.decode(Int.self, forKey: .earlierListRuns)
        failingSince = try container.decode([FailingStreak].self, forKey: .failingSince)
        fixed = try container.decode([FixedDomain].self, forKey: .fixed)
        flapping = try container.decode([FlappingDomain].self, forKey: .flapping)
        expiringCertificates = try container.decode([ExpiringCertificate].self, forKey: .expiringCertificates)
        trend = try container.decode([RunTally].self, forKey: .trend)
        expiryWarningDays = try container.decodeIfPresent(Int.self, forKey: .expiryWarningDays) ?? CertificateExpiry.defaultWarningDays
    }

    /// True when the history has nothing to tell of this run: no earlier run of the list, no streak,
    /// fix or flapping and no trend beyond this run (a one-off check before any run of the list).
    /// Reporters then leave their history section out; its certificates are this run's own, which
    /// the summary shows.
    public var saysNothing: Bool {
        earlierListRuns == 0 && failingSince.isEmpty && fixed.isEmpty && flapping.isEmpty && trend.count <= 1
    }

    /// The certificates of `expiringCertificates` that have expired.
    public var expiredCertificates: [ExpiringCertificate] { expiringCertificates.filter { $0.expiry == .expired } }
    /// Those that have not expired yet but will within `expiryWarningDays`: never an expired one.
    public var soonExpiringCertificates: [ExpiringCertificate] { expiringCertificates.filter { $0.expiry == .expiringSoon } }
}

/// A failing domain and since when: `since` is the start of the first run of its unbroken run of
/// failures, `runs` how many runs that is (this one included).
public struct FailingStreak: Sendable, Equatable, Codable {
    public var domain: String
    public var since: Date
    public var runs: Int

    public init(domain: String, since: Date, runs: Int) {
        self.domain = domain
        self.since = since
        self.runs = runs
    }
}

/// A domain that no longer fails: it had failed `afterRuns` runs in a row before this one.
public struct FixedDomain: Sendable, Equatable, Codable {
    public var domain: String
    public var afterRuns: Int
    /// Its verdict now (pass or warn).
    public var verdict: Verdict

    public init(domain: String, afterRuns: Int, verdict: Verdict) {
        self.domain = domain
        self.afterRuns = afterRuns
        self.verdict = verdict
    }
}

/// A domain whose verdict keeps changing.
public struct FlappingDomain: Sendable, Equatable, Codable {
    /// Runs of the list looked at.
    public static let window = 14
    /// Changes that make a domain flapping.
    public static let minimumChanges = 3

    public var domain: String
    /// Verdict changes from one run to the next within the runs looked at.
    public var changes: Int
    /// The verdicts, oldest first, of the runs that audited it.
    public var verdicts: [Verdict]

    public init(domain: String, changes: Int, verdicts: [Verdict]) {
        self.domain = domain
        self.changes = changes
        self.verdicts = verdicts
    }
}

/// A certificate that has run out or runs out soon.
public struct ExpiringCertificate: Sendable, Equatable, Codable {
    public var domain: String
    public var notAfter: Date
    /// Whole days from the run's start (negative once expired).
    public var daysLeft: Int
    public var issuer: String?
    /// Expired or expiring soon (`CertificateExpiry`, against the run's threshold); an entry
    /// written before it was recorded was listed because it was one of the two, and is expired when
    /// `daysLeft` is negative.
    public var expiry: CertificateExpiry

    public init(domain: String, notAfter: Date, daysLeft: Int, issuer: String?, expiry: CertificateExpiry) {
        self.domain = domain
        self.notAfter = notAfter
        self.daysLeft = daysLeft
        self.issuer = issuer
        self.expiry = expiry
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        domain = try container.decode(String.self, forKey: .domain)
        notAfter = try container.decode(Date.self, forKey: .notAfter)
        daysLeft = try container.decode(Int.self, forKey: .daysLeft)
        issuer = try container.decodeIfPresent(String.self, forKey: .issuer)
        expiry = try container.decodeIfPresent(CertificateExpiry.self, forKey: .expiry)
            ?? (daysLeft < 0 ? .expired : .expiringSoon)
    }
}

/// The verdict counts of one run of the list.
public struct RunTally: Sendable, Equatable, Codable {
    /// Runs shown in the trend.
    public static let window = 30

    public var generatedAt: Date
    public var pass: Int
    public var warn: Int
    public var fail: Int
    /// False for an interrupted run.
    public var complete: Bool

    public init(generatedAt: Date, pass: Int, warn: Int, fail: Int, complete: Bool) {
        self.generatedAt = generatedAt
        self.pass = pass
        self.warn = warn
        self.fail = fail
        self.complete = complete
    }
}
