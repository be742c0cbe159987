import AASA
import Fetching
import Foundation

/// Settings that change what the checks report.
public struct AuditSettings: Sendable, Equatable {
    /// A certificate expiring within this many days gets a warning.
    public var expiryWarningDays: Int
    /// A transfer slower than this (milliseconds) gets a warning.
    public var slowThresholdMs: Double
    /// The User-Agent the tool sent, named in the crawler comparison.
    public var userAgent: String
    /// The User-Agent sent as Apple's crawler.
    public var crawlerUserAgent: String
    /// `--include-development`: the apps' development-only entries (`?mode=developer`,
    /// `?mode=developer+managed`) are audited and can fail the run; else they are set apart
    /// (`AppClaims.setDevelopmentApart`), as release devices ignore them.
    public var includeDevelopment: Bool

    public init(expiryWarningDays: Int = 30, slowThresholdMs: Double = 5000, userAgent: String = "aasa-audit",
                crawlerUserAgent: String = AppleCDN.crawlerUserAgent, includeDevelopment: Bool = false) {
        self.expiryWarningDays = expiryWarningDays
        self.slowThresholdMs = slowThresholdMs
        self.userAgent = userAgent
        self.crawlerUserAgent = crawlerUserAgent
        self.includeDevelopment = includeDevelopment
    }
}

/// A check of one fetched location. Pure: facts in, findings out.
public protocol LocationCheck: Check {
    /// The core's rules (declared in `AASA`, which `validate` runs too) that this check reports on a
    /// served file, as copies naming this check (`Rule.reported(by:)`).
    static var coreRules: [Rule] { get }
    /// The findings for one location.
    static func findings(for location: FetchedLocation) -> [Finding]
    /// The files whose locations it judges (the JUnit report has a case for it on those only).
    static var judges: Set<LocationKind> { get }
}

extension LocationCheck {
    public static var coreRules: [Rule] { [] }
    public static var judges: Set<LocationKind> { [.appleAppSiteAssociation, .assetLinks] }
}
