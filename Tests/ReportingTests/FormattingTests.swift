import Foundation
import Testing
@testable import Reporting

/// The computed forms in `Formatting` print what the formatters they replace print.
@Suite struct FormattingTests {
    @Test(arguments: [0.0, 0.04, 0.05, 0.15, 0.25, 0.35, 0.45, 0.75, 1.25, 2.5, 12.345, 99.95, 124.606, 1_000_000.05,
                      -0.0, -0.04, -0.25, -12.35, 999_999_999_999.9, 1e12, .nan, .infinity, -.infinity])
    func millisecondsAsPrintfPrintsThem(value: Double) {
        #expect(Formatting.ms(value) == String(format: "%.1f ms", value))
    }

    /// Thousands of values with three decimals (as curl's microseconds give), and their neighbours one
    /// unit in the last place away, where a tie is only apparent.
    @Test func millisecondsAgreeOverTimingLikeValues() {
        var mismatches: [Double] = []
        for micros in stride(from: 0, to: 200_000, by: 37) {
            let value = Double(micros) / 1000
            for candidate in [value, value.nextUp, value.nextDown] where candidate >= 0 {
                if Formatting.ms(candidate) != String(format: "%.1f ms", candidate) { mismatches.append(candidate) }
            }
        }
        #expect(mismatches.isEmpty)
    }

    @Test(arguments: [0.0, -1.0, 1_796_176_346.75, 253_402_300_799, -2_208_988_800])
    func utcAsTheCalendarGivesIt(seconds: Double) {
        let date = Date(timeIntervalSince1970: seconds)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let expected = String(format: "%04d-%02d-%02d %02d:%02d:%02d UTC", c.year ?? 0, c.month ?? 0, c.day ?? 0,
                              c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
        #expect(Formatting.utc(date) == expected)
    }
}
