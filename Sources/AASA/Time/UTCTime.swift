import Foundation

/// A moment's date and time of day in UTC, computed from its seconds since 1970 (Howard Hinnant's
/// civil_from_days), not through `Calendar` or a `DateFormatter`: the audit and the HTML report format
/// several dates per domain, and each formatter made cost more than the rest of the domain's checks
/// (issue 28's profile). Only for years 1900 to 9999, where the Gregorian calendar and four-digit
/// years make every formatter agree; callers keep their formatter for any other date.
public struct UTCTime: Equatable, Sendable {
    public let year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int

    /// Years this computation answers for (before 1900 a formatter's calendar may switch to Julian).
    public static let years = 1900...9999

    /// The UTC date and time of `date`, its fraction of a second dropped (as a formatter does); nil
    /// outside `years` or for a date that is not a number.
    public init?(_ date: Date) {
        let interval = date.timeIntervalSince1970
        // Years 1900 to 9999 lie well within ±3e11 s; the bound also keeps the conversion to Int exact.
        guard interval.isFinite, abs(interval) < 3e11 else { return nil }
        let seconds = Int(interval.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let ofDay = seconds - days * 86_400
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        guard Self.years.contains(year) else { return nil }
        self.year = year
        self.month = month
        day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        hour = ofDay / 3600
        minute = ofDay % 3600 / 60
        second = ofDay % 60
    }

    /// `2026-12-02`.
    public var dayText: String { text(count: 10) }

    /// `2026-12-02 19:00:00`.
    public var secondText: String { text(count: 19, separator: UInt8(ascii: " ")) }

    /// `2026-12-02T19:00:00Z`: ISO 8601 as `date.formatted(.iso8601)` writes it.
    public var iso8601Text: String { text(count: 20, separator: UInt8(ascii: "T")) }

    /// The first `count` bytes of `YYYY-MM-DD?hh:mm:ssZ` (`?` the separator), written into the
    /// string's own storage: built from pieces, each date cost about 8,000 instructions, most of a
    /// domain's dates in its report.
    private func text(count: Int, separator: UInt8 = UInt8(ascii: " ")) -> String {
        String(unsafeUninitializedCapacity: count) { buffer in
            var at = 0
            func put(_ value: Int, _ width: Int) {
                var rest = value
                for offset in stride(from: width - 1, through: 0, by: -1) {
                    buffer[at + offset] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
                at += width
            }
            func put(_ byte: UInt8) {
                buffer[at] = byte
                at += 1
            }
            put(year, 4); put(UInt8(ascii: "-")); put(month, 2); put(UInt8(ascii: "-")); put(day, 2)
            if count > 10 {
                put(separator); put(hour, 2); put(UInt8(ascii: ":")); put(minute, 2); put(UInt8(ascii: ":")); put(second, 2)
                if count > 19 { put(UInt8(ascii: "Z")) }
            }
            return at
        }
    }
}
