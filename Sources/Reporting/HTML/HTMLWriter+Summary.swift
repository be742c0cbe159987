import AASA
import Audit
import Foundation

// The summary table: one row per domain, worst first.
extension HTMLWriter {
    mutating func summaryTable() {
        raw("<section id=\"summary\">\n<h2>Summary</h2>\n")
        if let android = report.summary.android {
            raw("<p>Android App Links (<code>\(AssetLinksFile.path)</code>) of \(Formatting.plural(android.domains, "domain")): ")
            raw("\(android.pass) pass, \(android.warn) warn, \(android.fail) fail. A failing Android part fails its domain.</p>\n")
        }
        guard !ordered.isEmpty else {
            raw("<p>No domains were checked.</p>\n</section>\n")
            return
        }
        raw("<div class=\"scroll\"><table>\n<thead><tr><th>Domain</th><th>Verdict</th>")
        raw("<th>Apple uses</th><th>Certificate</th><th>Main problem</th></tr></thead>\n<tbody>\n")
        for (domain, anchor) in ordered {
            raw("<tr><td><a href=\"#\(anchor)\">")
            domainName(domain)
            raw("</a></td><td>")
            badge(domain.verdict)
            raw("</td><td>")
            if let used = domain.usedLocation {
                raw("<code>")
                text(used)
                raw("</code>")
            } else {
                raw("neither location")
            }
            raw("</td><td>")
            // The certificate and its days left are the audit's judgement (`DomainResult.certificate`).
            if let days = domain.certificate?.daysLeft {
                raw(days < 0 ? "<span class=\"bad\">" : "<span>")
                raw(Formatting.daysLeftText(days))
                raw("</span>")
            } else {
                raw("<span class=\"muted\">unknown</span>")
            }
            raw("</td><td>")
            if let finding = domain.headline {
                text(finding.message)
            } else {
                raw("<span class=\"muted\">none</span>")
            }
            raw("</td></tr>\n")
        }
        raw("</tbody>\n</table></div>\n</section>\n")
    }
}
