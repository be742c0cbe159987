import Foundation
import Testing
@testable import Reporting

/// One set of unsafe characters under every escaper: none of them reaches any output as it is.
@Suite struct UnsafeCharacterTests {
    static let samples: [(Unicode.Scalar, UnsafeCharacter?)] = [
        ("\u{00}", .c0), ("\u{1B}", .c0), ("\u{1F}", .c0), ("\u{7F}", .delete), ("\u{80}", .c1), ("\u{9B}", .c1),
        ("\u{9F}", .c1), ("\u{202A}", .bidi), ("\u{202E}", .bidi), ("\u{2066}", .bidi), ("\u{2069}", .bidi),
        (" ", nil), ("a", nil), ("\u{A0}", nil), ("\u{2029}", nil), ("é", nil),
    ]

    @Test func classifiesControlC1AndBidiCharacters() {
        for (scalar, kind) in Self.samples {
            #expect(UnsafeCharacter(scalar) == kind, "U+\(String(scalar.value, radix: 16, uppercase: true))")
        }
    }

    @Test func noEscaperPassesAnUnsafeCharacterOn() throws {
        // Tab, line feed and carriage return are kept by HTML (served bodies keep their shape); XML writes references.
        // The terminal-JSON escaper reads encoder output, in which the encoder has escaped the C0 controls.
        let kept: Set<UInt32> = [0x09, 0x0A, 0x0D]
        for (scalar, kind) in Self.samples where kind != nil {
            let text = "a\(Character(scalar))b"
            for (name, output) in [("HTML", HTMLEscaping.escape(text)), ("XML", XMLEscaping.escape(text)),
                                   ("Markdown", MarkdownEscaping.escape(text)), ("terminal", TerminalText.sanitize(text)),
                                   ("terminal JSON", TerminalText.jsonForTerminal(try JSONEncoder().encode([text])))] {
                #expect(!output.unicodeScalars.contains { $0 == scalar && !kept.contains($0.value) },
                        "\(name) passed U+\(String(scalar.value, radix: 16, uppercase: true)) on")
            }
        }
    }
}
