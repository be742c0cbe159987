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

    /// Read on the bytes (OpenSSL's usual form) or, when the bytes are not in it, as text: the
    /// same instant, and no instant where the text reading gives none.
    @Test(arguments: [
        ("Jan 1 00:00:00 2030 GMT", 1_893_456_000.0),  // one space before the day
        ("  Jan  1 00:00:00 2030 GMT  ", 1_893_456_000.0),  // spaces around
        ("\tJan  1 00:00:00 2030 GMT\t", 1_893_456_000.0),  // tabs around
        ("Jan  1 00:00:00 2030", 1_893_456_000.0),  // no zone
        ("Jan 01 00:00:00 2030 GMT", 1_893_456_000.0),  // a two-digit day
        ("Jan  1 0:00:00 2030 GMT", 1_893_456_000.0),  // a one-digit hour: read as text
        ("Jan  1 00:00:00 2030 GMT extra", 1_893_456_000.0),  // what follows the year is not read
        ("Jan  1 00:00:00 02030 GMT", 1_893_456_000.0),  // five digits of a four-digit year: read as text
    ] as [(String, Double)])
    func spacingAndDigitsDoNotChangeTheInstant(text: String, seconds: Double) {
        #expect(CertificateInfoParser.parseDate(text) == Date(timeIntervalSince1970: seconds))
    }

    @Test(arguments: [
        "Jan 1 25:00:00 2030 GMT",  // no such hour
        "Jan\t1 00:00:00 2030 GMT",  // a tab between fields (the text reading splits on spaces)
        "Jan  1 00:00:00 2030\tGMT",
        "Jann 1 00:00:00 2030 GMT",
        "Jan  1 00:00:00:00 2030 GMT",
        "Jan  1 00:00:00 10000 GMT",  // beyond four-digit years
        "Jan  1 00:00:00 9223372036854775807 GMT",  // would overflow the day count
        "Jan  1 00:00:00",
        "",
    ])
    func impossibleTextGivesNoDate(text: String) {
        #expect(CertificateInfoParser.parseDate(text) == nil)
    }

    @Test func impossibleFieldsGiveNoDate() {
        #expect(CertificateInfoParser.utcDate(year: 2030, month: 13, day: 1, hour: 0, minute: 0, second: 0) == nil)
        #expect(CertificateInfoParser.utcDate(year: Int.max, month: 1, day: 1, hour: 0, minute: 0, second: 0) == nil)
    }
}
