import AASA
import Audit
import Foundation

// The top of the page: the title and counts, the banner of an incomplete run, skipped input lines.
extension HTMLWriter {
    mutating func header(when: String) {
        let s = report.summary
        raw("<header>\n<h1>Apple App Site Association audit</h1>\n<p class=\"meta\">Run started ")
        raw(when)
        raw(" · ")
        text(report.tool.name)
        raw(" ")
        text(report.tool.version)
        // The report's schema version is for programs; it is in report.json and the page's footer.
        raw("</p>\n")
        raw("<p class=\"counts\">")
        raw("<span class=\"badge fail\">✖ \(s.fail) fail</span> ")
        raw("<span class=\"badge warn\">⚠ \(s.warn) warn</span> ")
        raw("<span class=\"badge pass\">✔ \(s.pass) pass</span></p>\n<p>")
        raw("Of \(Formatting.plural(s.domains, "domain")) checked, \(s.fail) failed (something there does not work; its section says what), ")
        raw("\(s.warn) passed with warnings, and \(s.pass) passed.</p>\n")
        if let line = AppPhrases.failingOnTheirOwn(report.apps ?? []) {
            raw("<p><strong>")
            text(line)
            raw("</strong> See <a href=\"#apps\">Apps</a>.</p>\n")
        }
        raw("</header>\n")
    }

    /// The one line of a routed run (`RoutePhrases.line`), under the header.
    mutating func routeLine(_ line: String) {
        raw("<p class=\"meta\"><strong>")
        text(line)
        raw("</strong></p>\n")
    }

    /// How many unfinished domains an interrupted run's banner names; the JSON report has them all.
    static let notAuditedListed = 50

    mutating func interruptedBanner() {
        // Incomplete with nothing named as not audited: a merge with a shard missing (an interrupted
        // run always names what it did not reach).
        if report.notAudited?.isEmpty ?? true {
            raw("<div class=\"banner\" role=\"alert\"><strong>This report is incomplete.</strong> ")
            raw(ShardPhrases.notMerged(report).capitalizedFirst)
            raw(", so its domains were not checked; the counts above cover only ")
            raw("the \(Formatting.plural(domains.count, "domain")) below.</div>\n")
            return
        }
        raw("<div class=\"banner\" role=\"alert\"><strong>This run was interrupted.</strong> ")
        if domains.isEmpty {
            raw("It was stopped before any domain had been checked.")
        } else {
            raw("Only the \(Formatting.plural(domains.count, "domain")) below \(domains.count == 1 ? "was" : "were") checked; ")
            raw("the rest of the list was not, and the counts above cover only these.")
        }
        if let missing = report.notAudited, !missing.isEmpty {
            raw(" Not audited (\(missing.count)): ")
            for (index, domain) in missing.prefix(Self.notAuditedListed).enumerated() {
                if index > 0 { raw(", ") }
                text(domain)
            }
            if missing.count > Self.notAuditedListed { raw(" and \(missing.count - Self.notAuditedListed) more (all in report.json)") }
            raw(".")
        }
        raw("</div>\n")
    }

    mutating func inputProblems() {
        raw("<section class=\"box input\">\n<h2>Problems in the domain list</h2>\n")
        raw("<p>A line that is not a domain name was skipped; an expectation that could not be read was skipped, and its domain checked with the others.</p>\n<ul>\n")
        for problem in report.inputErrors {
            raw("<li><code>")
            text(problem.place)
            raw("</code>: <code>\"")
            text(problem.text)
            raw("\"</code>: ")
            text(problem.reason)
            raw("</li>\n")
        }
        if let omitted = report.inputErrorsOmitted, omitted > 0 {
            raw("<li>… and \(Formatting.plural(omitted, "more input error")), counted but not listed (<code>inputErrorsOmitted</code> in report.json)</li>\n")
        }
        raw("</ul>\n</section>\n")
    }
}
