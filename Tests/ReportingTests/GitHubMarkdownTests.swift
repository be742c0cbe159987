import Audit
import Foundation
import Testing
import TestSupport
@testable import Reporting

/// report.md as GitHub shows it: rendered by the real cmark-gfm with GitHub's extensions (a test
/// fails, never skips, when cmark-gfm is missing). No text from a server or a report file becomes a
/// link or an image, bare URLs, `www.` names and e-mail addresses included; code renders as code;
/// the reader still reads the text as it was.
@Suite struct GitHubMarkdownTests {
    static let hostileTexts = [
        "https://evil.example/phish?x=1", "see www.evil.example now", "WWW.EVIL.EXAMPLE", "mail admin@evil.example today",
        "mailto:admin@evil.example", "xmpp:admin@evil.example", "ftp://evil.example/file", "(www.evil.example)",
        "*www.evil.example*", "_https://evil.example_", "a|https://evil.example/|b", "`https://evil.example`",
        "``www.evil.example``", "<https://evil.example>", "[x](https://evil.example)", "![i](https://evil.example/i.png)",
        "&#64;evil &#x2F;&#x2F; https&#58;//evil.example", "@someone please look", "https\\://evil.example", "www\\.evil.example",
        "http:`x`//evil.example", "trail www.", "https://evil.example/a`b`c",
    ]

    /// One finding per hostile text, in a message, a fix, an id, a domain name and the table.
    static func report(with text: String) -> AuditReport {
        var domain = ReportFixtures.redirecting
        domain.unicodeDomain = text
        domain.locations[0].findings = [Finding(id: text, severity: .error, message: "Message: \(text) end.", fix: "Fix: \(text) end.")]
        domain.locations[1].findings = []
        // Judged again from what it now holds (deviceGets too, which judge keeps once set).
        domain.deviceGets = nil
        domain.judge(at: nil)
        var report = AuditReport(tool: ReportFixtures.tool, generatedAt: ReportFixtures.generatedAt, complete: true,
                                 inputErrors: [InputProblem(file: "domains.txt", line: 3, text: text, reason: "bad: \(text)")],
                                 domains: [domain])
        report.changes = ReportChanges.between(baseline: ReportFixtures.baseline, current: report, baselinePath: "b.json", expiryWarningDays: 30)
        return report
    }

    @Test(arguments: hostileTexts)
    func serverTextNeverBecomesALinkOrAnImage(text: String) throws {
        let markdown = MarkdownReporter.render(Self.report(with: text))
        let html = try MarkdownInspector.renderGitHubFlavoured(markdown)
        let links = MarkdownInspector.links(inHTML: html)
        #expect(links.isEmpty, "\(links.prefix(3))")
        #expect(!html.contains("<script") && !html.contains("<img"))
        // The reader sees the message as it was sent (a table cell that broke at a `|` would lose
        // its end, which cmark-gfm drops), backticks apart: they mark code.
        if !text.contains("`") {
            #expect(MarkdownInspector.visibleText(ofHTML: html).contains("Message: \(text) end."), "\(html)")
        }
    }

    /// The text reads as it was sent, only in a code font where it could have been a link.
    @Test(arguments: ["https://evil.example/phish?x=1", "see www.evil.example now", "mail admin@evil.example today",
                      "a|https://evil.example/|b", "*not emphasis* <b>not bold</b> [not](a link)"])
    func theReaderSeesTheTextAsSent(text: String) throws {
        let html = try MarkdownInspector.renderGitHubFlavoured(MarkdownEscaping.escape("Message: \(text) end."))
        #expect(MarkdownInspector.visibleText(ofHTML: html) == "Message: \(text) end.")
    }

    @Test func codeInTheToolsOwnTextRendersAsCode() throws {
        let fix = "Serve the file with Content-Type: application/json (in nginx: `default_type application/json;` in the file's location)."
        let html = try MarkdownInspector.renderGitHubFlavoured(MarkdownEscaping.escape(fix))
        #expect(html.contains("<code>default_type application/json;</code>"), "\(html)")
        #expect(!html.contains("`"), "no backtick is shown")
        // An unpaired backtick is shown as itself.
        let lone = try MarkdownInspector.renderGitHubFlavoured(MarkdownEscaping.escape("a ` b"))
        #expect(MarkdownInspector.visibleText(ofHTML: lone) == "a ` b")
        #expect(!lone.contains("<code>"))
    }

    @Test func theWholeFixtureReportRendersWithoutALink() throws {
        let html = try MarkdownInspector.renderGitHubFlavoured(MarkdownReporter.render(ReportFixtures.report))
        #expect(MarkdownInspector.links(inHTML: html).isEmpty, "\(MarkdownInspector.links(inHTML: html).prefix(3))")
        #expect(html.contains("<code>tls.expired</code>"))
        #expect(html.contains("<code>https://evil.example/&quot;onload=x</code>"), "the redirect target is shown, as code")
    }
}
