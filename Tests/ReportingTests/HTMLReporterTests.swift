import Audit
import Foundation
import Testing
@testable import Reporting

@Suite struct HTMLReporterTests {
    let html = HTMLReporter.render(ReportFixtures.report)

    /// Every value of `attribute="..."` in the page.
    func attributeValues(_ attribute: String, in page: String) -> [String] {
        page.components(separatedBy: "\(attribute)=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }

    @Test func isOneSelfContainedDocument() {
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
        #expect(html.contains("<meta charset=\"utf-8\">"))
        #expect(html.hasSuffix("</html>\n"))
        let lower = html.lowercased()
        #expect(!lower.contains("<script"))
        #expect(lower.range(of: "<[^<>]*\\ssrc=", options: .regularExpression) == nil, "no element loads anything")
        #expect(!lower.contains("<link"))
        #expect(!lower.contains("@import"))
        #expect(!lower.contains("url("))
        #expect(!lower.contains("<img"))
        #expect(lower.contains("@media print"))
        #expect(lower.contains("@media (prefers-color-scheme:dark)"))
        let hrefs = attributeValues("href", in: html)
        #expect(!hrefs.isEmpty)
        #expect(hrefs.allSatisfy { $0.hasPrefix("#") })
    }

    @Test func escapesEveryHostileString() {
        #expect(!html.contains(ReportFixtures.hostileScript))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(!html.contains(ReportFixtures.hostileAttribute))
        #expect(html.contains("&quot;onload="))
        #expect(!html.unicodeScalars.contains("\u{1B}"))
        #expect(html.contains("␛[31m"))
        #expect(!html.unicodeScalars.contains { (0x80..<0xA0).contains($0.value) })
        // Attribute values are only ours: anchors and class names.
        #expect(attributeValues("class", in: html).allSatisfy { $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == " " } })
    }

    @Test func escapeCoversAllFiveCharacters() {
        #expect(HTMLEscaping.escape("a&b<c>d\"e'f") == "a&amp;b&lt;c&gt;d&quot;e&#39;f")
        #expect(HTMLEscaping.escape("x\u{1B}y\u{9B}z\u{7F}\n") == "x␛y\u{FFFD}z␡\n")
        #expect(HTMLEscaping.escape("moc.\u{202E}elgoog") == "moc.\u{FFFD}elgoog")
    }

    @Test func listsFailingDomainsFirst() throws {
        let ids = attributeValues("id", in: html).filter { $0.hasPrefix("d-") }
        #expect(ids == [
            "d-expired-example", "d-redirect-example", "d-nxdomain-example",
            "d-fallback-example", "d-hostile-example",
            "d-good-example", "d-xn-bcher-kva-example",
        ])
        let summary = try #require(html.range(of: "<tbody>")).upperBound
        let fail = try #require(html.range(of: "href=\"#d-expired-example\"", range: summary..<html.endIndex))
        let warn = try #require(html.range(of: "href=\"#d-fallback-example\"", range: summary..<html.endIndex))
        let pass = try #require(html.range(of: "href=\"#d-good-example\"", range: summary..<html.endIndex))
        #expect(fail.lowerBound < warn.lowerBound && warn.lowerBound < pass.lowerBound)
    }

