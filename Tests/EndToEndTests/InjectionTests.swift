import Audit
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TestSupport

/// Markup and terminal escapes in every field that reaches a report: app IDs, paths, comments and
/// header values (inject.test), a redirect target (its root location), certificate subjects
/// (absurd.test) and domain names (lines of the domain list). The HTML report is opened in headless
/// Chromium: nothing runs, the text shows. The terminal gets no escape sequence or control character.
@Suite struct InjectionTests {
    /// Lines of the domain list that carry the payloads as would-be domain names.
    static let hostileLines = [
        HostileContent.script + ".test",
        HostileContent.image + ".test",
        "\u{1B}]52;c;cHduZWQ=\u{07}clipboard.test",
        "\u{1B}]8;;https://evil.example/\u{07}link.test",
        "\u{1B}[2J\u{1B}[31mclear.test",
        "bell\u{07}and\rreturn.test",
        "\u{9B}31mc1-csi.test",
    ]

    /// A crafted baseline: inject.test passed with a hostile finding (so the changes name it as
    /// gone, with its id and message), and hostile domains that are now removed.
    static let baseline: AuditReport = {
        let injected = DomainResult(domain: HostileSites.injection, verdict: .warn, usedLocation: nil,
                                    findings: [HostileReport.finding(.warning)], locations: [])
        var report = HostileReport.report()
        report.domains = [injected] + report.domains
        report.summary = Summary(domains: report.domains)
        return report
    }()

    struct Run: Sendable {
        var outcome: ShellCommand.Outcome
        var report: AuditReport
        var directory: URL
    }

    /// At most ten domains, so the terminal also prints every finding with its fix.
    static let run: Result<Run, Error> = Result {
        let sites = try HostileSites.shared.get()
        let folder = try AuditBinary.temporaryDirectory()
        let list = ([HostileSites.injection, HostileSites.absurdCertificate] + hostileLines).joined(separator: "\n") + "\n"
        try Data(list.utf8).write(to: folder.appendingPathComponent("domains.txt"))
        try HostileReport.json(baseline).write(to: folder.appendingPathComponent("baseline.json"))
        let out = folder.appendingPathComponent("out")
        let outcome = try AuditBinary.run(
            ["--no-cdn", "--cacert", sites.certificateAuthority.certificatePath, "--timeout", "3", "--out", out.path,
             "--format", "json,html,md,junit,prom", "--baseline", "baseline.json"]
                + sites.connectToArguments, in: folder)
        return Run(outcome: outcome, report: try AuditBinary.readReport(at: out.appendingPathComponent("report.json")), directory: out)
    }

    @Test func payloadsReachTheReport() throws {
        let report = try Self.run.get().report
        #expect(report.inputErrors.count == Self.hostileLines.count)
        #expect(report.domains.map(\.domain) == [HostileSites.injection, HostileSites.absurdCertificate])
        let inject = try #require(report.domains.first)
        let messages = inject.allFindings.map(\.message).joined(separator: "\n")
        #expect(messages.contains(HostileContent.script), "app IDs are quoted in findings")
        #expect(messages.contains("\u{1B}]8;;"), "an app ID's escapes (JSON \\u001b in the body) are quoted in a finding")
        #expect(inject.locations[0].body?.contains("\"comment\"") == true, "comments are in the served body")
        #expect(inject.locations[0].headers.contains { $0.value.contains(HostileContent.image) })
        #expect(inject.locations[1].redirect?.location.contains(HostileContent.script + "\u{1B}") == true)
        let subject = try #require(report.domains.last?.locations[0].tls?.certificate?.subject)
        #expect(subject.contains(HostileContent.script) && subject.contains("evil.example"))
    }

    /// Every byte written to the terminal is text: no ESC, no C0 control but line feed and tab, no
    /// DEL, no C1 control.
    @Test func terminalOutputCarriesNoControlCharacters() throws {
        let outcome = try Self.run.get().outcome
        #expect(outcome.status == 2, "input errors: \(outcome.stderr)")
        for (name, text) in [("stdout", outcome.stdout), ("stderr", outcome.stderr)] {
            let bad = text.unicodeScalars.filter { scalar in
                let value = scalar.value
                return (value < 0x20 && value != 0x0A && value != 0x09) || (0x7F..<0xA0).contains(value)
            }
            #expect(bad.isEmpty, "\(name) carries \(bad.map { String($0.value, radix: 16) })")
        }
        // The payloads are still shown, as inert text.
        #expect(outcome.stdout.contains("document.title='pwned'"))
        #expect(outcome.stdout.contains("clipboard.test") || outcome.stderr.contains("clipboard.test"))
    }

