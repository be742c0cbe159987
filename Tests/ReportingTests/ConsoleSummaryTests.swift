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

    @Test func domainLinesAreWholeOffATerminalAndTotalsLast() throws {
        let lines = ConsoleSummary.render(ReportFixtures.report, colour: false).split(separator: "\n")
        // Input problems are told on stderr as the list is read, not in the summary.
        #expect(lines.first == "PASS  good.example")
        #expect(lines.last == "7 domains: 2 pass, 2 warn, 3 fail; 2 input errors (skipped)")
        #expect(lines.contains("FAIL  expired.example  The certificate expired on 2026-11-20, 9 days before this check."))
        #expect(lines.contains("WARN  fallback.example  Only the root location serves the file; Apple uses it as a fallback, but /.well-known/apple-app-site-association is the documented place."))
        #expect(!lines.contains { $0.hasSuffix("…") }, "nothing is cut off a terminal")
        #expect(lines.contains("PASS  bücher.example (xn--bcher-kva.example)"))
    }

    @Test(arguments: [40, 60, 80, 100])
    func domainLinesFitTheTerminalWidth(width: Int) {
        let text = ConsoleSummary.render(ReportFixtures.report, colour: false, width: width)
        let domainLines = text.split(separator: "\n").filter { ["PASS", "WARN", "FAIL"].contains($0.prefix(4)) }
        #expect(domainLines.count == ReportFixtures.report.domains.count)
        for line in domainLines { #expect(TerminalLine.columns(String(line)) <= width, "\(line)") }
    }

    @Test func theCutKeepsTheGistBeforeTheURLTail() throws {
        let text = ConsoleSummary.render(ReportFixtures.report, colour: true, width: 140)
        let line = try #require(text.split(separator: "\n").first { $0.contains("redirect.example") })
        // The URL is shortened to its host; what Apple does about it stays on the line.
        #expect(line.hasSuffix("FAIL\u{1B}[0m  redirect.example  The server answers HTTP 301 and redirects to https://www.redirect.example/…; Apple does not follow redirects."))
    }

    @Test func fitting() {
        #expect(TerminalLine.fit("short", toColumns: 10) == "short")
        #expect(TerminalLine.fit("abcdef ghijkl", toColumns: 8) == "abcdef…")
        #expect(TerminalLine.fit("go to https://a.example/very/long/path; then", toColumns: 35) == "go to https://a.example/…; then")
        #expect(TerminalLine.fit("go to https://a.example/very/long/path; then", toColumns: 20) == "go to https://a.exa…")
        #expect(TerminalLine.columns("日本") == 4)
        #expect(TerminalLine.columns(TerminalLine.fit(String(repeating: "日", count: 30), toColumns: 9)) <= 9)
        #expect(TerminalLine.fit("x", toColumns: 0) == "")
    }

    @Test func detailsForAnyNumberOfDomains() {
        var domains: [DomainResult] = []
        for index in 0..<15 {
            var domain = ReportFixtures.expired
            domain.domain = "expired\(index).example"
            domains.append(domain)
        }
        let report = AuditReport(tool: ReportFixtures.tool, generatedAt: ReportFixtures.generatedAt, domains: domains)
        let plain = ConsoleSummary.render(report, colour: false)
        #expect(!plain.contains("fix: Renew the certificate"), "past 10 domains, no details by default")
        let detailed = ConsoleSummary.render(report, colour: false, details: true)
        // Once per domain: the same finding at both locations is listed once, naming both.
        #expect(detailed.components(separatedBy: "error tls.expired").count - 1 == 15)
        #expect(detailed.components(separatedBy: "fix: Renew the certificate and install the full chain.").count - 1 == 15)
        #expect(detailed.components(separatedBy: "/.well-known/apple-app-site-association and /apple-app-site-association").count - 1 == 15)
        #expect(detailed.contains("\nexpired14.example:\n"))
        // Fitted to a narrow terminal, details wrap (never cut).
        let narrow = ConsoleSummary.render(report, colour: false, width: 50, details: true)
        #expect(narrow.contains("      fix: Renew the certificate and install the\n        full chain.\n"))
        // The heading naming both locations wraps too, at a word: a terminal would break it mid-name.
        #expect(narrow.contains("\n  /.well-known/apple-app-site-association and\n    /apple-app-site-association\n"))
        for line in narrow.split(separator: "\n") { #expect(TerminalLine.columns(String(line)) <= 50, "\(line)") }
    }

    @Test func quietLinesNameEachFailingDomainWithItsHeadline() {
        let lines = ConsoleSummary.quietLines([ReportFixtures.expired, ReportFixtures.redirecting], program: "aasa-audit")
        #expect(lines == ["aasa-audit: FAIL expired.example: The certificate expired on 2026-11-20, 9 days before this check.",
                          "aasa-audit: FAIL redirect.example: The server answers HTTP 301 and redirects to https://www.redirect.example/.well-known/apple-app-site-association; Apple does not follow redirects."])
        let narrow = ConsoleSummary.quietLines([ReportFixtures.redirecting], program: "aasa-audit", width: 80)
        #expect(narrow.allSatisfy { TerminalLine.columns($0) <= 80 })
    }

    @Test func inputProblemsAreWholeThenCounted() {
        let long = String(repeating: "x", count: 150)
        let problems = (1...25).map { InputProblem(file: "domains.txt", line: $0, text: "example.com stays=\(long)",
                                                   reason: "expectation \"stays=\(long)\": stays= takes a path on this domain starting with \"/\", e.g. stays=/buy/42") }
        let lines = ConsoleSummary.inputProblemLines(problems, total: 2_000_000)
        #expect(lines.count == ConsoleSummary.shownProblems + 1)
        #expect(lines[0].hasPrefix("domains.txt:1: \"example.com stays=xxx"))
        #expect(lines[0].hasSuffix("e.g. stays=/buy/42"), "never cut: the fix is at the end")
        #expect(lines.last == "… and 1999980 more input errors: report.json lists the first 1000 (inputErrors) and counts the rest (inputErrorsOmitted)")
        #expect(ConsoleSummary.inputProblemLines(Array(problems.prefix(3)), total: 3).count == 3)
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
