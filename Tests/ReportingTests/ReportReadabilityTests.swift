import AASA
import Audit
import Foundation
import Testing
import TestSupport
@testable import Reporting

/// What a reader of the reports is told once, truly and compactly: why a body is not shown, a body
/// the two locations share, a finding both locations report, the summary table, the printout.
@Suite struct ReportReadabilityTests {
    static let wk = ReportFixtures.wellKnown, root = ReportFixtures.root

    /// Both locations serve the same valid file, with the same warning; the second copy is not printed.
    static let twins: DomainResult = {
        var domain = ReportFixtures.passing
        domain.domain = "twins.example"
        domain.verdict = .warn
        let warning = Finding(id: "content-type.unexpected", severity: .warning,
                              message: "The Content-Type is \"text/plain\" instead of application/json.", fix: "Serve it as application/json.")
        domain.locations[0].findings = [warning]
        domain.locations[0].verdict = .warn
        domain.locations[0].url = "https://twins.example\(wk)"
        var rootCopy = domain.locations[0]
        rootCopy.path = root
        rootCopy.url = "https://twins.example\(root)"
        domain.locations[1] = rootCopy
        domain.cdn = nil
        domain.crawler = nil
        // Judged again from what it now holds (deviceGets too, which judge keeps once set).
        domain.deviceGets = nil
        domain.judge(at: nil)
        return domain
    }()

    /// Serves 240 KB of ASCII JSON at both locations: too large to show (and over Apple's limit).
    static let large: DomainResult = {
        var domain = ReportFixtures.passing
        domain.domain = "large.example"
        domain.verdict = .fail
        domain.usedLocation = nil
        domain.cdn = nil
        domain.crawler = nil
        for index in domain.locations.indices {
            domain.locations[index].body = nil
            domain.locations[index].bytes = BodySize(transferred: 245_760, decoded: 245_760, limit: 1_048_576)
            domain.locations[index].httpStatus = 200
            domain.locations[index].verdict = .fail
            domain.locations[index].findings = [Finding(id: "size.too-large", severity: .error,
                message: "The file is 245760 bytes, 114688 over Apple's limit of 131072 bytes (128 KB).", fix: "Make the file smaller.")]
        }
        domain.locations[0].url = "https://large.example\(wk)"
        domain.locations[1].path = root
        domain.locations[1].url = "https://large.example\(root)"
        // Judged again from what it now holds (deviceGets too, which judge keeps once set).
        domain.deviceGets = nil
        domain.judge(at: nil)
        return domain
    }()

    static func report(_ domains: [DomainResult]) -> AuditReport {
        AuditReport(tool: ReportFixtures.tool, generatedAt: ReportFixtures.generatedAt, complete: true, domains: domains)
    }

    static func occurrences(of needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    // MARK: HTML

    @Test func aBodyTooLargeToShowSaysSoNotThatItIsNotText() {
        let html = HTMLReporter.render(Self.report([Self.large]))
        #expect(html.contains("Body not shown: it is too large to show (245760 bytes (240 KB), over Apple&#39;s limit of 131072 bytes (128 KB))")
                || html.contains("Body not shown: it is too large to show (245760 bytes (240 KB), over Apple's limit of 131072 bytes (128 KB))"))
        #expect(!html.contains("not UTF-8"))
    }

    @Test func theSecondCopyOfTheSameBodyIsNamedNotPrinted() {
        let html = HTMLReporter.render(Self.report([Self.twins]))
        #expect(Self.occurrences(of: "ABQ7KM3X2P.com.exemplo.app", in: html) == 1, "the file is printed once")
        #expect(html.contains("Served body: the same bytes as <code>\(Self.wk)</code>, shown above."))
        // A body that differs by one byte is printed.
        var differing = Self.twins
        differing.locations[1].body = ReportFixtures.validAASA.replacingOccurrences(of: "orders", with: "ordern")
        #expect(Self.occurrences(of: "ABQ7KM3X2P.com.exemplo.app", in: HTMLReporter.render(Self.report([differing]))) == 2)
    }

