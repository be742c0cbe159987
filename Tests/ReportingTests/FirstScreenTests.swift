import AASA
import Audit
import Foundation
import Testing
import TestSupport
@testable import Reporting

/// The first screen of a domain: what a device gets and the cause with its fix come before any
/// location card, and "pass" is said only of what passes. Checked in every report, and in Chromium.
@Suite struct FirstScreenTests {
    static let wk = ReportFixtures.wellKnown

    /// The origin serves a good file to this tool but refuses Apple's crawler, so Apple's CDN has no copy:
    /// the location passes its checks, the domain fails (issue 32's "pass — used by Apple" card).
    static let botBlocked: DomainResult = {
        var domain = ReportFixtures.passing
        domain.domain = "bot-blocked.example"
        domain.verdict = .fail
        domain.locations[0].url = "https://bot-blocked.example\(wk)"
        domain.findings = [
            Finding(id: "access.blocks-apple", severity: .error,
                    message: "The server answers Apple's crawler (AASA-Bot) with HTTP 403 at /.well-known/apple-app-site-association, while this tool gets HTTP 200.",
                    fix: "Allow the User-Agent AASA-Bot to fetch /.well-known/apple-app-site-association (WAF and bot rules)."),
            Finding(id: "cdn.missing", severity: .error,
                    message: "Apple's CDN has no copy of the file for bot-blocked.example: it answers 404.", fix: "Fix the origin first."),
        ]
        domain.crawler = CrawlerResult(userAgent: "AASA-Bot/1.0.0", path: wk, httpStatus: 403, toolHTTPStatus: 200, sameBody: false)
        domain.cdn = CDNResult(url: "https://app-site-association.cdn-apple.com/a/v1/bot-blocked.example", httpStatus: 404,
                               appleFailureReason: "SWCERR00101 Bad HTTP Response: 403 Forbidden", cacheControl: "max-age=3600")
        // Judged again from what it now holds (deviceGets too, which judge keeps once set).
        domain.deviceGets = nil
        domain.judge(at: nil)
        return domain
    }()

    /// Its certificate is issued for another name, with many days left.
    static let mismatch: DomainResult = {
        var domain = ReportFixtures.dnsFailure
        domain.domain = "mismatch.example"
        for index in domain.locations.indices {
            domain.locations[index].tls = ReportFixtures.goodTLS(for: "other.example")
            domain.locations[index].tls?.certificate?.daysLeft = 299
            domain.locations[index].error = TransferFailure(kind: .tls, curlCode: 60,
                message: "SSL: no alternative certificate subject name matches target host name 'mismatch.example'")
            domain.locations[index].findings = [Finding(id: "tls.hostname-mismatch", severity: .error,
                message: "The certificate is for other.example, www.other.example, not mismatch.example.", fix: "Install a certificate for mismatch.example.")]
        }
        // Judged again from what it now holds (deviceGets too, which judge keeps once set).
        domain.deviceGets = nil
        domain.judge(at: nil)
        return domain
    }()

    static func report(_ domains: [DomainResult]) -> AuditReport {
        AuditReport(tool: ReportFixtures.tool, generatedAt: ReportFixtures.generatedAt, complete: true, domains: domains)
    }

    static func section(_ html: String, _ host: String) throws -> String {
        let anchor = "id=\"d-" + host.replacingOccurrences(of: ".", with: "-") + "\""
        let start = try #require(html.range(of: anchor), "no section for \(host)")
        let end = html[start.upperBound...].range(of: "</section>")?.lowerBound ?? html.endIndex
        return String(html[start.lowerBound..<end])
    }

    @Test func theDeviceOutcomeIsJudgedOnceAndStored() {
        #expect(Self.botBlocked.deviceGets == .noFileCrawlerBlocked)
        #expect(Self.botBlocked.headline?.id == "access.blocks-apple")
        #expect(ReportFixtures.passing.deviceGets == .file)
        #expect(ReportFixtures.dnsFailure.deviceGets == .noFile)
        #expect(ReportFixtures.fallback.deviceGets == .staleCopy)
    }

