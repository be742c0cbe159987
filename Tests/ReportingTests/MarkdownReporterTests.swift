import AASA
import Audit
import Foundation
import Testing
@testable import Reporting

@Suite struct MarkdownReporterTests {
    let markdown = MarkdownReporter.render(ReportFixtures.report)

    @Test(arguments: [
        ("a|b", "a\\|b"), ("`code`", "`code`"), ("a ` b", "a \\` b"), ("``", "\\`\\`"), ("*bold* _it_", "\\*bold\\* \\_it\\_"),
        ("<script>alert(1)</script>", "\\<script\\>alert(1)\\</script\\>"), ("line\nbreak\r\nagain", "line break again"),
        ("[x](https://evil.example)", "`[x](https://evil.example)`"), ("go www.evil.example", "go `www.evil.example`"),
        ("a|https://e.example/|b", "`a`\\|`https://e.example/`\\|`b`"), ("x@y.example", "`x@y.example`"), ("to https://x.example/a; then", "to `https://x.example/a`; then"), ("![i](u)", "\\!\\[i\\](u)"),
        ("&amp; # ~~s~~ \\", "\\&amp; \\# \\~\\~s\\~\\~ \\\\"), ("red\u{1B}[31mtext\u{07}", "redtext"),
        ("tab\there", "tab here"), ("moc.\u{202E}elgoog", "moc.elgoog"),
        // Parentheses of the prose stay outside the span; a URL's own (balanced) ones stay in it.
        ("(error: Could not resolve host: www.c.example)", "(error: Could not resolve host: `www.c.example`)"),
        ("(https://x.example/a).", "(`https://x.example/a`)."), ("https://x.example/a_(b)", "`https://x.example/a_(b)`"),
    ])
    func escapesHostileValues(raw: String, escaped: String) {
        #expect(MarkdownEscaping.escape(raw) == escaped)
    }

    @Test func hostileValuesCannotBreakTheTableOrTheLines() throws {
        var domain = ReportFixtures.hostile
        domain.verdict = .fail
        domain.unicodeDomain = "a|b`c*d<e>\nf.example"
        domain.locations[0].findings = [Finding(id: "json.syntax", severity: .error, message: "bad | cell\n# heading\n- item <img src=x onerror=alert(1)>",
                                                fix: "fix `this` | *now*")]
        let text = MarkdownReporter.render(AuditReport(tool: ReportFixtures.tool, generatedAt: ReportFixtures.generatedAt, domains: [domain]))
        let row = try #require(text.split(separator: "\n").first { $0.hasPrefix("| a") })
        // Exactly four unescaped pipes: the row keeps its three cells.
        var pipes = 0, previous: Character = " "
        for character in row {
            if character == "|" && previous != "\\" { pipes += 1 }
            previous = character
        }
        #expect(pipes == 4, "\(row)")
        #expect(row.contains("a\\|b\\`c\\*d\\<e\\> f.example"))
        #expect(!text.contains("\n# heading") && !text.contains("\n- item"))
        #expect(text.contains("\\<img src=x onerror=alert(1)\\>"))
        let bareAngles = zip(text.unicodeScalars.dropFirst(), text.unicodeScalars).filter { $0.0 == "<" && $0.1 != "\\" }
        #expect(bareAngles.isEmpty, "every < is escaped")
        #expect(text.contains("Fix: fix `this` \\| \\*now\\*"), "code between backticks is a code span")
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    }

    @Test func listsVerdictsFailuresFirstWithFixesAndTheChanges() throws {
        #expect(markdown.hasPrefix("# AASA audit, 2026-11-29 19:00:00 UTC\n"))
        #expect(markdown.contains("**3 fail · 2 warn · 2 pass** of 7 domains"))
        #expect(markdown.contains("| expired.example | ✖ **fail** | The certificate expired on 2026-11-20, 9 days before this check. |"))
        let expired = try #require(markdown.range(of: "| expired.example |")), good = try #require(markdown.range(of: "| good.example |"))
        #expect(expired.lowerBound < good.lowerBound)
        #expect(markdown.contains("- **error** `tls.expired` (/.well-known/apple-app-site-association, /apple-app-site-association): The certificate expired"))
        #expect(markdown.contains("  \n  Fix: Renew the certificate and install the full chain."))
        #expect(markdown.contains("## Changes since 2026-11-15 19:00:00 UTC"))
        #expect(markdown.contains("- **Newly failing:** expired.example (was pass): `tls.expired`"))
        #expect(markdown.contains("- **Recovered:** good.example (now pass)"))
        #expect(markdown.contains("- Certificate of expired.example expired: expired 9 days ago (5 days left at the baseline)"))
        #expect(markdown.contains("- Domains removed: retired.example"))
        #expect(markdown.contains("404 \\<script\\>alert(1)\\</script\\> instead of 200."), "the baseline's messages are escaped too")
        #expect(!markdown.contains("<script>"))
        // Passing domains are in the table but get no problem section.
        #expect(!markdown.contains("### good.example"))
    }

    @Test func saysWhenNothingChangedAndWhenInterrupted() {
        var report = ReportFixtures.small
        report.complete = false
        report.notAudited = ["later.example"]  // as an interrupted run always has (PartialRun)
        report.changes = ReportChanges(baselineGeneratedAt: ReportFixtures.generatedAt, baselinePath: nil)
        let text = MarkdownReporter.render(report)
        #expect(text.contains("Nothing changed since the baseline run."))
        #expect(text.contains("**This run was interrupted**"))
    }

    @Test func longReportsStayShort() {
        let domains = (1...200).map { i -> DomainResult in
            var d = ReportFixtures.dnsFailure
            d.domain = "d\(i).example"
            return d
        }
        let text = MarkdownReporter.render(AuditReport(tool: ReportFixtures.tool, generatedAt: ReportFixtures.generatedAt, domains: domains))
        #expect(text.components(separatedBy: "\n### ").count - 1 == MarkdownReporter.maxDetailedDomains)
        #expect(text.contains("… and 150 more domains with problems; see report.html."))
    }
    /// A nightly list of thousands still gives a pasteable report: the table is cut after
    /// `maxTableRows` rows, worst first, and says how many of each verdict it left out.
    @Test func longListsKeepTheTableShort() {
        var domains = (1...2_000).map { i -> DomainResult in
            var d = ReportFixtures.dnsFailure
            d.domain = "p\(i).example"
            d.verdict = .pass
            d.findings = []
            d.locations = []
            return d
        }
        var failing = ReportFixtures.dnsFailure
        failing.domain = "broken.example"
        domains.append(failing)
        let text = MarkdownReporter.render(AuditReport(tool: ReportFixtures.tool, generatedAt: ReportFixtures.generatedAt, domains: domains))
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| Domain |") }
        #expect(rows.count == MarkdownReporter.maxTableRows)
        #expect(rows.first?.hasPrefix("| broken.example |") == true, "failures first")
        #expect(text.contains("… and 1901 more domains not listed (1901 pass); see report.html."), "\(text.suffix(300))")
        #expect(text.utf8.count < 30_000, "short enough to paste: \(text.utf8.count) bytes")
    }
}
