import AASA
import Audit
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TestSupport
@testable import Reporting

/// The renderers given a report whose every string is hostile (`HostileReport`), as a crafted
/// baseline or shard file makes it: Markdown keeps no raw HTML, link or entity and no extra heading
/// or table row; JUnit is well-formed XML 1.0 whose text reads back; the console gets no control
/// character but line feeds (and its own colours).
@Suite struct HostileReportRenderingTests {
    static let report: AuditReport = {
        var report = HostileReport.report()
        report.changes = HostileReport.changes()
        return report
    }()

    @Test func markdownHasNoActiveMarkup() {
        let markdown = MarkdownReporter.render(Self.report)
        let markup = MarkdownInspector.activeMarkup(in: markdown)
        #expect(markup.isEmpty, "\(markup.prefix(5))")
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(!lines.contains { $0.hasPrefix("# INJECTED") }, "no heading from a value")
        #expect(!lines.contains { $0.hasPrefix("| INJECTED") })
        for row in lines where row.hasPrefix("|") {
            #expect(MarkdownInspector.cellCount(ofRow: String(row)) == 3, "\(row)")
        }
        #expect(!markdown.unicodeScalars.contains { $0.value < 0x20 && $0.value != 0x0A }, "no control character")
        // The hostile id is shown, literally, in a code span.
        #expect(markdown.contains(MarkdownEscaping.code(HostileReport.id)))
    }

    @Test func theMarkdownCodeSpanHoldsAnyText() {
        for text in ["plain", "a`b", "``", "`lead", "trail`", "x ``` y", ""] {
            let span = MarkdownEscaping.code(text)
            #expect(MarkdownInspector.activeMarkup(in: span + "<b>").count == 1, "the span closes: \(span)")
        }
    }

    @Test func junitIsWellFormedAndReadsBack() throws {
        let xml = JUnitReporter.render(Self.report, strict: true)
        let document = try XMLDocument(xmlString: xml, options: [])
        let suites = document.rootElement()?.elements(forName: "testsuite") ?? []
        #expect(suites.count == 4, "the domain list, two domains, and the domains not audited (an interrupted run)")
        let classname = suites.last?.elements(forName: "testcase").first?.attribute(forName: "classname")?.stringValue
        #expect(classname?.contains(HostileContent.script) == true, "the name reads back as text")
        #expect(!xml.contains("\u{1B}") && !xml.contains("\u{0}") && !xml.contains("\u{FFFE}"))
        #expect(!xml.contains(HostileContent.script), "escaped, not raw")
    }

    @Test func consoleCarriesNoControlCharacters() {
        let text = ConsoleSummary.render(Self.report, colour: false)
        let bad = text.unicodeScalars.filter { ($0.value < 0x20 && $0.value != 0x0A) || (0x7F..<0xA0).contains($0.value) }
        #expect(bad.isEmpty, "\(bad.map { String($0.value, radix: 16) })")
        #expect(text.contains("[y](javascript:alert(1))"), "the id is shown, as text")
    }
}
