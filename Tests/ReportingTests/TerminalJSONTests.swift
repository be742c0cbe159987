import Foundation
import Testing
@testable import Reporting

/// JSON printed on standard output carries no character a terminal acts on, and decodes to the same values.
@Suite struct TerminalJSONTests {
    static let hostile = ["\u{9B}2J", "\u{1B}]0;t\u{07}", "\u{202E}evil\u{2066}", "del\u{7F}", "line\u{2028}sep", "plain ü €"]

    @Test func controlsAreEscapedAndTheValuesReadBack() throws {
        let data = try JSONEncoder().encode(Self.hostile)
        let text = TerminalText.jsonForTerminal(data)
        let bad = text.unicodeScalars.filter { v in
            v.value < 0x20 || (0x7F...0x9F).contains(v.value) || (0x202A...0x202E).contains(v.value) || (0x2066...0x2069).contains(v.value)
        }
        #expect(bad.isEmpty, "\(bad.map { String($0.value, radix: 16) })")
        #expect(try JSONDecoder().decode([String].self, from: Data(text.utf8)) == Self.hostile)
        #expect(text.contains("plain ü €"), "other text is left as it is")
    }
}
