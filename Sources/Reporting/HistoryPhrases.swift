import Audit
import Foundation

/// The sentences every reporter uses for what the history adds (`ReportHistory`), so the HTML,
/// Markdown and terminal reports say the same thing.
enum HistoryPhrases {
    /// "2026-11-28".
    static func day(_ date: Date) -> String { String(Formatting.utc(date).prefix(10)) }

    /// "2026-11-28 03:15 UTC": a run of the trend, so two runs of one day are told apart.
    static func moment(_ date: Date) -> String {
        let text = Formatting.utc(date)
        return String(text.prefix(16)) + " UTC"
    }

    /// "failing since 2026-11-28 (3 runs)".
    static func failing(_ streak: FailingStreak) -> String {
        "failing since \(day(streak.since)) (\(Formatting.plural(streak.runs, "run")))"
    }

    /// "fixed after 3 runs (now warn)".
    static func fixed(_ domain: FixedDomain) -> String {
        "fixed after \(Formatting.plural(domain.afterRuns, "failing run")) (now \(domain.verdict.rawValue))"
    }

    /// "verdict changed 4 times in the last 14 runs: pass → fail → pass …".
    static func flapping(_ domain: FlappingDomain) -> String {
        "verdict changed \(domain.changes) times in the last \(Formatting.plural(domain.verdicts.count, "run")): "
            + domain.verdicts.map(\.rawValue).joined(separator: " → ")
    }

    /// "expires 2026-12-10 (9 days left), issued by R11"; "ended 2026-11-20 (expired 9 days ago)" for
    /// an expired one (`ExpiringCertificate.expiry`).
    static func expiring(_ certificate: ExpiringCertificate) -> String {
        (certificate.expiry == .expired ? "ended " : "expires ")
            + "\(day(certificate.notAfter)) (\(Formatting.daysLeftText(certificate.daysLeft)))"
            + (certificate.issuer.map { ", issued by \($0)" } ?? "")
    }

    /// "Certificates expiring within 30 days", with the run's threshold (`ReportHistory.expiryWarningDays`).
    static func expiringTitle(_ history: ReportHistory) -> String {
        "Certificates expiring within \(Formatting.plural(history.expiryWarningDays, "day"))"
    }

    /// "From the history: 12 earlier runs of the domain list."
    static func source(_ history: ReportHistory) -> String {
        history.earlierListRuns == 0
            // True of a first run of the list and of a one-off check alike (which starts no streak).
            ? "The history holds no earlier run of the domain list yet."
            : "From the history: \(Formatting.plural(history.earlierListRuns, "earlier run")) of the domain list."
    }
}
