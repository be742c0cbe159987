import Audit
import Foundation
import Testing

private func parse(_ text: String, file: String? = "domains.txt") -> DomainList {
    DomainList.parse(Data(text.utf8), file: file)
}

@Test("Blank lines and comments are ignored; line numbers count every line")
func commentsAndBlanks() {
    let list = parse("""
    # production
    example.com

       # indented comment
    www.example.com # the web site
    app.example.com\t# tab before the comment
    https://example.com/#fragment
    """)
    #expect(list.entries.map(\.name.ascii) == ["example.com", "www.example.com", "app.example.com"])
    #expect(list.entries.map(\.line) == [2, 5, 6])
    #expect(list.entries.map(\.file) == ["domains.txt", "domains.txt", "domains.txt"])
    #expect(list.entries[1].text == "www.example.com # the web site")
    #expect(list.problems.isEmpty)
    // The fragment is part of the URL, not a comment, and the host repeats line 2.
    #expect(list.duplicates.map(\.line) == [7])
    #expect(list.duplicates.first?.note == "used the host example.com from the URL")
}

@Test("Line endings: LF, CRLF, mixed, and no final newline", arguments: [
    "a.example\nb.example\n",
    "a.example\r\nb.example\r\n",
    "a.example\r\nb.example",
    "a.example\nb.example",
])
func lineEndings(text: String) {
    let list = parse(text)
    #expect(list.entries.map(\.name.ascii) == ["a.example", "b.example"])
    #expect(list.entries.map(\.text) == ["a.example", "b.example"])
    #expect(list.problems.isEmpty)
}

@Test("A leading UTF-8 BOM is ignored")
func byteOrderMark() {
    let list = DomainList.parse(Data([0xEF, 0xBB, 0xBF]) + Data("example.com\r\n".utf8), file: "bom.txt")
    #expect(list.entries.map(\.name.ascii) == ["example.com"])
    #expect(list.problems.isEmpty)
}

@Test("Empty input gives an empty list")
func emptyInput() {
    #expect(parse("") == DomainList())
    #expect(parse("\n\n# nothing\n") == DomainList())
}

@Test("Duplicates after normalisation are audited once and listed")
func duplicates() {
    let list = parse("""
    example.com
    Example.com.
    EXAMPLE.COM
    https://example.com/x
    bücher.example
    xn--bcher-kva.example
    other.example
    """)
    #expect(list.entries.map(\.name.ascii) == ["example.com", "xn--bcher-kva.example", "other.example"])
    #expect(list.duplicates.map(\.line) == [2, 3, 4, 6])
    #expect(list.duplicates.map(\.text) == ["Example.com.", "EXAMPLE.COM", "https://example.com/x", "xn--bcher-kva.example"])
}

@Test("Problems carry file, line, text and reason, and never stop the other lines")
func problemsKeepGoing() {
    let list = parse("""
    good.example
    localhost
    bad_name.example
    # comment

    192.168.1.1
    also-good.example
    """, file: "list.txt")
    #expect(list.entries.map(\.name.ascii) == ["good.example", "also-good.example"])
    #expect(list.problems.map(\.line) == [2, 3, 6])
    #expect(list.problems.map(\.file) == ["list.txt", "list.txt", "list.txt"])
    #expect(list.problems.map(\.text) == ["localhost", "bad_name.example", "192.168.1.1"])
    #expect(list.problems[0].reason.contains("not a fully qualified domain name"))
    #expect(list.problems[1].reason.contains("underscore"))
    #expect(list.problems[2].reason.contains("IP address"))
}

@Test("Lines that are not text are problems", arguments: [
    ([0x61, 0x00, 0x62] as [UInt8], "not text: contains byte 0x00"),
    ([0x61, 0x01, 0x62], "not text: contains byte 0x01"),
    ([0x61, 0x0D, 0x62], "not text: contains byte 0x0D"),
    ([0x61, 0x7F, 0x62], "not text: contains byte 0x7F"),
    ([0x61, 0x2E, 0x63, 0xFF], "not valid UTF-8 (byte 0xFF at column 4)"),
    ([0xC3, 0x28], "not valid UTF-8 (byte 0xC3 at column 1)"),
    ([0xED, 0xA0, 0x80], "not valid UTF-8"),  // an encoded surrogate
])
func notText(bytes: [UInt8], reason: String) {
    let data = Data("first.example\n".utf8) + Data(bytes) + Data("\nlast.example\n".utf8)
    let list = DomainList.parse(data, file: "junk.txt")
    #expect(list.entries.map(\.name.ascii) == ["first.example", "last.example"])
    #expect(list.problems.count == 1)
    #expect(list.problems.first?.line == 2)
    #expect(list.problems.first?.reason.contains(reason) == true, "\(list.problems.first?.reason ?? "")")
}

