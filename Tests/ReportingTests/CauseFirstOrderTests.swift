import Audit
import Foundation
import Reporting
import Testing

/// Every reporter lists the origin's findings before what follows from them (Apple's CDN), so a fix
/// that says "the findings above" points at something printed above it.
@Suite struct CauseFirstOrderTests {
    /// expired.example: an expired certificate at both locations (the cause) and cdn.missing (the consequence).
    static let report = AuditReport(tool: ReportFixtures.tool, generatedAt: ReportFixtures.generatedAt, domains: [ReportFixtures.expired])

    static func assertOrder(_ text: String, _ first: String, _ then: String, _ what: String) throws {
        let cause = try #require(text.range(of: first), "\(what): no \(first)")
        let consequence = try #require(text.range(of: then), "\(what): no \(then)")
        #expect(cause.lowerBound < consequence.lowerBound, "\(what): \(then) is listed before \(first)")
    }

    @Test func terminal() throws {
        try Self.assertOrder(ConsoleSummary.render(Self.report, colour: false), "error tls.expired", "error cdn.missing", "terminal")
    }

    @Test func markdown() throws {
        try Self.assertOrder(MarkdownReporter.render(Self.report), "`tls.expired`", "`cdn.missing`", "Markdown")
    }

    @Test func html() throws {
        let html = HTMLReporter.render(Self.report)
        let section = try #require(html.components(separatedBy: "id=\"d-expired-example\"").last)
        try Self.assertOrder(section, "<code>tls.expired</code>", "<code>cdn.missing</code>", "HTML")
        try Self.assertOrder(section, "<div class=\"location\">", "<h3>Apple's CDN ", "HTML")
    }

    @Test func junit() throws {
        try Self.assertOrder(JUnitReporter.render(Self.report, strict: false), "type=\"tls.expired\"", "type=\"cdn.missing\"", "JUnit")
    }

    /// The domain's sentence says what breaks, never that Apple cannot use a file it reads.
    @Test func htmlSaysWhatBreaksInAFileAppleReads() throws {
        let findings = [Finding(id: "schema.app-id-format", severity: .error,
                                message: "App ID \"com.partner.app2\" is not <Team ID>.<bundle ID>.", pointer: "/applinks/details/0/appIDs/1")]
        let location = LocationResult(path: ReportFixtures.wellKnown, url: "https://partner.test/.well-known/apple-app-site-association",
                                      verdict: .fail, httpStatus: 200, contentType: "application/json", headers: [], bytes: BodySize(),
                                      redirect: nil, tls: nil, timings: TransferTimings(), error: nil, body: "{}", findings: findings)
        let domain = DomainResult(domain: "partner.test", verdict: .fail, usedLocation: ReportFixtures.wellKnown, findings: [],
                                  locations: [location, ReportFixtures.notFound("partner.test")])
        let html = HTMLReporter.render(AuditReport(tool: ReportFixtures.tool, generatedAt: ReportFixtures.generatedAt, domains: [domain]))
        #expect(html.contains("<dt>Outcome</dt><dd>Apple devices get the file Apple reads at /.well-known/apple-app-site-association"))
        #expect(html.contains("<dt>Why it fails</dt><dd class=\"sev-error\">App ID &quot;com.partner.app2&quot;"))
        #expect(html.contains("<td data-label=\"Apple uses\"><code class=\"nowrap\" title=\"/.well-known/apple-app-site-association\">.well-known</code></td>"))
        for claim in ["cannot use", "neither location", "no usable", "cannot read"] {
            #expect(!html.contains(claim), "\(claim)")
        }
    }
}
