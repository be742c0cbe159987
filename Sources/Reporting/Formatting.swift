import AASA
import Audit
import Foundation

/// Small formatting helpers shared by the HTML and console reporters.
enum Formatting {
    /// `2026-11-29 19:00:00 UTC`: computed from calendar components, not a DateFormatter, so the
    /// output never depends on the machine's locale or time zone.
    static func utc(_ date: Date) -> String {
        // Computed (`UTCTime`) for the years reports have: this runs several times per domain.
        if let time = UTCTime(date) { return time.secondText + " UTC" }
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

    /// Milliseconds with one decimal, locale-independent: what `String(format: "%.1f ms")` prints,
    /// computed for the values timings have (this runs for every timing of every location, and
    /// `String(format:)` goes through Foundation's formatter each time).
    static func ms(_ value: Double) -> String {
        guard let tenths = tenths(value.magnitude) else { return String(format: "%.1f ms", value) }
        return (value.sign == .minus ? "-" : "") + "\(tenths / 10).\(tenths % 10) ms"
    }

    /// `value` × 10 rounded to an integer as printf's "%.1f" rounds it: to nearest, a tie to even, on the
    /// exact binary value (0.35 is 0.34999… and gives 0.3, though 0.35 × 10 rounds to 3.5 in doubles).
    /// Nil for what is not a finite number from 0 to 10¹².
    static func tenths(_ value: Double) -> Int? {
        guard value.isFinite, value >= 0, value < 1e12 else { return nil }
        let product = value * 10
        // What the rounded product lost (exact, by a fused multiply-add): it decides a tie the
        // product only appears to be.
        let lost = (-product).addingProduct(value, 10)
        let floor = product.rounded(.down)
        let rounded: Double
        if product - floor == 0.5 {
            rounded = lost > 0 ? floor + 1 : lost < 0 ? floor : product.rounded(.toNearestOrEven)
        } else {
            rounded = product.rounded(.toNearestOrAwayFromZero)
        }
        return Int(rounded)
    }
}