    @Test func anchorsAreSanitisedAndUnique() {
        func domain(_ name: String) -> DomainResult {
            DomainResult(domain: name, verdict: .pass, usedLocation: nil, findings: [], locations: [])
        }
        let report = AuditReport(
            tool: ReportFixtures.tool, generatedAt: ReportFixtures.generatedAt,
            domains: [domain("a.example"), domain("A.Example"), domain("a-example"),
                      domain("\"><script>.example"), domain("ü"), domain("")])
        let page = HTMLReporter.render(report)
        let ids = attributeValues("id", in: page)
        #expect(ids.contains("d-a-example-3"))
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { id in !id.isEmpty && id.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" } })
        #expect(Set(attributeValues("href", in: page).map { String($0.dropFirst()) }).isSubset(of: Set(ids)))
        #expect(Set(attributeValues("id", in: html)).count == attributeValues("id", in: html).count)
    }

    /// The hostile fixture's body has 348 lines as served, one array entry per line; pretty-printed
    /// (ten lines per entry, after eight lines of head) it has 3416, so the first 300 lines end
    /// inside the thirtieth entry, before its app ID.
    @Test func prettyPrintsJSONBodiesAndCutsThemAfter300Lines() {
        #expect(html.contains("Served body, pretty-printed (showing the first 300 of 3416 lines; the rest is cut)"))
        #expect(html.contains("3116 more lines not shown"))
        // (The print stylesheet's cut, a span after the printed lines, left out of the comparison.)
        let body = html.replacingOccurrences(of: "<span class=\"screen-only\">", with: "")
        // Quotes in a body are plain characters in element content (`&quot;` made a JSON body a third longer).
        #expect(body.contains("      {\n        \"appIDs\": [\n          \"ABQ7KM3X2P.com.exemplo.app1\"\n        ],"))
        #expect(html.contains("com.exemplo.app29\""))
        #expect(!html.contains("com.exemplo.app30\""))
        #expect(html.contains("&lt;img src=x onerror=alert(2)&gt;"))
        // A body that is not JSON is shown as served.
        #expect(html.contains("&lt;html&gt;&lt;body&gt;&lt;h1&gt;404 Not Found&lt;/h1&gt;&lt;/body&gt;&lt;/html&gt;</pre>"))
    }

    @Test func showsTheChangesSinceTheBaselineFirst() throws {
        let changes = try #require(html.range(of: "<h2>Changes since the baseline</h2>"))
        let summary = try #require(html.range(of: "<h2>Summary</h2>"))
        #expect(changes.lowerBound < summary.lowerBound)
        #expect(html.contains("Compared with the run of 2026-11-15 19:00:00 UTC (<code>reports/20261115T190000Z/report.json</code>)."))
        #expect(html.contains("<li><span class=\"badge fail\">newly failing</span> <a href=\"#d-expired-example\">expired.example</a> (was pass): <code>tls.expired</code>"))
        #expect(html.contains("<li><span class=\"badge pass\">recovered</span> <a href=\"#d-good-example\">good.example</a> (now pass)</li>"))
        #expect(html.contains("<li>Verdict changed: <a href=\"#d-fallback-example\">fallback.example</a> pass → warn</li>"))
        #expect(html.contains("Certificate of <a href=\"#d-expired-example\">expired.example</a> <span class=\"bad\">expired</span>: expired 9 days ago (5 days left at the baseline)"))
        #expect(html.contains("<li>Domains added: <a href=\"#d-xn-bcher-kva-example\">bücher.example</a></li>"))
        #expect(html.contains("<li>Domains removed: retired.example</li>"), "a removed domain has no section to link to")
        #expect(html.contains("HTTP 404 &lt;script&gt;alert(1)&lt;/script&gt; instead of 200."))
        let plain = HTMLReporter.render(ReportFixtures.current)
        #expect(!plain.contains("Changes since the baseline"))
    }

    @Test func showsTheCertificateDaysLeftTheAuditCounted() {
        // The fixtures carry no days left: the report counts them from its start, the reporter only shows them.
        let days = Dictionary(ReportFixtures.current.domains.map { ($0.domain, $0.certificate?.daysLeft) }, uniquingKeysWith: { first, _ in first })
        #expect(days["good.example"] == 60)
        #expect(days["expired.example"] == -9)
        #expect(html.contains("2027-01-28 19:00:00 UTC (60 days left)"))
        #expect(html.contains("expired 9 days ago"))
        #expect(html.contains("non-verifying connection"))
    }

    @Test func showsWhatMattersForEachLocation() {
        #expect(html.contains("bücher.example <span class=\"ascii\">(xn--bcher-kva.example)</span>"))
        #expect(html.contains(LocationRole.fallbackNotRead.label))
        #expect(html.contains("and 5 more"))
        // A failed transfer in words, curl's own text folded under them.
        #expect(html.contains("<dd>The name does not resolve. <details class=\"curl\"><summary>curl's words</summary><code>curl error 6: Could not resolve host: nxdomain.example</code></details></dd>"))
        #expect(html.contains("<code>content-encoding: gzip</code>"))
        #expect(!html.contains("not shown</code>"))  // X-Ignored is not a header that matters
        #expect(html.contains("120 bytes transferred, 182 bytes after decoding"))
        #expect(html.contains("<code>domains.txt:7</code>"))
        #expect(html.contains("The end of the chain serves a JSON object"))
        #expect(html.contains("2 fail") == false)
        #expect(html.contains("3 fail") && html.contains("2 warn") && html.contains("2 pass"))
        #expect(!html.contains("This run was interrupted"))
    }

    @Test func showsAppleCDNAndCrawlerPerDomain() throws {
        #expect(html.components(separatedBy: "<h3>Apple's CDN ").count - 1 == 3)
        #expect(html.components(separatedBy: "<h3>Apple's crawler").count - 1 == 2)
        #expect(html.contains("<dt>Apple-Failure-Reason</dt><dd><code>SWCERR00101 &lt;script&gt;alert(1)&lt;/script&gt;</code></dd>"))
        #expect(html.contains("<dt>Copy</dt><dd><span class=\"bad\">differs from the origin's file</span></dd>"))
        #expect(html.contains("<li>app IDs on your server but not on the CDN: ABQ7KM3X2P.com.exemplo.app</li>"))
        #expect(html.contains("<dt>Age</dt><dd><code>7200</code></dd>"))
        // A crawler answered as the tool was is one sentence.
        #expect(html.contains("<p>Fetched with the User-Agent Apple's CDN sends, <code>AASA-Bot/1.0.0</code>, "
                              + "<code>/.well-known/apple-app-site-association</code> answered HTTP 200, as it did to this tool, with the same body.</p>"))
        // Causes first: the locations (what the origin serves), then the crawler and the CDN.
        let section = try #require(html.components(separatedBy: "id=\"d-good-example\"").last)
        let crawler = try #require(section.range(of: "Apple's crawler"))
        let location = try #require(section.range(of: "<div class=\"location\">"))
        #expect(location.lowerBound < crawler.lowerBound)
    }

    @Test func saysWhenTheRunWasInterrupted() {
        var report = ReportFixtures.small
        report.complete = false
        report.notAudited = ["later.example"]  // as an interrupted run always has (PartialRun)
        #expect(HTMLReporter.render(report).contains("This run was interrupted"))
        #expect(HTMLReporter.render(report).contains("Not audited (1): later.example."))
        report.domains = []
        let none = HTMLReporter.render(report)
        #expect(none.contains("stopped before any domain had been checked") && !none.contains("Only the 0 domains"))
    }

    @Test func saysWhenABodyIsTooLarge() {
        var domain = ReportFixtures.passing
        domain.locations[0].bytes = BodySize(transferred: 40_000, decoded: 131_072, truncated: true, limit: 131_072)
        domain.locations[0].body = nil
        let page = HTMLReporter.render(AuditReport(tool: ReportFixtures.tool, generatedAt: ReportFixtures.generatedAt, domains: [domain]))
        #expect(page.contains("larger than 131072 bytes (128 KB)"))
        #expect(page.contains("Body not shown: it is larger than the limit of 131072 bytes (128 KB) (<code>--max-bytes</code>); reading stopped there."))
    }
}
