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

    public init(expiryWarningDays: Int = 30, slowThresholdMs: Double = 5000, userAgent: String = "aasa-audit",
                crawlerUserAgent: String = AppleCDN.crawlerUserAgent) {
        self.expiryWarningDays = expiryWarningDays
        self.slowThresholdMs = slowThresholdMs
        self.userAgent = userAgent
        self.crawlerUserAgent = crawlerUserAgent
    }
}

/// A check of one fetched location. Pure: facts in, findings out.
public protocol LocationCheck {
    /// The check's stable id ("tls", "document" ...), stored in each of its findings (`Finding.check`).
    static var id: String { get }
    /// Every rule this check can report.
    static var rules: [Rule] { get }
    /// The findings for one location.
    static func findings(for location: FetchedLocation) -> [Finding]
}
