import AASA
import Foundation
import Testing

/// `UTCTime` gives what Calendar and ISO8601DateFormatter give, for the years it answers for.
@Suite struct UTCTimeTests {
    static func formatterDay(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: date)
    }

    static func calendarSecond(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d-%02d-%02d %02d:%02d:%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
    }

    @Test(arguments: [
        (0.0, "1970-01-01 00:00:00"),
        (-1.0, "1969-12-31 23:59:59"),
        (-0.5, "1969-12-31 23:59:59"),
        (951_782_400, "2000-02-29 00:00:00"),
        (1_796_177_546.75, "2026-12-02 02:12:26"),
        (-2_208_988_800, "1900-01-01 00:00:00"),
        (253_402_300_799, "9999-12-31 23:59:59"),
        (4_107_542_400, "2100-03-01 00:00:00"),
    ])
    func knownMoments(seconds: Double, text: String) throws {
        let time = try #require(UTCTime(Date(timeIntervalSince1970: seconds)))
        #expect(time.secondText == text)
        #expect(time.dayText == String(text.prefix(10)))
    }

    @Test(arguments: [-2_208_988_801.0, 253_402_300_800, .nan, .infinity, -.infinity, 1e300])
    func outsideItsYearsItGivesNothing(seconds: Double) {
        #expect(UTCTime(Date(timeIntervalSince1970: seconds)) == nil)
    }

    /// Every 23,759,981.1 s (about 275 days, not a whole number of days or seconds) from 1900 to 9999.
    @Test func agreesWithTheFormattersAcrossItsYears() {
        var seconds = -2_208_988_800.0
        var mismatches: [String] = []
        while seconds < 253_402_300_799 {
            let date = Date(timeIntervalSince1970: seconds)
            if let time = UTCTime(date) {
                if time.secondText != Self.calendarSecond(date) || time.dayText != Self.formatterDay(date) {
                    mismatches.append("\(seconds): \(time.secondText)")
                }
            } else {
                mismatches.append("\(seconds): nil")
            }
            seconds += 23_759_981.1
        }
        #expect(mismatches.isEmpty)
    }
}
