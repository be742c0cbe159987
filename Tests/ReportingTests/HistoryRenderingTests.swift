import AASA
import Audit
import Foundation
import Reporting
import Testing
import TestSupport

/// What the history adds, in every reporter: the HTML page as Chromium prints it (trend chart
/// included), Markdown and the terminal.
@Suite struct HistoryRenderingTests {
    static let day = 86_400.0

    /// The fixture report with a history of 30 runs of the list.
    static let report: AuditReport = {
        var report = ReportFixtures.report
        let now = report.generatedAt
        let trend = (0..<30).map { index in
            RunTally(generatedAt: now.addingTimeInterval(Double(index - 29) * day), pass: 60 + index, warn: 20 - index / 3,
                     fail: 20 - index / 2, complete: index != 12)
        }
        report.history = ReportHistory(
            earlierListRuns: 29,
            failingSince: [FailingStreak(domain: "expired.example", since: now.addingTimeInterval(-3 * day), runs: 4)],
            fixed: [FixedDomain(domain: "good.example", afterRuns: 2, verdict: .pass)],
            flapping: [FlappingDomain(domain: "redirect.example", changes: 3, verdicts: [.pass, .fail, .pass, .fail])],
            expiringCertificates: [ExpiringCertificate(domain: "fallback.example", notAfter: now.addingTimeInterval(9 * day + 60),
                                                       daysLeft: 9, issuer: "Test <CA>", expiry: .expiringSoon)],
            trend: trend)
        return report
    }()

    @Test func theHTMLPageShowsTheHistoryAndItsChartInPrint() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let file = folder.appendingPathComponent("report.html")
        let html = HTMLReporter.render(Self.report)
        try html.write(to: file, atomically: true, encoding: .utf8)
        let text = try HeadlessBrowser.visibleText(of: file)
        for phrase in ["History", "From the history: 29 earlier runs of the domain list.",
                       "failing since 2026-", "(4 runs)", "fixed after 2 failing runs (now pass)",
                       "verdict changed 3 times in the last 4 runs: pass → fail → pass → fail",
                       "Certificates expiring within 30 days", "9 days left", "Test <CA>",
                       "Pass, warn and fail per run over the last 30 runs of the domain list"] {
            #expect(text.contains(phrase), "the printed page does not show \"\(phrase)\"")
        }
        // The chart: one group per run, each with its counts as a tooltip; no external asset.
        let start = try #require(html.range(of: "<section class=\"box history\""))
        let end = try #require(html.range(of: "</section>", range: start.upperBound..<html.endIndex))
        let section = String(html[start.lowerBound..<end.upperBound])
        #expect(section.components(separatedBy: "<g").count - 1 == 30)
        #expect(section.contains("(interrupted)</title>") && section.contains("Test &lt;CA&gt;"))
        #expect(!section.contains("src=") && !section.contains("href=\"http") && !section.contains("xlink:href"))
        if let png = ProcessInfo.processInfo.environment["HISTORY_SCREENSHOT"] {
            try HeadlessBrowser.screenshot(of: file, to: URL(fileURLWithPath: png), width: 1000, height: 900)
            try html.write(toFile: png + ".html", atomically: true, encoding: .utf8)
        }
    }

    @Test func markdownAndTheTerminalSayTheSame() {
        let markdown = MarkdownReporter.render(Self.report)
        #expect(markdown.contains("## History\n\nFrom the history: 29 earlier runs of the domain list.\n"))
        #expect(markdown.contains("- **expired.example**: failing since "))
        #expect(markdown.contains("- **good.example**: fixed after 2 failing runs (now pass)"))
        #expect(markdown.contains("- **Flapping:** redirect.example: verdict changed 3 times"))
        #expect(markdown.contains("- fallback.example: expires "))
        #expect(markdown.contains("Test \\<CA\\>") || markdown.contains("Test &lt;CA&gt;"), "the issuer is escaped")
        let terminal = ConsoleSummary.render(Self.report, colour: false)
        #expect(terminal.contains("Failing: expired.example since "))
        #expect(terminal.contains("Fixed: good.example after 2 runs"))
        #expect(terminal.contains("Flapping: redirect.example (3 changes in 4 runs)"))
        #expect(terminal.contains("Certificates expiring within 30 days: fallback.example "))
    }

    @Test func aReportWithoutHistoryHasNoSectionAndOlderReportsDecode() throws {
        #expect(!HTMLReporter.render(ReportFixtures.report).contains("id=\"history\""))
        #expect(!MarkdownReporter.render(ReportFixtures.report).contains("## History"))
        let data = try JSONReporter.render(Self.report)
        let decoded = try JSONReporter.decode(data)
        #expect(decoded.history == Self.report.history)
        let old = try JSONReporter.decode(try JSONReporter.render(ReportFixtures.report))
        #expect(old.history == nil)
    }
}
