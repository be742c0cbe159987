import Audit
import Foundation
import Reporting
import Testing
import TestSupport

/// A large page shows passing domains as one row each (`HTMLPageForm`): the choice, and what
/// the page then holds.
@Suite struct PassingListTests {
    @Test(arguments: [(0, HTMLPageForm.full), (1, .full), (HTMLReporter.fullSectionsUpTo, .full),
                      (HTMLReporter.fullSectionsUpTo + 1, .compact), (100_000, .compact)])
    func theFormFollowsTheNumberOfDomains(count: Int, form: HTMLPageForm) {
        #expect(HTMLPageForm.forPage(of: count) == form)
    }

    /// `good.example` renamed `passing` times (good-0.example, ...), with the failing `expired.example`
    /// and the warning `fallback.example`.
    static func report(passing: Int, edit: (Int, inout DomainResult) -> Void = { _, _ in }) -> AuditReport {
        let passes = (0..<passing).map { index -> DomainResult in
            var domain = ReportFixtures.passing
            domain.domain = "good-\(index).example"
            edit(index, &domain)
            return domain
        }
        return AuditReport(tool: ReportFixtures.tool, generatedAt: ReportFixtures.generatedAt, complete: true,
                           domains: [ReportFixtures.expired, ReportFixtures.fallback] + passes)
    }

    static func count(_ needle: String, in page: String) -> Int { page.components(separatedBy: needle).count - 1 }

    @Test func aLargePageHasFullSectionsForTheOthersAndOneRowPerPassingDomain() throws {
        let page = HTMLReporter.render(Self.report(passing: HTMLReporter.fullSectionsUpTo))
        #expect(Self.count("<section class=\"domain v-pass\"", in: page) == 0)
        #expect(Self.count("<section class=\"domain v-fail\" id=\"d-expired-example\">", in: page) == 1)
        #expect(Self.count("<section class=\"domain v-warn\" id=\"d-fallback-example\">", in: page) == 1)
        #expect(page.contains("<section id=\"passing\">"))
        #expect(Self.count("<tr><td>good-", in: page) == HTMLReporter.fullSectionsUpTo)
        #expect(page.contains("<tr><td>good-7.example<td>60\n"))
        #expect(page.contains("\(HTMLReporter.fullSectionsUpTo) passing domains are shown as one row each"))
        #expect(page.contains("report.json has their details"))
        // The summary table lists the two others once; the passing domains only in their list.
        #expect(Self.count("<a href=\"#d-good-", in: page) == 0)
        #expect(Self.count("<a href=\"#d-expired-example\">", in: page) == 1)
        // The failing domain's evidence is all there: its locations, certificate, timings.
        let failing = try #require(page.range(of: "id=\"d-expired-example\"").map { String(page[$0.upperBound...]) })
        let section = try #require(failing.components(separatedBy: "</section>").first)
        for part in ["Why it fails", "<div class=\"location\">", "Valid until", "Timings", "Apple's CDN"] {
            #expect(section.contains(part), "the failing section lacks \(part)")
        }
    }

    @Test func aPageAtTheLimitGivesEveryDomainItsSection() {
        let page = HTMLReporter.render(Self.report(passing: HTMLReporter.fullSectionsUpTo - 2))
        #expect(Self.count("<section class=\"domain v-pass\"", in: page) == HTMLReporter.fullSectionsUpTo - 2)
        #expect(!page.contains("<section id=\"passing\">"))
        #expect(!page.contains("shown as one row each"))
        #expect(page.contains("This printout leaves out the sections of passing domains"))
    }

    @Test func whatDevicesGetIsSaidOnceWhenTheSameForEveryRow() {
        let page = HTMLReporter.render(Self.report(passing: 300))
        #expect(page.contains("<p>For each of them: Apple devices get the file Apple reads at /.well-known/apple-app-site-association, from Apple&#39;s CDN, whose copy is the same.</p>"))
        #expect(!page.contains("<th>Apple devices get"))
        #expect(page.contains("This printout leaves out the list of passing domains"))
    }