    @Test func theJSONReportEscapesControlCharacters() throws {
        let data = try Data(contentsOf: try Self.run.get().directory.appendingPathComponent("report.json"))
        #expect(!data.contains(0x1B) && !data.contains(0x07) && !data.contains(0x0D))
    }

    /// Chromium loads the report: no payload runs (the title is the report's, no element was added),
    /// and the payload text is on the page.
    @Test func nothingRunsInTheBrowserAndTheTextShows() throws {
        let html = try Self.run.get().directory.appendingPathComponent("report.html")
        let source = try String(contentsOf: html, encoding: .utf8)
        #expect(!source.contains("\u{1B}"), "escapes are shown as control pictures, not written raw")
        let dom = try HeadlessBrowser.renderedDOM(of: html)
        // First that the page rendered with the payload as text, then that nothing became markup.
        #expect(dom.contains("&lt;script&gt;document.title='pwned'&lt;/script&gt;"))
        #expect(!dom.contains("<pwned"))
        #expect(!dom.contains("pwned</title>"))
        #expect(!dom.contains("<img src=\"x\""))
        #expect(!dom.contains("<script>document.title"))
        let visible = try HeadlessBrowser.visibleText(of: html)
        #expect(visible.contains("document.title='pwned'"))
        #expect(visible.contains("onerror"))
    }

    /// report.md: the payloads of the servers, the domain list and the crafted baseline's changes
    /// leave no raw HTML tag, link, image or entity, and start no heading or table row.
    @Test func theMarkdownReportHasNoActiveMarkup() throws {
        let run = try Self.run.get()
        #expect(run.report.changes?.findingsGone.contains { $0.id == HostileReport.id } == true, "the baseline's id is in the changes")
        let markdown = try String(contentsOf: run.directory.appendingPathComponent("report.md"), encoding: .utf8)
        let markup = MarkdownInspector.activeMarkup(in: markdown)
        #expect(markup.isEmpty, "\(markup.prefix(5))")
        #expect(markdown.contains("document.title='pwned'"), "the payload shows as text")
        let lines = markdown.split(separator: "\n")
        #expect(!lines.contains { $0.hasPrefix("# INJECTED") || $0.hasPrefix("| INJECTED") })
        for row in lines where row.hasPrefix("|") { #expect(MarkdownInspector.cellCount(ofRow: String(row)) == 3, "\(row)") }
        #expect(!markdown.unicodeScalars.contains { ($0.value < 0x20 && $0.value != 0x0A) || (0x7F..<0xA0).contains($0.value) })
        // As GitHub shows it (cmark-gfm with its autolink extension): no link, no image, the text reads as sent.
        let rendered = try MarkdownInspector.renderGitHubFlavoured(markdown)
        #expect(MarkdownInspector.links(inHTML: rendered).isEmpty, "\(MarkdownInspector.links(inHTML: rendered).prefix(3))")
        #expect(!rendered.contains("<img") && !rendered.contains("<script"))
        let visible = MarkdownInspector.visibleText(ofHTML: rendered)
        #expect(visible.contains("https://evil.example/phish www.evil.example admin@evil.example"), "the bare addresses read as sent")
    }

    /// report.junit.xml parses as XML 1.0 and gives the payloads back as text.
    @Test func theJUnitReportIsWellFormed() throws {
        let url = try Self.run.get().directory.appendingPathComponent("report.junit.xml")
        let document = try XMLDocument(contentsOf: url, options: [])
        let suites = document.rootElement()?.elements(forName: "testsuite") ?? []
        #expect(suites.count == 3, "the domain list and two domains")
        #expect(document.rootElement()?.stringValue?.contains(HostileContent.script) == true)
        #expect(!(try Data(contentsOf: url)).contains(0x1B))
    }
}
