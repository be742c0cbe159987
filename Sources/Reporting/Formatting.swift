import Audit
import Foundation

/// Small formatting helpers shared by the HTML and console reporters.
enum Formatting {
    /// `2026-11-29 19:00:00 UTC`: computed from calendar components, not a DateFormatter, so the
    /// output never depends on the machine's locale or time zone.
    static func utc(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d-%02d-%02d %02d:%02d:%02d UTC",
                      c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
    }

    /// "60 days left", "1 day left", "expires today", "expired 9 days ago".
    static func daysLeftText(_ days: Int) -> String {
        if days > 0 { return days == 1 ? "1 day left" : "\(days) days left" }
        if days == 0 { return "expires within a day" }
        // The magnitude, not the negation: Int.min has no negative (reports are range-checked besides).
        let ago = days.magnitude
        return ago == 1 ? "expired 1 day ago" : "expired \(ago) days ago"
    }

    /// "1 domain" / "3 domains".
    static func plural(_ n: Int, _ word: String) -> String {
        n == 1 ? "1 \(word)" : "\(n) \(word)s"
    }

    /// What a transfer failure's kind means, as a sentence for a person ("The connection was refused.").
    static func words(_ kind: TransferFailure.Kind) -> String {
        switch kind {
        case .dns: return "The name does not resolve."
        case .refused: return "The connection was refused."
        case .timeout: return "No answer came in time."
        case .reset: return "The connection broke off before the answer was complete."
        case .tls: return "The secure connection (TLS) could not be set up."
        case .tooLarge: return "The answer was larger than the limit, so reading stopped."
        case .other: return "The transfer failed."
        }
    }

    /// Milliseconds with one decimal, locale-independent.
    static func ms(_ value: Double) -> String {
        String(format: "%.1f ms", value)
    }
}
