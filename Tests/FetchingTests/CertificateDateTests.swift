import Foundation
import Testing
@testable import Fetching

/// OpenSSL's printed certificate dates to `Date`, computed without `Calendar` (made for every handshake).
@Suite struct CertificateDateTests {
    @Test(arguments: [
        ("Jan  1 00:00:00 2030 GMT", 1_893_456_000.0),
        ("Feb 29 12:34:56 2024 GMT", 1_709_210_096.0),  // a leap day
        ("Dec 31 23:59:59 1999 GMT", 946_684_799.0),
        ("Mar  1 00:00:00 2000 GMT", 951_868_800.0),  // after 2000's leap day (divisible by 400)
        ("Jun 15 01:02:03 1950 GMT", -616_892_277.0),  // before 1970
    ])
    func printedDatesAreTheirUTCInstants(text: String, seconds: Double) {
        #expect(CertificateInfoParser.parseDate(text) == Date(timeIntervalSince1970: seconds))
    }

    @Test func impossibleFieldsGiveNoDate() {
        #expect(CertificateInfoParser.parseDate("Jan 1 25:00:00 2030 GMT") == nil)
        #expect(CertificateInfoParser.utcDate(year: 2030, month: 13, day: 1, hour: 0, minute: 0, second: 0) == nil)
    }
}