@Test("A line that is not UTF-8 is shown with replacement characters")
func lossyText() {
    let list = DomainList.parse(Data([0x62, 0xFC, 0x63, 0x68, 0x65, 0x72, 0x2E, 0x64, 0x65]), file: "latin1.txt")
    #expect(list.problems.map(\.text) == ["b\u{FFFD}cher.de"])
    #expect(list.problems.first?.reason == "not text: not valid UTF-8 (byte 0xFC at column 2)")
}

@Test("Random binary junk does not crash and keeps problem texts bounded")
func binaryJunk() {
    // A fixed-seed SplitMix64, eight bytes at a time: reproducible, and quick in a debug build.
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    var words = [UInt64](repeating: 0, count: (4 << 20) / 8)
    for index in words.indices {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        words[index] = z ^ (z >> 31)
    }
    var bytes = words.withUnsafeBytes { [UInt8]($0) }
    // Plus a long line without newlines or control bytes.
    bytes += [0x0A] + [UInt8](repeating: 0x61, count: 100_000) + [0x0A]
    let list = DomainList.parse(Data(bytes), file: "random.bin")
    #expect(list.entries.count <= 1)
    #expect(!list.problems.isEmpty)
    #expect(list.problems.allSatisfy { $0.text.count <= DomainList.maximumShownCharacters + 1 })
    #expect(list.problems.allSatisfy { $0.reason.count < 300 })
    // 4 MiB of junk has thousands of lines: the first are kept, the rest (the long line among them) counted.
    #expect(list.problems.count == DomainList.maximumKeptProblems)
    #expect(list.problemsOmitted > 0)
    let longLine = DomainList.parse(Data([UInt8](repeating: 0x61, count: 100_000) + [0x0A]), file: "long.txt")
    #expect(longLine.problems.first?.reason.contains("100000 bytes") == true)
}

/// How long it takes (a quadratic parse took hours) is `make bench-inputs`' `million-lines` case.
@Test("A million repeated lines parse into one entry")
func millionLines() {
    let data = Data(String(repeating: "example.com\n", count: 1_000_000).utf8)
    let list = DomainList.parse(data, file: "big.txt")
    #expect(list.entries.count == 1)
    #expect(list.duplicateCount == 999_999)
    // Only the first are kept (each holds the line); the rest are counted.
    #expect(list.duplicates.count == DomainList.maximumKeptProblems)
    #expect(list.duplicates.last?.line == DomainList.maximumKeptProblems + 1)
    #expect(list.problems.isEmpty)
}

@Test("Command-line arguments: no file, line is the argument position")
func arguments() {
    let list = DomainList.parse(arguments: ["example.com", "https://www.example.com/x", "", "localhost", "EXAMPLE.com", "# not a comment"])
    #expect(list.entries.map(\.name.ascii) == ["example.com", "www.example.com"])
    #expect(list.entries.map(\.line) == [1, 2])
    #expect(list.entries.allSatisfy { $0.file == nil })
    #expect(list.entries[1].note == "used the host www.example.com from the URL")
    #expect(list.problems.map(\.line) == [3, 4, 6])
    #expect(list.problems.allSatisfy { $0.file == nil })
    #expect(list.problems.map(\.text) == ["", "localhost", "# not a comment"])
    #expect(list.duplicates.map(\.line) == [5])
}

@Test("Combining lists keeps the first of each domain")
func combining() {
    let file = parse("a.example\nb.example\nbad_\n")
    let args = DomainList.parse(arguments: ["b.example", "c.example"])
    let all = DomainList.combining([file, args])
    #expect(all.entries.map(\.name.ascii) == ["a.example", "b.example", "c.example"])
    #expect(all.duplicates.map(\.file) == [nil])
    #expect(all.problems.count == 1)
}
