import Audit
import Testing
@testable import Run

/// What a run holds for every domain of its list for the whole run (issue 28: 100,000 domains
/// under 80 MB): the list's entry, the spool's record and the domain's digest. A field added in
/// the wrong place, or an optional where a sentinel served, grows every one of them.
@Suite struct PerDomainSizeTests {
    @Test func aListEntryKeepsItsRareFieldsInOneBox() {
        // The name (both forms), the file, the line, the text, and one box for note, expectations and claims.
        #expect(MemoryLayout<DomainEntry>.stride <= 80)
    }

    @Test func aDigestHasNoPadding() {
        // Four strings and a day count, then five one-byte values.
        #expect(MemoryLayout<DomainDigest>.stride <= 80)
    }

    @Test func aSpoolRecordIsSixteenBytes() {
        #expect(MemoryLayout<SpooledResults.Record>.stride == 16)
        let none = SpooledResults.Record(offset: 7, length: 3, sectionLength: nil)
        let some = SpooledResults.Record(offset: 7, length: 3, sectionLength: 0)
        #expect(none.sectionLength == nil)
        #expect(some.sectionLength == 0)
    }

    @Test func anEntryStillHoldsWhatItWasGiven() throws {
        let name = try DomainName.parse("example.com").name
        var entry = DomainEntry(name: name, file: "domains.txt", line: 3, text: "https://example.com/", note: "used the host")
        #expect(entry.note == "used the host")
        #expect(entry.expectations.isEmpty)
        #expect(entry.claims.isEmpty)
        entry.note = nil
        #expect(entry == DomainEntry(name: name, file: "domains.txt", line: 3, text: "https://example.com/"))
    }
}
