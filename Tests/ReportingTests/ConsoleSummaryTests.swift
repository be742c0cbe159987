import Audit
import Foundation
import Testing
@testable import Reporting

@Suite struct ConsoleSummaryTests {
    @Test func hasNoEscapeByteWithoutColour() {
        let text = ConsoleSummary.render(ReportFixtures.report, colour: false)
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(!text.unicodeScalars.contains { (0x7F..<0xA0).contains($0.value) })
    }

    @Test func colourOnlyWrapsVerdicts() {
        var text = ConsoleSummary.render(ReportFixtures.report, colour: true)
        #expect(text.contains("\u{1B}[1;31mFAIL\u{1B}[0m  expired.example"))
        for code in ["31", "32", "33"] { text = text.replacingOccurrences(of: "\u{1B}[1;\(code)m", with: "") }
        text = text.replacingOccurrences(of: "\u{1B}[0m", with: "")
        #expect(!text.unicodeScalars.contains("\u{1B}"))
    }

    @Test func listsInputProblemsFirstAndTotalsLast() throws {
        let lines = ConsoleSummary.render(ReportFixtures.report, colour: false).split(separator: "\n")
        #expect(lines.first == "domains.txt:7: \"foo bar\": contains a space; one domain per line")
        #expect(lines[1] == "domains.txt:9: \"<script>alert(1)</script>\": not a domain name: \"onload= is not allowed")
        #expect(lines.last == "7 domains: 2 pass, 2 warn, 3 fail; 2 input lines skipped")
        #expect(lines.allSatisfy { $0.count <= ConsoleSummary.lineWidth })
        #expect(lines.contains("FAIL  expired.example  The certificate expired on 2026-11-20, 9 days before this check."))
        #expect(lines.contains { $0.hasPrefix("WARN  fallback.example  Only the root location") && $0.hasSuffix("…") })
        #expect(lines.contains("PASS  bücher.example (xn--bcher-kva.example)"))
    }

    @Test func totalsLineWithoutInputProblems() {
        let report = AuditReport(tool: ReportFixtures.tool, generatedAt: ReportFixtures.generatedAt,
                                 domains: [ReportFixtures.passing, ReportFixtures.fallback, ReportFixtures.expired])
        let text = ConsoleSummary.render(report, colour: false)
        #expect(text.hasSuffix("\n3 domains: 1 pass, 1 warn, 1 fail\n"))
    }

    @Test func saysWhenInterrupted() {
        var report = ReportFixtures.small
        report.complete = false
        #expect(ConsoleSummary.render(report, colour: false).contains("Interrupted: only the 2 domains above were checked."))
    }

    @Test(arguments: [
        ("plain", "plain"),
        ("\u{1B}[31mred\u{1B}[0m", "red"),
        ("\u{1B}[2J\u{1B}[1;1Hhome", "home"),
        ("\u{1B}]0;title\u{07}after", "after"),
        ("\u{1B}]8;;https://x.example\u{1B}\\link\u{1B}]8;;\u{1B}\\", "link"),
        ("\u{9B}31mc1", "c1"),
        ("\u{9D}osc\u{9C}done", "done"),
        ("bell\u{07}cr\roverwrite", "bellcroverwrite"),
        ("a\tb\nc", "a b c"),
        ("\u{1B}7saved\u{1B}8", "saved"),
        ("\u{1B}(Bcharset", "charset"),
        ("abc\u{202E}cba", "abccba"),
        ("unterminated \u{1B}]0;title", "unterminated "),
        ("trailing\u{1B}", "trailing"),
        ("del\u{7F}x", "delx"),
        ("bücher ✓", "bücher ✓"),
    ])
    func sanitizeRemovesControls(input: String, expected: String) {
        #expect(TerminalText.sanitize(input) == expected)
    }

    @Test func truncatesToWidth() {
        #expect(TerminalText.truncate("abcdef", toWidth: 4) == "abc…")
        #expect(TerminalText.truncate("abc", toWidth: 4) == "abc")
    }
}
