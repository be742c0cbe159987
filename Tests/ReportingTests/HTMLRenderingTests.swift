import Audit
import Foundation
import Reporting
import Testing
import TestSupport

/// The HTML report as a person sees it in a browser: headless Chromium renders it, the test reads
/// the text it shows and the DOM after load.
@Suite struct HTMLRenderingTests {
    static let rendered: Result<(text: String, dom: String), Error> = Result {
        let folder = try AuditBinary.temporaryDirectory()
        let file = folder.appendingPathComponent("report.html")
        try HTMLReporter.render(ReportFixtures.report).write(to: file, atomically: true, encoding: .utf8)
        return (try HeadlessBrowser.visibleText(of: file), try HeadlessBrowser.renderedDOM(of: file))
    }

    /// True when the rendered page shows `phrase`; checked without echoing the whole page on failure.
    func shows(_ phrase: String) throws -> Bool {
        try Self.rendered.get().text.contains(phrase)
    }

    @Test(arguments: ["3 fail", "2 warn", "2 pass", "expired.example", "redirect.example", "fallback.example",
                      "bücher.example", "The certificate expired on 2026-11-20", "Renew the certificate",
                      "Changes since the baseline", "newly failing expired.example (was pass)", "recovered good.example (now pass)",
                      "Domains removed: retired.example", "Served body, pretty-printed",
                      "At both locations error tls.expired The certificate expired on 2026-11-20",
                      "Served body: the same bytes as",
                      ".well-known: /.well-known/apple-app-site-association, where Apple looks first"])
    func readerSees(phrase: String) throws {
        let shown = try shows(phrase)
        #expect(shown, "the rendered page does not show \"\(phrase)\"")
    }

    @Test func hostileTextIsShownAsTextAndNothingRuns() throws {
        let dom = try Self.rendered.get().dom
        // The page rendered (HeadlessBrowser also throws on an empty page): its domains are in the DOM...
        #expect(dom.contains("expired.example") && dom.contains("redirect.example"), "the DOM lacks the report's domains")
        // ...the script tag from the network is visible as characters on the page...
        let visible = try shows("<script>alert(1)</script>"), image = try shows(ReportFixtures.hostileImage)
        #expect(visible && image)
        // ...and never became an element, nor any handler attribute.
        // (The serialised DOM has the values as escaped text; an attribute would be inside a tag.)
        let hasImage = dom.lowercased().contains("<img"), hasHandler2 = dom.range(of: "<[^<>]*\\son[a-z]+=", options: .regularExpression) != nil
        #expect(!hasImage && !hasHandler2)
        let hasScript = dom.lowercased().contains("<script"), hasHandler = dom.contains(" onload="), hasEscape = dom.contains("\u{1B}")
        #expect(!hasScript && !hasHandler && !hasEscape)
    }

    /// On a screen 800 pixels wide, each "Apple uses" cell of the summary is one line (the full path
    /// used to wrap over six), and a finding both locations report is shown once.
    @Test func theSummaryColumnDoesNotWrapAndSharedFindingsShowOnce() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let file = folder.appendingPathComponent("measured.html")
        // A script appended to a copy of the page writes what the browser laid out into the DOM.
        let probe = """
            <script>document.body.setAttribute('data-lines', Array.from(document.querySelectorAll('td code.nowrap'))
              .map(function (e) { return e.getClientRects().length; }).join(','));</script>
            """
        let page = HTMLReporter.render(ReportFixtures.report).replacingOccurrences(of: "</body>", with: probe + "</body>")
        try page.write(to: file, atomically: true, encoding: .utf8)
        let dom = try HeadlessBrowser.renderedDOM(of: file, width: 800)
        let lines = try #require(dom.range(of: "data-lines=\"([0-9,]*)\"", options: .regularExpression).map { String(dom[$0]) })
        #expect(lines == "data-lines=\"1,1,1,1\"", "line boxes per cell: \(lines)")
        let text = try Self.rendered.get().text
        #expect(text.components(separatedBy: "The name nxdomain.example does not resolve. Fix:").count - 1 == 1)
    }

    @Test func failuresComeFirstInTheSummary() throws {
        let text = try Self.rendered.get().text
        let failing = text.range(of: "expired.example")?.lowerBound, passing = text.range(of: "good.example")?.lowerBound
        let ordered = failing.flatMap { f in passing.map { f < $0 } } ?? false
        #expect(ordered, "expired.example should be listed before good.example")
    }
}
