import Audit
import Foundation
@testable import Reporting
import Testing

/// The spool's encoder against the one it stands in for: `JSONEncoder` with report.json's options
/// must give the same bytes for every value, the report's own and the edge cases of each rule.
@Suite struct PrettySortedJSONEncoderTests {
    static func foundation() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    func expectSame<T: Encodable>(_ value: T, _ label: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let expected = try Self.foundation().encode(value)
        let actual = try PrettySortedJSONEncoder().encode(value)
        #expect(actual == expected, "\(label):\n\(String(decoding: actual, as: UTF8.self))\n---- JSONEncoder:\n\(String(decoding: expected, as: UTF8.self))",
                sourceLocation: sourceLocation)
    }

    /// The fixture reports' domains and the reports whole: every kind of result the reporters' tests make.
    @Test func everyFixtureDomainAndReport() throws {
        let reports = [ReportFixtures.report, ReportFixtures.current, ReportFixtures.baseline, ReportFixtures.small]
        for report in reports {
            try expectSame(report, "report of \(report.domains.count) domains")
            for domain in report.domains {
                try expectSame(domain, domain.domain)
                try expectSame(domain.bodiesApart { _, _ in }, "\(domain.domain), bodies apart")
                #expect(try JSONReporter.encodeDomain(domain) == Self.foundation().encode(domain))
                // As an element of `domains`: Foundation's bytes indented as the report indents them.
                #expect(try JSONReporter.encodeDomainElement(domain) == JSONReporter.indented(Self.foundation().encode(domain), separator: false))
            }
        }
    }

    /// The reports on disk (the snapshot, the fuzzers' crafted reports that decode): values no fixture makes.
    @Test func reportsReadBack() throws {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let files = [here.appendingPathComponent("Snapshots/report.json"), here.appendingPathComponent("Fuzz/Inputs/crash-dates-far-apart.json")]
        for file in files {
            let report = try JSONReporter.decode(Data(contentsOf: file))
            try expectSame(report, file.lastPathComponent)
            for domain in report.domains { try expectSame(domain, "\(file.lastPathComponent): \(domain.domain)") }
        }
    }

    /// Strings: what JSONWriter escapes (quote, backslash, every control character) and what it
    /// leaves (slashes, DEL, non-ASCII, U+2028).
    @Test(arguments: [
        "", "plain", "a\"b", "back\\slash", "/.well-known/apple-app-site-association", "tab\there", "line\nbreak",
        "\r\u{08}\u{0C}", "\u{00}\u{01}\u{1F}\u{1B}[31m", "\u{7F}", "üxn--b.test", "日本語", "emoji 🎉", "\u{2028}\u{2029}",
        "</script>", String(repeating: "x\u{10}", count: 100),
    ])
    func strings(_ text: String) throws {
        try expectSame(text, "top-level string")
        try expectSame([text: [text]], "key and element")
    }

    /// An escaped byte at every position of strings around the writer's eight-byte steps, and the
    /// bytes next to the escaped ones (and non-ASCII) left as they are.
    @Test func escapesAtEveryPosition() throws {
        for length in [1, 7, 8, 9, 15, 16, 17, 24] {
            for position in 0..<length {
                for special in ["\"", "\\", "\u{00}", "\u{1F}", "\n", "\u{08}"] {
                    var characters = Array(repeating: "a", count: length)
                    characters[position] = special
                    try expectSame([characters.joined()], "\(special.debugDescription) at \(position) of \(length)")
                }
            }
        }
        try expectSame(["\u{20}\u{21}\u{23}\u{5B}\u{5D}\u{7F}ÿ€😀abcdefgh", "!#[]~ !#[]~ !#[]~ "], "near misses")
    }

    /// Numbers: integers at their edges, doubles as `description` without `.0`, floats.
    @Test func numbers() throws {
        try expectSame([Int.min, -1, 0, 1, Int.max], "Int")
        try expectSame([UInt64.max], "UInt64")
        try expectSame([Int8.min], "Int8")
        try expectSame([UInt8.max], "UInt8")
        try expectSame([0.0, -0.0, 1.0, 1.5, 0.1 + 0.2, 1e-7, 1e16, 1e21, 123_456_789.125, -2.5e-300, .leastNonzeroMagnitude,
                        .greatestFiniteMagnitude, 1e300], "Double")
        try expectSame([Float(1.1), 3.0, .greatestFiniteMagnitude], "Float")
        try expectSame(true, "top-level Bool")
        try expectSame(42, "top-level Int")
    }

    @Test func nonFiniteNumbersAreRefusedByBoth() {
        #expect(throws: EncodingError.self) { try Self.foundation().encode([Double.nan]) }
        #expect(throws: EncodingError.self) { try PrettySortedJSONEncoder().encode([Double.nan]) }
        #expect(throws: EncodingError.self) { try PrettySortedJSONEncoder().encode(["k": Double.infinity]) }
    }

    /// The refusal names where the number is, as Foundation's does: array elements by index.
    @Test func aRefusalNamesTheElementsPath() {
        func path(_ encode: () throws -> Data) -> [String] {
            do {
                _ = try encode()
            } catch EncodingError.invalidValue(_, let context) {
                return context.codingPath.map { "\($0.stringValue)/\($0.intValue.map(String.init) ?? "-")" }
            } catch {}
            return ["no EncodingError"]
        }
        let value = ["k": [[1.0], [2.0, Double.nan]]]
        let ours = path { try PrettySortedJSONEncoder().encode(value) }
        #expect(ours == path { try Self.foundation().encode(value) })
        #expect(ours == ["k/-", "Index 1/1", "Index 1/1"])
    }

    /// Dates as ISO 8601 (fractions dropped), URLs as their absolute string.
    @Test func datesAndURLs() throws {
        let dates = [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_764_600_000.987), ReportFixtures.generatedAt,
                     Date(timeIntervalSince1970: -62_135_596_800), Date(timeIntervalSince1970: 253_402_300_799)]
        try expectSame(dates, "dates")
        try expectSame(["url": URL(string: "https://example.com/a%20b?q=1#f")!], "URL")
        try expectSame(Optional(ReportFixtures.generatedAt), "optional date")
    }

    /// The computed ISO 8601 text against the format style's: the edges of the computed range, days
    /// around leap days and year ends, and random instants with fractions of a second.
    @Test func computedDatesAsTheFormatStyle() {
        var instants: [Double] = [-2_208_988_800, -2_208_988_801, -1, -0.5, 0, 0.999, 0.9999, 951_782_400, 951_868_799, 4_107_542_399,
                                  253_402_300_799, 253_402_300_799.5, 253_402_300_800, -62_135_596_800, 1_764_600_000.987]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3000 { instants.append(Double.random(in: -2_300_000_000...253_500_000_000, using: &generator)) }
        for _ in 0..<1000 { instants.append(Double(Int.random(in: -2_300_000_000...4_200_000_000, using: &generator)) + [0, 0.5, 0.9989, 0.9991].randomElement(using: &generator)!) }
        for instant in instants {
            let date = Date(timeIntervalSince1970: instant)
            #expect(PrettySortedJSONEncoder.iso8601(date) == date.formatted(.iso8601), "\(instant)")
        }
    }

    /// Keys sorted by their UTF-8 bytes: capitals first, a prefix before its extensions, non-ASCII last.
    @Test func keyOrder() throws {
        let keys = ["b", "a", "B", "ab", "a.b", "a b", "_", "é", "z", "Z9", "10", "9", "", "aa"]
        try expectSame(Dictionary(uniqueKeysWithValues: keys.map { ($0, $0) }), "keys")
    }

    /// The writer compares keys' first eight bytes as numbers first: keys alike in those eight, a key
    /// that is another's first eight bytes, a NUL where a shorter key ends, multi-byte characters
    /// across the eighth byte; in an object of a few keys (sorted in place) and of many (sorted by
    /// the library), in every order they could be set in.
    @Test(arguments: [5, 40])
    func keyOrderBeyondEightBytes(count: Int) throws {
        let alike = ["certific", "certificate", "certificates", "certificatf", "certifica", "certific\u{0}",
                     "certific\u{0}\u{0}", "abcdefgé", "abcdefgh", "abcdefgéa", "abcdefghé", "abcdefg", "é"]
        var keys = alike
        var index = 0
        while keys.count < count + alike.count { keys.append("key\(index)"); index += 1 }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let shuffled = keys.shuffled(using: &generator)
            try expectSame(Dictionary(uniqueKeysWithValues: shuffled.map { ($0, $0.utf8.count) }), "keys \(shuffled)")
        }
    }

    /// Many keys, some set twice out of order: the last value of each is kept in a large object too.
    @Test func manyKeysSetTwice() throws {
        struct Many: Encodable {
            func encode(to encoder: Encoder) throws {
                var container = encoder.container(keyedBy: IndexKey.self)
                for index in (0..<40).reversed() { try container.encode("first \(index)", forKey: IndexKey("key \(index % 37)")) }
                for index in [3, 1, 2] { try container.encode("again \(index)", forKey: IndexKey("key \(index)")) }
            }
        }
        try expectSame(Many(), "many keys")
    }

    struct IndexKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ text: String) { stringValue = text }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    struct Shapes: Encodable {
        var empty: [Int] = []
        var emptyObject: [String: Int] = [:]
        var nested: [[String: [Int]]] = [["x": []], [:]]
        var absent: String?
        var present: String? = "here"
        var nothing = EncodesNothing()
        var twice = AsksTwice()
        var again = SetsAKeyTwice()
        var containers = NestedContainers()
        var kind = Kind.second(7, label: "x")
        var single = SingleArray()
    }

    struct EncodesNothing: Encodable {
        func encode(to encoder: Encoder) throws {}
    }

    /// Asks for the keyed container twice: one object with the keys of both.
    struct AsksTwice: Encodable {
        enum Key: String, CodingKey { case one, two }
        func encode(to encoder: Encoder) throws {
            var first = encoder.container(keyedBy: Key.self)
            try first.encode(1, forKey: .one)
            var second = encoder.container(keyedBy: Key.self)
            try second.encode(2, forKey: .two)
        }
    }

    /// The same key set twice: the last value is kept, as in JSONEncoder's dictionary.
    struct SetsAKeyTwice: Encodable {
        enum Key: String, CodingKey { case key, other }
        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode("first", forKey: .key)
            try container.encode(0, forKey: .other)
            try container.encode("last", forKey: .key)
        }
    }

    struct NestedContainers: Encodable {
        enum Key: String, CodingKey { case inner, list, nilValue }
        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            var inner = container.nestedContainer(keyedBy: Key.self, forKey: .inner)
            try inner.encode([1, 2], forKey: .list)
            try inner.encodeNil(forKey: .nilValue)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            try list.encode("a")
            try list.encodeNil()
            var deeper = list.nestedContainer(keyedBy: Key.self)
            try deeper.encode(true, forKey: .inner)
            var deepest = list.nestedUnkeyedContainer()
            try deepest.encode(1.5)
            _ = list.nestedUnkeyedContainer()
        }
    }

    enum Kind: Encodable {
        case first
        case second(Int, label: String)
    }

    struct SingleArray: Encodable {
        func encode(to encoder: Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(["in", "a", "single", "value"])
        }
    }

    /// At a depth, every line is that much deeper but an empty container's blank line.
    @Test func deeperIsIndentedAsTheReportIndentsAnElement() throws {
        for value in [Shapes(), Shapes()] {
            let deeper = try PrettySortedJSONEncoder().encode(value, depth: 2)
            #expect(deeper == JSONReporter.indented(try Self.foundation().encode(value), separator: false))
        }
        #expect(try PrettySortedJSONEncoder().encode(["a": 1], depth: 1) == Data("  {\n    \"a\" : 1\n  }".utf8))
    }

    @Test func shapes() throws {
        try expectSame(Shapes(), "shapes")
        try expectSame([Shapes(), Shapes()], "shapes in an array")
        #expect(throws: EncodingError.self) { try Self.foundation().encode(EncodesNothing()) }
        #expect(throws: EncodingError.self, "a top-level value that encodes nothing") { try PrettySortedJSONEncoder().encode(EncodesNothing()) }
        try expectSame([String](), "a top-level empty array")
    }

    /// What it does not write as JSONEncoder would, it refuses, and `encodeDomain` asks JSONEncoder.
    @Test func refusesWhatItDoesNotReproduce() {
        #expect(throws: PrettySortedJSONEncoder.Unsupported.self) { try PrettySortedJSONEncoder().encode(["d": Data([1, 2])]) }
        #expect(throws: PrettySortedJSONEncoder.Unsupported.self) { try PrettySortedJSONEncoder().encode([Decimal(1)]) }
        #expect(throws: PrettySortedJSONEncoder.Unsupported.self) { try PrettySortedJSONEncoder().encode(UsesSuper()) }
    }

    final class UsesSuper: Encodable {
        enum Key: String, CodingKey { case value }
        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            var parent = container.superEncoder().singleValueContainer()
            try parent.encode(1)
        }
    }
}