    @Test func htmlOpensWithWhatDevicesGetAndTheCauseWithItsFix() throws {
        let section = try Self.section(HTMLReporter.render(Self.report([Self.botBlocked])), "bot-blocked.example")
        let devices = try #require(section.range(of: "<dt>Outcome</dt><dd>iOS 14+ and macOS 11+ devices get no file: the server refuses Apple&#39;s crawler")
                                   ?? section.range(of: "<dt>Outcome</dt><dd>iOS 14+ and macOS 11+ devices get no file: the server refuses Apple's crawler"))
        let cause = try #require(section.range(of: "<dt>Why it fails</dt>"))
        let fix = try #require(section.range(of: "<dt>Fix</dt><dd class=\"fix\">Allow the User-Agent AASA-Bot"))
        let card = try #require(section.range(of: "<div class=\"location\">"))
        #expect(devices.lowerBound < cause.lowerBound && cause.lowerBound < fix.lowerBound && fix.lowerBound < card.lowerBound)
        // The card of the location whose file passes on a failing domain: no green "pass".
        #expect(!section.contains("badge pass"), "a failing domain shows no pass badge")
        #expect(section.contains("<span class=\"badge muted\">file checks pass</span>"))
        #expect(!section.contains("Apple can read the file, but something does not work"))
    }

    @Test func theLocationAppleUsesIsTheFirstCard() throws {
        let section = try Self.section(HTMLReporter.render(Self.report([ReportFixtures.fallback])), "fallback.example")
        let root = try #require(section.range(of: "<h3><code>\(ReportFixtures.root)</code>"))
        let wellKnown = try #require(section.range(of: "<h3><code>\(Self.wk)</code>"))
        #expect(root.lowerBound < wellKnown.lowerBound, "the root location, which Apple uses, comes first")
    }

    @Test func theSummarySaysCertificateForAnotherNameAndKeepsInternalWordsOut() throws {
        let html = HTMLReporter.render(Self.report([Self.mismatch, ReportFixtures.passing]))
        let start = try #require(html.range(of: "<section id=\"summary\">"))
        let end = try #require(html.range(of: "</table>", range: start.upperBound..<html.endIndex))
        let summary = String(html[start.lowerBound..<end.lowerBound])
        #expect(summary.contains("<td data-label=\"Certificate\"><span class=\"bad\">certificate for another name</span></td>"))
        #expect(!summary.contains("299 days left"))
        #expect(!html.contains("report schema"))
        #expect(!html.contains("neither location</td>"))
        #expect(!html.contains("Apple uses neither location"))
        // curl's own words are kept, folded under a sentence for a person.
        #expect(html.contains("<dt>Transfer error</dt><dd>The secure connection (TLS) could not be set up. <details class=\"curl\"><summary>curl&#39;s words</summary>")
                || html.contains("<dt>Transfer error</dt><dd>The secure connection (TLS) could not be set up. <details class=\"curl\"><summary>curl's words</summary>"))
    }

    @Test func theCDNsRefreshIsSaidOnceNotPerDomain() throws {
        var second = Self.botBlocked
        second.domain = "bot-blocked-2.example"
        let report = Self.report([Self.botBlocked, second, ReportFixtures.passing])
        for (name, text) in [("HTML", HTMLReporter.render(report)), ("Markdown", MarkdownReporter.render(report)),
                             ("terminal", ConsoleSummary.render(report, colour: false))] {
            let folded = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(folded.components(separatedBy: "nobody outside Apple can make it refresh").count - 1 == 1, "\(name)")
        }
        // Nothing to say when no domain waits for the CDN.
        #expect(!HTMLReporter.render(Self.report([ReportFixtures.passing])).contains("nobody outside Apple"))
    }

    @Test func markdownAndTerminalOpenWithWhatDevicesGet() throws {
        let markdown = MarkdownReporter.render(Self.report([Self.botBlocked]))
        let heading = try #require(markdown.range(of: "### bot-blocked.example"))
        let devices = try #require(markdown.range(of: ": ✖ **fail**\n\niOS 14+ and macOS 11+ devices get no file"))
        let first = try #require(markdown.range(of: "- **error** `access.blocks-apple`"))
        let cdn = try #require(markdown.range(of: "- **error** `cdn.missing`"))
        #expect(heading.lowerBound < devices.lowerBound && devices.lowerBound < first.lowerBound && first.lowerBound < cdn.lowerBound)
        let text = ConsoleSummary.render(Self.report([Self.botBlocked]), colour: false)
        let name = try #require(text.range(of: "\nbot-blocked.example:\n  iOS 14+ and macOS 11+ devices get no file"))
        let error = try #require(text.range(of: "error access.blocks-apple"))
        #expect(name.lowerBound < error.lowerBound)
    }

    // MARK: In Chromium

    static func write(_ html: String, _ name: String) throws -> URL {
        let file = try AuditBinary.temporaryDirectory().appendingPathComponent(name)
        try html.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    /// A failing domain's section as Chromium lays it out: its cause is shown above any "pass" in it
    /// (the vertical offsets of what is rendered, read by a script the test appends to a copy of the page).
    @Test func aFailingDomainShowsItsCauseBeforeAnyPass() throws {
        let probe = """
            <script>(function () {
              var section = document.querySelector('section.domain.v-fail');
              var cause = section.querySelector('dl.first dd.sev-error').getBoundingClientRect().top;
              var walker = document.createTreeWalker(section, NodeFilter.SHOW_TEXT), node, first = -1;
              while ((node = walker.nextNode())) {
                if (!/\\bpass/.test(node.textContent)) continue;
                var rects = node.parentElement.getClientRects();
                if (rects.length === 0) continue;
                var top = rects[0].top;
                if (first < 0 || top < first) first = top;
              }
              document.body.setAttribute('data-probe', 'cause=' + Math.round(cause) + ';pass=' + Math.round(first) + ';width=' + window.innerWidth);
            })();</script>
            """
        let page = HTMLReporter.render(Self.report([Self.botBlocked])).replacingOccurrences(of: "</body>", with: probe + "</body>")
        let dom = try HeadlessBrowser.renderedDOM(of: try Self.write(page, "first-screen.html"), width: 1000)
        let probed = try #require(dom.range(of: "data-probe=\"[^\"]*\"", options: .regularExpression).map { String(dom[$0]) })
        let numbers = probed.split(whereSeparator: { !"-0123456789".contains($0) }).compactMap { Int($0) }
        try #require(numbers.count == 3, "\(probed)")
        #expect(numbers[2] == 1000, "laid out at the window's width: \(probed)")
        #expect(numbers[1] > 0, "the section says pass somewhere (its file passes its checks): \(probed)")
        #expect(numbers[0] < numbers[1], "the cause is shown above the first pass: \(probed)")
        // And in the text a reader sees on paper: the cause, its fix, then the cards.
        let text = try HeadlessBrowser.visibleText(of: try Self.write(HTMLReporter.render(Self.report([Self.botBlocked])), "first-screen-print.html"))
        // The section's heading, after the summary's row of the same words.
        let section = try #require(text.range(of: "bot-blocked.example ✖ fail", options: .backwards).map { String(text[$0.upperBound...]) })
        let cause = try #require(section.range(of: "Why it fails The server answers Apple's crawler"))
        let pass = try #require(section.range(of: "pass"))
        #expect(cause.lowerBound < pass.lowerBound)
    }

    /// On a phone (390 px), each summary row shows its main problem inside the screen: nothing of it
    /// is off to the right, to be scrolled to. Headless Chromium makes no window narrower than 500 px,
    /// so the page is laid out in a 390 x 844 frame (its own viewport, which the page's media queries
    /// see), and a script appended to it writes what Chromium laid out into the outer page.
    @Test func onAPhoneTheMainProblemIsOnScreen() throws {
        let probe = """
            <script>(function () {
              var width = document.documentElement.clientWidth, out = [];
              document.querySelectorAll('td[data-label="Main problem"]').forEach(function (cell) {
                var r = cell.getBoundingClientRect();
                out.push(Math.round(r.left) + ':' + Math.round(r.right) + ':' + Math.round(r.height));
              });
              var scroll = document.querySelector('#summary .scroll');
              parent.document.body.setAttribute('data-probe', 'width=' + window.innerWidth + ';client=' + width +
                ';overflow=' + (scroll.scrollWidth - scroll.clientWidth) + ';cells=' + out.join(','));
            })();</script>
            """
        let page = HTMLReporter.render(ReportFixtures.report).replacingOccurrences(of: "</body>", with: probe + "</body>")
        let framed = page.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
        let phone = """
            <!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>phone</title></head><body>
            <p>\(HeadlessBrowser.reportMarker), on a phone</p>
            <iframe style="width:390px;height:844px;border:0" srcdoc="\(framed)"></iframe></body></html>
            """
        let dom = try HeadlessBrowser.renderedDOM(of: try Self.write(phone, "phone.html"))
        let probed = try #require(dom.range(of: "data-probe=\"[^\"]*\"", options: .regularExpression).map { String(dom[$0]) })
        func value(_ key: String) -> String? {
            probed.dropFirst("data-probe=\"".count).dropLast().components(separatedBy: ";")
                .first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
        }
        #expect(value("width") == "390", "laid out at a phone's width: \(probed)")
        let client = try #require(value("client").flatMap { Int($0) })
        #expect(value("overflow") == "0", "nothing of the table is off-screen: \(probed)")
        let cells = try #require(value("cells")).split(separator: ",").map { $0.split(separator: ":").compactMap { Int($0) } }
        #expect(cells.count == ReportFixtures.report.domains.count)
        for cell in cells {
            try #require(cell.count == 3)
            #expect(cell[0] >= 0 && cell[1] <= client && cell[2] > 0, "a main problem cell off-screen or empty: \(cell), screen \(client): \(probed)")
        }
    }
}
