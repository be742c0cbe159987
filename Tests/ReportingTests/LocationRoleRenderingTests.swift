import AASA
import Audit
import Foundation
import Testing
@testable import Reporting

/// Every reporter renders a location from the role Apple's choice gave it (`LocationResult.role`),
/// so they agree: an unused `.well-known` that is why Apple falls back is a cause and is shown
/// everywhere; an unused root behind a working `.well-known` changes nothing and is never a failure.
@Suite struct LocationRoleRenderingTests {
    typealias R = ReportFixtures
    static let fallbackReport = AuditReport(tool: R.tool, generatedAt: R.generatedAt, domains: [R.fallback])
    static let passingReport = AuditReport(tool: R.tool, generatedAt: R.generatedAt, domains: [R.passing])

    @Test func theRolesAreStoredInTheResult() {
        #expect(Self.fallbackReport.domains[0].locations.map(\.role) == [.unreadableFallsBack, .usedByApple])
        #expect(Self.passingReport.domains[0].locations.map(\.role) == [.usedByApple, .fallbackNotRead])
    }

    /// Regression: the console listed the unused `.well-known` 404 of a root-fallback domain while
    /// report.md dropped it. Both list it now, as not used by Apple.
    @Test func theConsoleAndMarkdownBothListTheUnusedWellKnownOfAFallbackDomain() {
        let console = ConsoleSummary.render(Self.fallbackReport, colour: false, details: true)
        #expect(console.contains("\(R.wellKnown) (not used by Apple)"))
        #expect(console.contains("error http.not-found"))
        let markdown = MarkdownReporter.render(Self.fallbackReport)
        #expect(markdown.contains("`http.not-found` (\(MarkdownEscaping.escape(R.wellKnown + " (not used by Apple)")))"))
        let junit = JUnitReporter.render(Self.fallbackReport, strict: false)
        #expect(junit.contains("\(R.wellKnown): status (not used by Apple)"))
        let html = HTMLReporter.render(Self.fallbackReport)
        #expect(html.contains(LocationRole.unreadableFallsBack.label))
    }

    /// The unused root behind a working `.well-known` is in no reporter's problems.
    @Test func noReporterCountsTheUnreadRootOfAWorkingDomain() {
        let domain = AuditReport(tool: R.tool, generatedAt: R.generatedAt,
                                 domains: [{ var d = R.passing; d.verdict = .warn; d.findings = [Finding(id: "x.warning", severity: .warning, message: "w")]; return d }()])
        #expect(!ConsoleSummary.render(domain, colour: false, details: true).contains("http.not-found"))
        #expect(!MarkdownReporter.render(domain).contains("http.not-found"))
        let junit = JUnitReporter.render(domain, strict: false)
        #expect(junit.contains("\(R.root): status (not used by Apple)"))
        #expect(!junit.contains("<failure message=\"The server answered HTTP 404"))
    }

    /// Regression: the HTML showed the unused root's 404 as a red "fail" with the fix "Serve the file at
    /// this path" on a domain whose `.well-known` file works. It shows a fallback Apple does not read.
    @Test func theHTMLShowsTheUnreadRootOfAWorkingDomainAsNoFailure() throws {
        let html = HTMLReporter.render(Self.passingReport)
        let start = try #require(html.range(of: "<div class=\"location not-read\">\n<h3><code>\(R.root)</code>"))
        let block = html[start.lowerBound...]
        let end = try #require(block.range(of: "</div>\n"))
        let root = String(block[..<end.lowerBound])
        #expect(!root.contains("badge fail"))
        #expect(root.contains("<span class=\"badge muted\">not read</span>"))
        #expect(root.contains(LocationRole.fallbackNotRead.label))
        #expect(root.contains("Apple does not read this fallback"))
        #expect(!root.contains("sev-error") && !root.contains("Fix: "))
        #expect(root.contains("http.not-found"), "the finding is still shown, as a note")
    }
}
