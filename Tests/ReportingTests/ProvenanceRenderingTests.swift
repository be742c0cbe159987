import Audit
import Foundation
import Testing
@testable import Reporting

/// A report made through a staging route says so in one line of its HTML and Markdown headers; a
/// merged report names each shard it lacks; a trend's runs carry their time.
@Suite struct ProvenanceRenderingTests {
    static func report(route: RunRoute?) -> AuditReport {
        var report = ReportFixtures.report
        report.run = RunProvenance(host: "night-1", exitStatus: 1, durationSeconds: 4.2, route: route)
        return report
    }

    static let staging = RunRoute(connectTo: ["shop.test:443:127.0.0.1:8443"], resolve: ["cdn.test:443:127.0.0.2"],
                                  caFile: .init(path: "/etc/staging/ca.pem", sha256: String(repeating: "0f", count: 32)),
                                  proxy: "http://proxy.test:3128", proxySource: "https_proxy")

    @Test(arguments: [
        (staging, "Checked through a staging route (--connect-to shop.test:443:127.0.0.1:8443; --resolve cdn.test:443:127.0.0.2; --cacert /etc/staging/ca.pem, SHA-256 "
            + String(repeating: "0f", count: 32) + "; the proxy http://proxy.test:3128 (https_proxy)): "),
        (RunRoute(caFile: .init(path: "ca.pem", sha256: nil)), "Checked through a staging route (--cacert ca.pem): "),
        (RunRoute(proxy: "http://proxy.test:3128", proxySource: "--proxy"), "Fetched through the proxy http://proxy.test:3128 (--proxy)."),
    ])
    func theLineNamesEachRouteOption(route: RunRoute, start: String) throws {
        let line = try #require(RoutePhrases.line(route))
        #expect(line.hasPrefix(start), "\(line)")
        let html = HTMLReporter.render(Self.report(route: route))
        let markdown = MarkdownReporter.render(Self.report(route: route))
        let escaped = HTMLEscaping.escape(line)
        #expect(html.components(separatedBy: escaped).count == 2, "one line in the HTML header")
        let at = try #require(html.range(of: escaped)).lowerBound
        #expect(try #require(html.range(of: "</header>")).upperBound <= at && at < (try #require(html.range(of: "<table")).lowerBound),
                "right after the header, before the summary table")
        #expect(markdown.components(separatedBy: MarkdownEscaping.escape(line)).count == 2, "one line in the Markdown")
    }

    @Test func aDirectRunSaysNothingOfRoutes() {
        for report in [ReportFixtures.report, Self.report(route: nil)] {
            #expect(RoutePhrases.line(report.run?.route) == nil)
            #expect(!HTMLReporter.render(report).contains("staging route") && !MarkdownReporter.render(report).contains("staging route"))
            #expect(!HTMLReporter.render(report).contains("Fetched through the proxy"))
        }
    }

    /// Hostile text from the command line (a path, a --connect-to) is escaped like any other.
    @Test func theRouteIsEscaped() {
        let route = RunRoute(connectTo: ["<script>x</script>:443::"], caFile: .init(path: "a|b*c.pem", sha256: nil))
        let html = HTMLReporter.render(Self.report(route: route))
        #expect(!html.contains("<script>x") && html.contains("&lt;script&gt;x"))
        let markdown = MarkdownReporter.render(Self.report(route: route))
        #expect(!markdown.contains("a|b*c.pem"))
    }

    @Test(arguments: [
        ([Int](), 0, "a shard of the list was not merged"),
        ([3], 0, "shard 3 was not merged"),
        ([2, 4], 0, "shards 2 and 4 were not merged"),
        ([2, 3, 5], 0, "shards 2, 3 and 5 were not merged"),
        ([2], 7, "shards 2 and 7 more were not merged"),
    ])
    func aMergedReportNamesItsMissingShards(missing: [Int], omitted: Int, phrase: String) {
        var merged = ReportFixtures.report
        merged.complete = false
        merged.notAudited = nil
        merged.missingShards = missing.isEmpty ? nil : missing
        merged.missingShardsOmitted = omitted > 0 ? omitted : nil
        #expect(ShardPhrases.notMerged(merged) == phrase)
        #expect(HTMLReporter.render(merged).contains("This report is incomplete.</strong> " + phrase.capitalizedFirst + ", so its domains were not checked"))
        #expect(MarkdownReporter.render(merged).contains("**This report is incomplete**: " + phrase + "; only the domains below were checked."))
    }

    /// Two runs of one day are told apart by their time in the trend line.
    @Test func theTrendNamesEachEndsTime() {
        var report = ReportFixtures.report
        let morning = Date(timeIntervalSince1970: 1_800_000_000)   // 2027-01-15 08:00 UTC
        report.history = ReportHistory(earlierListRuns: 1, trend: [
            RunTally(generatedAt: morning, pass: 3, warn: 0, fail: 1, complete: true),
            RunTally(generatedAt: morning + 3 * 3600 + 15 * 60, pass: 4, warn: 0, fail: 0, complete: true),
        ])
        let markdown = MarkdownReporter.render(report)
        #expect(markdown.contains("1 fail, 0 warn, 3 pass on 2027-01-15 08:00 UTC; 0 fail, 0 warn, 4 pass on 2027-01-15 11:15 UTC."), "\(markdown)")
        #expect(HTMLReporter.render(report).contains("from 2027-01-15 08:00 UTC to 2027-01-15 11:15 UTC"))
    }
}
