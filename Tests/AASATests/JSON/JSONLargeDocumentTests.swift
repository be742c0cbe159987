import Foundation
import Testing
@testable import AASA

/// 1 MiB documents shaped to make a careless parser quadratic: tens of thousands of repeated keys on
/// one line, in one object and in objects nested deep. The tests check what is found (every repeat,
/// with the right line and column); the time is printed, never asserted (speed belongs to `make bench`).
@Suite struct JSONLargeDocumentTests {
    static let mebibyte = 1 << 20

    /// `{"k":0,"k":0,...}` on one line, padded to exactly 1 MiB.
    static func repeatedKeysOnOneLine() -> (bytes: [UInt8], repeats: Int) {
        var text = "{"
        var members = 0
        while text.utf8.count + 8 < mebibyte {
            text += members == 0 ? "\"k\":0" : ",\"k\":0"
            members += 1
        }
        text += String(repeating: " ", count: mebibyte - text.utf8.count - 1) + "}"
        return (Array(text.utf8), members - 1)
    }

    func timed<T>(_ label: String, _ body: () throws -> T) rethrows -> T {
        let clock = ContinuousClock()
        var result: T?
        let elapsed = try clock.measure { result = try body() }
        print("\(label): \(elapsed)")
        return result!
    }

    @Test func everyRepeatOnOneLongLineIsFoundWithItsColumn() throws {
        let (bytes, repeats) = Self.repeatedKeysOnOneLine()
        #expect(bytes.count == Self.mebibyte)
        let document = try timed("parse 1 MiB, \(repeats) repeated keys on one line") { try JSONParser.parse(bytes) }
        #expect(document.duplicateKeys.count == repeats)
        // Member 0 is `"k":0` at byte 1; member n > 0 is `,"k":0` at byte 6n, its quote at byte 6n + 1.
        let last = try #require(document.duplicateKeys.last)
        #expect(last.line == 1 && last.column == 6 * repeats + 2)
        #expect(last.pointer == "" && last.key == "k")
    }

    @Test func theWholeValidationOfA1MiBDocumentOfRepeatsFinishes() {
        let (bytes, repeats) = Self.repeatedKeysOnOneLine()
        let validation = timed("validate 1 MiB, \(repeats) repeated keys") { DocumentValidator.validate(json: bytes) }
        let duplicates = validation.findings.filter { $0.id == "json.duplicate-key" }
        #expect(duplicates.count == JSONCheck.duplicateLimit + 1)
        #expect(duplicates.last?.message.hasPrefix("\(repeats - JSONCheck.duplicateLimit) more") == true)
    }

    @Test func repeatsInDeeplyNestedObjectsKeepTheirPointer() throws {
        // 400 levels of {"a": ... }, the innermost object holding many repeats.
        let depth = 400
        var text = String(repeating: "{\"a\":", count: depth) + "{\"x\":1"
        let repeats = 100_000
        for _ in 0..<repeats { text += ",\"x\":1" }
        text += "}" + String(repeating: "}", count: depth)
        let document = try timed("parse \(text.utf8.count) bytes, \(repeats) repeats \(depth) levels deep") {
            try JSONParser.parse(Array(text.utf8))
        }
        #expect(document.duplicateKeys.count == repeats)
        #expect(document.duplicateKeys.last?.pointer == String(repeating: "/a", count: depth))
    }
}
