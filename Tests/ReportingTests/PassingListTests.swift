import Audit
import Foundation
import Reporting
import Testing
import TestSupport

/// A large page shows passing domains as one line each (`HTMLPageForm`): the choice, and what
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

    @Test func aLargePageHasFullSectionsForTheOthersAndOneLinePerPassingDomain() throws {
        let page = HTMLReporter.render(Self.report(passing: HTMLReporter.fullSectionsUpTo))
        #expect(Self.count("<section class=\"domain v-pass\"", in: page) == 0)
        #expect(Self.count("<section class=\"domain v-fail\" id=\"d-expired-example\">", in: page) == 1)
        #expect(Self.count("<section class=\"domain v-warn\" id=\"d-fallback-example\">", in: page) == 1)
        #expect(page.contains("<section id=\"passing\">"))
        #expect(Self.count("\ngood-", in: page) + Self.count("<pre>good-", in: page) == HTMLReporter.fullSectionsUpTo)
        #expect(page.contains("\ngood-7.example\t60\n"))
        #expect(page.contains("\(HTMLReporter.fullSectionsUpTo) passing domains are shown as one line each"))
        // What the columns are, in words and on the list's first line.
        #expect(page.contains("<p>Each line is one domain: its name and the days left on its certificate.</p>"))
        #expect(page.contains("<pre class=\"head\">Domain\tCertificate: days left</pre>"))
        #expect(!page.contains("<tr><td>good-"))
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

    /// A passing domain of a compact page has no section: the history's link to it goes to the
    /// passing list (its own anchor is not on the page), a failing one's to its section.
    @Test func theHistoryLinksAPassingDomainOfACompactPageToThePassingList() {
        var report = Self.report(passing: HTMLReporter.fullSectionsUpTo)
        report.history = ReportHistory(
            earlierListRuns: 3,
            failingSince: [FailingStreak(domain: "expired.example", since: report.generatedAt, runs: 2)],
            fixed: [FixedDomain(domain: "good-7.example", afterRuns: 2, verdict: .pass)],
            flapping: [], expiringCertificates: [], trend: [])
        let page = HTMLReporter.render(report)
        #expect(page.contains("<a href=\"#passing\">good-7.example</a>"))
        #expect(page.contains("<a href=\"#d-expired-example\">expired.example</a>"))
        #expect(!page.contains("#d-good-"))
    }

    @Test func aPageAtTheLimitGivesEveryDomainItsSection() {
        let page = HTMLReporter.render(Self.report(passing: HTMLReporter.fullSectionsUpTo - 2))
        #expect(Self.count("<section class=\"domain v-pass\"", in: page) == HTMLReporter.fullSectionsUpTo - 2)
        #expect(!page.contains("<section id=\"passing\">"))
        #expect(!page.contains("shown as one line each"))
        #expect(page.contains("This printout leaves out the sections of passing domains"))
    }

    @Test func whatDevicesGetIsSaidOnceWhenTheSameForEveryRow() {
        let page = HTMLReporter.render(Self.report(passing: 300))
        #expect(page.contains("<p>For each of them: Apple devices get the file Apple reads at /.well-known/apple-app-site-association, from Apple&#39;s CDN, whose copy is the same.</p>"))
        #expect(!page.contains("Apple devices get</pre>"))
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
        #expect(page.contains("<pre class=\"head\">Domain\tCertificate: days left\tApple devices get</pre>"))
        #expect(page.contains("<p>Each line is one domain: its name, the days left on its certificate and what Apple devices get.</p>"))
        #expect(page.contains("\ngood-1.example\t60\tthe file (Apple's CDN not checked)\n"))
        #expect(Self.count("\t60\tthe file (Apple's CDN not checked)\n", in: page) == 150)
        #expect(Self.count("\t60\tthe file, from Apple's CDN (the same copy)\n", in: page) == 150)
        // The columns start at the same place on every line: a tab stop past the widest entry
        // ("Certificate: days left", 22 characters; the names have at most 16).
        #expect(page.contains("<div class=\"lines\" style=\"tab-size:24\">"))
    }

    @Test func aLargePageWhereAllPassSaysSo() {
        var report = Self.report(passing: 250)
        report.domains.removeFirst(2)
        let page = HTMLReporter.render(report)
        #expect(page.contains("No domain fails or warns. The 250 passing domains are shown as one line each"))
        #expect(!page.contains("<table class=\"summary\">"))
        #expect(Self.count("\ngood-", in: page) + Self.count("<pre>good-", in: page) == 250)
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
        #expect(!page.contains("shown as one line each"))
        #expect(Self.count("<section class=\"domain v-fail\"", in: page) == 250)
    }

    /// A name from a report file can hold anything: a line feed, a tab or a line separator in it
    /// ends neither its line nor its column (shown as their control pictures, or U+FFFD).
    @Test func aPassingLineCannotBeSplitByItsName() {
        let page = HTMLReporter.render(Self.report(passing: 250) { index, domain in
            if index == 3 { domain.domain = "evil.example\nforged.example\t999\r\u{2028}x" }
        })
        #expect(page.contains("\nevil.example␊forged.example␉999␍\u{FFFD}x\t60\n"))
        #expect(!page.contains("\nforged.example"))
        #expect(!page.contains("\t999"))
    }

    /// The columns' tab stop is past the widest name, up to 48 characters: one very long name does
    /// not push every line's days left far to the right.
    @Test func aVeryLongNameDoesNotMoveEveryLinesColumns() {
        let long = String(repeating: "a", count: 60) + ".example"
        let page = HTMLReporter.render(Self.report(passing: 250) { index, domain in
            if index == 0 { domain.domain = long }
        })
        #expect(page.contains("<div class=\"lines\" style=\"tab-size:50\">"))
        #expect(page.contains(long + "\t60\n"))
    }

    /// The lines go in blocks of `HTMLReporter.passingLinesPerBlock` (each laid out by the browser
    /// only near the screen), after one heading line; every domain is in one of them, in order.
    @Test func thePassingLinesGoInBlocks() throws {
        let count = HTMLReporter.passingLinesPerBlock * 2 + 5
        let page = HTMLReporter.render(Self.report(passing: count))
        let list = try #require(page.range(of: "<div class=\"lines\"").map { String(page[$0.lowerBound...]) })
        #expect(Self.count("<pre class=\"head\">", in: list) == 1)
        let blocks = list.components(separatedBy: "<pre>").dropFirst().map { $0.components(separatedBy: "</pre>")[0] }
        #expect(blocks.map { $0.split(separator: "\n").count } == [HTMLReporter.passingLinesPerBlock, HTMLReporter.passingLinesPerBlock, 5])
        let names = blocks.flatMap { $0.split(separator: "\n").map { String($0.split(separator: "\t")[0]) } }
        #expect(names == (0..<count).map { "good-\($0).example" })
    }

    /// The summary's rows go in tables of `HTMLReporter.summaryRowsPerTable`, each with the header
    /// row (the browser lays out only those near the screen); all rows are there, worst first.
    @Test func theSummaryRowsGoInTablesOfFifty() throws {
        var report = Self.report(passing: 250)
        report.domains += (0..<120).map { index in
            var domain = ReportFixtures.expired
            domain.domain = "expired-\(index).example"
            return domain
        }
        let page = HTMLReporter.render(report)
        let summary = try #require(page.range(of: "<section id=\"summary\">").map { String(page[$0.upperBound...]) }?
            .components(separatedBy: "</section>").first)
        let tables = summary.components(separatedBy: "<div class=\"scroll part\"><table class=\"summary\">").dropFirst()
        #expect(tables.count == 3)
        for table in tables {
            #expect(table.hasPrefix("\n<thead><tr><th>Domain</th><th>Verdict</th><th>Apple uses</th><th>Certificate</th><th>Main problem</th></tr></thead>\n<tbody>\n"))
            #expect(table.contains("</tbody>\n</table></div>\n"))
        }
        #expect(tables.map { Self.count("<tr><td data-label=\"Domain\">", in: $0) } == [HTMLReporter.summaryRowsPerTable, HTMLReporter.summaryRowsPerTable, 22])
        // Worst first: the failing ones, then the warning one, last.
        #expect(tables.last.map { Self.count("href=\"#d-fallback-example\"", in: $0) } == 1)
        #expect(Self.count("<a href=\"#d-expired-", in: summary) == 121)
    }

    /// In Chromium: the failing domain's full section and a passing domain's line are laid out and
    /// visible, and find in page finds a passing domain (positions read by a script the test appends
    /// to a copy of the page; the page has none).
    @Test func chromiumShowsTheFailingSectionAndThePassingLines() throws {
        let probe = """
            <script>(function () {
              function shown(e) { if (!e) return 'missing'; var r = e.getBoundingClientRect(); return r.height > 0 && r.width > 0 ? 'shown' : 'hidden'; }
              var failing = document.querySelector('section.domain.v-fail');
              var blocks = Array.from(document.querySelectorAll('#passing .lines pre:not(.head)'));
              var lines = [].concat.apply([], blocks.map(function (b) { return b.textContent.split('\\n').filter(function (l) { return l !== ''; }); }));
              var line = lines.find(function (l) { return l.split('\\t')[0] === 'good-150.example'; });
              var range = null;
              blocks.forEach(function (b) {
                var at = b.textContent.indexOf('\\ngood-150.example\\t');
                if (at >= 0) { range = document.createRange(); range.setStart(b.firstChild, at + 1); range.setEnd(b.firstChild, at + 1 + 'good-150.example'.length); }
              });
              var head = document.querySelector('#passing .lines pre.head');
              document.body.setAttribute('data-probe', [
                'failing=' + shown(failing),
                'cause=' + shown(failing && failing.querySelector('dl.first dd.sev-error')),
                'cards=' + (failing ? failing.querySelectorAll('div.location').length : 0),
                'line=' + shown(range),
                'cells=' + (line ? line.split('\\t').join('|') : ''),
                'head=' + (head ? head.textContent.split('\\t').join('|') : ''),
                'found=' + window.find('good-299.example'),
                'passSections=' + document.querySelectorAll('section.domain.v-pass').length,
                'lines=' + lines.length].join(';'));
            })();</script>
            """
        let page = HTMLReporter.render(Self.report(passing: 300)).replacingOccurrences(of: "</body>", with: probe + "</body>")
        let folder = try AuditBinary.temporaryDirectory()
        let file = folder.appendingPathComponent("large.html")
        try page.write(to: file, atomically: true, encoding: .utf8)
        let dom = try HeadlessBrowser.renderedDOM(of: file, width: 1000)
        let probed = try #require(dom.range(of: "data-probe=\"[^\"]*\"", options: .regularExpression).map { String(dom[$0]) })
        for part in ["failing=shown", "cause=shown", "line=shown", "cells=good-150.example|60", "head=Domain|Certificate: days left",
                     "found=true", "passSections=0", "lines=300"] {
            #expect(probed.contains(part), "\(part) not in \(probed)")
        }
        #expect(!probed.contains("cards=0"), "the failing section has its location cards: \(probed)")
    }
}