    /// Same characters, different bytes: a precomposed "é" and "e" + combining accent are equal Swift strings.
    @Test func bodiesEqualAsStringsButNotAsBytesAreBothShown() {
        var domain = Self.twins
        domain.locations[0].body = "{\"a\":\"caf\u{E9}\"}"
        domain.locations[1].body = "{\"a\":\"cafe\u{301}\"}"
        domain.locations[0].bytes.decoded = 13
        domain.locations[1].bytes.decoded = 13
        #expect(domain.locations[0].body == domain.locations[1].body, "Swift compares them as equal")
        #expect(!HTMLReporter.render(Self.report([domain])).contains("the same bytes as"))
    }

    @Test func aFindingAtBothLocationsIsListedOnceUnderBoth() throws {
        let page = HTMLReporter.render(Self.report([Self.twins, ReportFixtures.expired, ReportFixtures.redirecting]))
        // The domains' sections, after the summary table (which shows each domain's main problem once more),
        // without their first screens (which show it once more, as the cause).
        let sections = String(try #require(page.range(of: "<section class=\"domain").map { page[$0.lowerBound...] }))
        let html = sections.replacingOccurrences(of: "<dl class=\"first\">[\\s\\S]*?</dl>", with: "", options: .regularExpression)
        #expect(html.count < sections.count)
        #expect(Self.occurrences(of: "The Content-Type is &quot;text/plain&quot; instead of application/json.", in: html) == 1)
        #expect(Self.occurrences(of: "The certificate expired on 2026-11-20, 9 days before this check.", in: html) == 1)
        #expect(html.contains("<h3>At both locations</h3>"))
        #expect(html.contains("Also the finding under “At both locations”, above."))
        // The two redirects point to different places: both are listed, and no "both" section is made for them.
        #expect(html.contains("redirects to https://www.redirect.example/.well-known/apple-app-site-association; Apple"))
        #expect(html.contains("redirects to https://evil.example/"))
    }

    @Test func theSummaryNamesTheLocationShortlyWithThePathInTheTitle() {
        let html = HTMLReporter.render(Self.report([ReportFixtures.passing, ReportFixtures.fallback]))
        #expect(html.contains("<code class=\"nowrap\" title=\"\(Self.wk)\">.well-known</code>"))
        #expect(html.contains("<code class=\"nowrap\" title=\"\(Self.root)\">root</code>"))
        #expect(html.contains("<code>.well-known</code>: <code>\(Self.wk)</code>"), "the key under the table, for paper")
    }

    // MARK: Terminal and Markdown

    @Test func theTerminalListsAFindingAtBothLocationsOnce() {
        let text = ConsoleSummary.render(Self.report([Self.twins, ReportFixtures.dnsFailure]), colour: false)
        #expect(Self.occurrences(of: "The name nxdomain.example does not resolve.", in: text) == 2, "the headline and the details, once each")
        #expect(Self.occurrences(of: "instead of application/json.", in: text) == 2, "the headline and the details, once each")
        #expect(text.contains("  \(Self.wk) and \(Self.root)\n    error network.dns: The name nxdomain.example does not resolve."))
    }

    @Test func markdownListsAFindingAtBothLocationsOnceNamingBoth() {
        let text = MarkdownReporter.render(Self.report([ReportFixtures.dnsFailure, ReportFixtures.redirecting]))
        #expect(text.contains("- **error** `network.dns` (/.well-known/apple-app-site-association, /apple-app-site-association): The name nxdomain.example does not resolve."))
        #expect(Self.occurrences(of: "`redirect.present`", in: text) == 2, "two redirects to different places stay two")
    }

    // MARK: The printout

    static func renamed(_ domain: DomainResult, _ name: String) -> DomainResult {
        var copy = domain
        copy.domain = name
        copy.unicodeDomain = nil
        for index in copy.locations.indices {
            copy.locations[index].url = copy.locations[index].url.replacingOccurrences(of: domain.domain, with: name)
        }
        return copy
    }

    /// Thirteen domains as a nightly list has them: three fail, three warn, seven pass.
    static let thirteen: AuditReport = {
        let f = ReportFixtures.self
        return report([f.expired, f.dnsFailure, f.redirecting, f.fallback, twins, renamed(f.fallback, "old.example"),
                       f.passing, f.international] + ["shop", "news", "help", "api", "m"].map { renamed(f.passing, "\($0).example") })
    }()

    /// Thirteen domains that carry every kind of evidence the report prints: expired certificates
    /// read by a probe, redirect chains, a hostile server's 340-line body, a body too large to show.
    static let thirteenHeavy: AuditReport = {
        let f = ReportFixtures.self
        return report([f.passing, f.fallback, f.expired, f.redirecting, f.dnsFailure, f.international, f.hostile, twins, large,
                       renamed(f.passing, "shop.example"), renamed(f.passing, "news.example"), renamed(f.fallback, "old.example"),
                       renamed(f.expired, "legacy.example")])
    }()

    /// Prints `report` with headless Chromium and counts the pages (pdfinfo).
    static func printedPages(_ report: AuditReport, name: String) throws -> (pages: Int, html: URL) {
        let folder = try AuditBinary.temporaryDirectory()
        let html = folder.appendingPathComponent("\(name).html")
        try HTMLReporter.render(report).write(to: html, atomically: true, encoding: .utf8)
        // The same report as report.json, to print it with an older aasa-audit (`merge --format html`) and compare.
        try JSONReporter.render(report).write(to: folder.appendingPathComponent("\(name).json"))
        let pages = try HeadlessBrowser.printedPageCount(of: html, to: folder.appendingPathComponent("\(name).pdf"))
        print("\(name): \(report.domains.count) domains printed on \(pages) pages (\(html.path))")
        return (pages, html)
    }

    /// The print stylesheet keeps a nightly list of 13 domains to a handful of Letter pages: the
    /// summary, then per failing or warning domain its findings and its two locations side by side.
    /// Measured with this report (Chromium, Letter): 30 pages before (a page break before every domain,
    /// every location and body in full), 6 after, the last one two thirds full; the bound of 6 is
    /// "a handful" and fails as soon as a change costs a page, so that it is looked at.
    @Test func thirteenDomainsPrintOnAHandfulOfPages() throws {
        #expect(Self.thirteen.domains.count == 13)
        let (pages, html) = try Self.printedPages(Self.thirteen, name: "thirteen")
        #expect(pages <= 6, "13 domains printed on \(pages) pages")
        // What was left off paper is said on paper.
        let text = try HeadlessBrowser.visibleText(of: html)
        #expect(text.contains("This printout leaves out the sections of passing domains"))
        #expect(!text.contains("from Apple's CDN, whose copy is the same"), "no passing domain's section on paper")
        #expect(text.contains("help.example"), "passing domains are in the summary")
        #expect(!text.contains("first byte"), "no timings on paper")
    }

    /// Every kind of evidence at once still prints under a page per domain. Measured: 35 pages
    /// before, 9 after; the bound of 10 keeps it under one page per domain.
    @Test func thirteenDomainsWithEveryKindOfEvidencePrintUnderAPageEach() throws {
        let (pages, html) = try Self.printedPages(Self.thirteenHeavy, name: "thirteen-heavy")
        #expect(pages <= 10, "13 domains printed on \(pages) pages")
        let text = try HeadlessBrowser.visibleText(of: html)
        #expect(text.contains("Printed: the first \(HTMLReporter.maxPrintedBodyLines) lines of the body; the HTML file shows more."))
        #expect(!text.contains("com.exemplo.app300"), "line 300 of the long body is not printed")
        #expect(text.contains("\"webcredentials\""), "its first lines are")
    }
}
