import Audit
import Foundation
import Testing
@testable import Reporting

/// A shard's report (`--shard K/N`) says so in every rendering people read, so that one attached to
/// a ticket or read on a terminal does not pass for the whole list; an unsharded one says nothing.
@Suite struct ShardRenderingTests {
    static var shardReport: AuditReport {
        var report = ReportFixtures.report
        report.shard = Shard(index: 2, count: 8)
        return report
    }

    @Test func everyRenderingNamesTheShard() {
        let html = HTMLReporter.render(Self.shardReport)
        #expect(html.contains("Shard 2/8 of the domain list"))
        let markdown = MarkdownReporter.render(Self.shardReport)
        #expect(markdown.contains("Shard 2/8 of the domain list"))
        let console = ConsoleSummary.render(Self.shardReport, colour: false)
        #expect(console.contains("(shard 2/8 of the list)"))
    }

    @Test func anUnshardedReportSaysNothingOfShards() {
        #expect(!HTMLReporter.render(ReportFixtures.report).contains("Shard "))
        #expect(!MarkdownReporter.render(ReportFixtures.report).contains("Shard "))
        #expect(!ConsoleSummary.render(ReportFixtures.report, colour: false).contains("shard"))
    }

    @Test func aMergeWithAShardMissingIsIncompleteNotInterrupted() {
        // What `aasa-audit merge` writes when a shard's report was not given: incomplete, nothing
        // named under notAudited (the missing shard's domains are unknown).
        var merged = ReportFixtures.report
        merged.complete = false
        merged.notAudited = nil
        let html = HTMLReporter.render(merged), markdown = MarkdownReporter.render(merged)
        #expect(html.contains("This report is incomplete.") && !html.contains("interrupted"))
        #expect(markdown.contains("This report is incomplete") && !markdown.contains("interrupted"))
        var interrupted = merged
        interrupted.notAudited = ["later.example"]
        #expect(HTMLReporter.render(interrupted).contains("This run was interrupted."))
        #expect(MarkdownReporter.render(interrupted).contains("This run was interrupted"))
    }
}