    @Test func whatDevicesGetIsInAColumnWhenRowsDiffer() {
        let page = HTMLReporter.render(Self.report(passing: 300) { index, domain in
            if index % 2 == 1 {
                domain.cdn = nil
                domain.deviceGets = .originFile
            }
        })
        #expect(!page.contains("For each of them: "))
        #expect(page.contains("<p>For each of them, Apple reads the file at <code>/.well-known/apple-app-site-association</code>.</p>"))
        #expect(page.contains("<th>Apple devices get"))
        #expect(page.contains("<tr><td>good-1.example<td>60<td>"))
        #expect(Self.count("<td>the file (Apple&#39;s CDN not checked)\n", in: page) == 150)
        #expect(Self.count("<td>the file, from Apple&#39;s CDN (the same copy)\n", in: page) == 150)
    }

    @Test func aLargePageWhereAllPassSaysSo() {
        var report = Self.report(passing: 250)
        report.domains.removeFirst(2)
        let page = HTMLReporter.render(report)
        #expect(page.contains("No domain fails or warns. The 250 passing domains are shown as one row each"))
        #expect(!page.contains("<table class=\"summary\">"))
        #expect(Self.count("<tr><td>good-", in: page) == 250)
    }

    @Test func aLargePageWhereNonePassesHasNoPassingList() {
        var report = Self.report(passing: 0)
        report.domains = (0..<250).map { index in
            var domain = ReportFixtures.expired
            domain.domain = "expired-\(index).example"
            return domain
        }
        let page = HTMLReporter.render(report)
        #expect(!page.contains("<section id=\"passing\">"))
        #expect(!page.contains("shown as one row each"))
        #expect(Self.count("<section class=\"domain v-fail\"", in: page) == 250)
    }

    /// In Chromium: the failing domain's full section and a passing domain's row are laid out and
    /// visible (positions read by a script the test appends to a copy of the page; the page has none).
    @Test func chromiumShowsTheFailingSectionAndThePassingRows() throws {
        let probe = """
            <script>(function () {
              function shown(e) { if (!e) return 'missing'; var r = e.getBoundingClientRect(); return r.height > 0 && r.width > 0 ? 'shown' : 'hidden'; }
              var failing = document.querySelector('section.domain.v-fail');
              var row = Array.from(document.querySelectorAll('#passing tbody tr')).find(function (r) { return r.cells[0].textContent === 'good-150.example'; });
              document.body.setAttribute('data-probe', [
                'failing=' + shown(failing),
                'cause=' + shown(failing && failing.querySelector('dl.first dd.sev-error')),
                'cards=' + (failing ? failing.querySelectorAll('div.location').length : 0),
                'row=' + shown(row),
                'cells=' + (row ? Array.from(row.cells).map(function (c) { return c.textContent; }).join('|') : ''),
                'passSections=' + document.querySelectorAll('section.domain.v-pass').length,
                'rows=' + document.querySelectorAll('#passing tbody tr').length].join(';'));
            })();</script>
            """
        let page = HTMLReporter.render(Self.report(passing: 300)).replacingOccurrences(of: "</body>", with: probe + "</body>")
        let folder = try AuditBinary.temporaryDirectory()
        let file = folder.appendingPathComponent("large.html")
        try page.write(to: file, atomically: true, encoding: .utf8)
        let dom = try HeadlessBrowser.renderedDOM(of: file, width: 1000)
        let probed = try #require(dom.range(of: "data-probe=\"[^\"]*\"", options: .regularExpression).map { String(dom[$0]) })
        for part in ["failing=shown", "cause=shown", "row=shown", "cells=good-150.example|60", "passSections=0", "rows=300"] {
            #expect(probed.contains(part), "\(part) not in \(probed)")
        }
        #expect(!probed.contains("cards=0"), "the failing section has its location cards: \(probed)")
    }
}
