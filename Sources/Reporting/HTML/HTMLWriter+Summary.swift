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
        let digests = domains.digests
        // Passing domains are listed once, as lines of the passing list after the sections.
        let rows = ordered.filter { form.hasSection(digests[$0.position].verdict) }
        let passing = digests.count - rows.count
        if form == .compact && passing > 0 {
            raw("<p>")
            if rows.isEmpty { raw("No domain fails or warns. ") }
            raw("The \(Formatting.plural(passing, "passing domain")) \(passing == 1 ? "is" : "are") shown as one line each ")
            raw("in <a href=\"#passing\">Passing domains</a>, after the sections of the others.</p>\n")
        }
        guard !rows.isEmpty else {
            summaryNotes(digests)
            return
        }
        // On a phone the rows become cards (report.css), each cell named by its data-label. The rows
        // come from the digests (no domain is read back for them), in tables of
        // `HTMLReporter.summaryRowsPerTable` rows, each with its header: their columns have the same
        // widths (report.css), so they read as one table.
        for (index, (position, anchor)) in rows.enumerated() {
            if index % HTMLReporter.summaryRowsPerTable == 0 {
                if index > 0 { raw("</tbody>\n</table></div>\n") }
                raw("<div class=\"scroll part\"><table class=\"summary\">\n<thead><tr><th>Domain</th><th>Verdict</th>")
                raw("<th>Apple uses</th><th>Certificate</th><th>Main problem</th></tr></thead>\n<tbody>\n")
            }
            let domain = digests[position]
            raw("<tr><td data-label=\"Domain\"><a href=\"#\(anchor)\">")
            domainName(domain.domain, unicode: domain.unicodeDomain)
            raw("</a></td><td data-label=\"Verdict\">")
            badge(domain.verdict)
            raw("</td><td data-label=\"Apple uses\">")
            if let used = domain.usedLocation {
                // A short name; the path is in the title and in the note under the table, so the
                // column does not wrap a 40-character path over several lines.
                raw("<code class=\"nowrap\" title=\"")
                text(used)
                raw("\">")
                text(Self.shortName(ofLocation: used))
                raw("</code>")
            } else {
                raw("<span class=\"muted\">no file it can read</span>")
            }
            raw("</td><td data-label=\"Certificate\">")
            certificateCell(domain)
            raw("</td><td data-label=\"Main problem\">")
            if let headline = domain.headline {
                text(headline)
            } else {
                raw("<span class=\"muted\">none</span>")
            }
            raw("</td></tr>\n")
            // A row per domain: for a long list the table alone is megabytes, so it goes out in pieces too.
            flush()
        }
        raw("</tbody>\n</table></div>\n")
        summaryNotes(digests)
    }

    /// The notes under the summary table, said once for the whole page, and the end of the summary.
    mutating func summaryNotes(_ digests: [DomainDigest]) {
        raw("<p class=\"meta\"><code>.well-known</code>: <code>\(AASAFile.wellKnownPath)</code>, where Apple looks first; ")
        raw("<code>root</code>: <code>\(AASAFile.rootPath)</code>, its fallback.</p>\n")
        // How Apple's CDN refreshes is the same for every domain: said once, here.
        if digests.contains(where: { $0.deviceGets?.waitsForCDNRefresh ?? false }) {
            raw("<p class=\"meta\">")
            text(CDNCheck.refreshFact)
            raw("</p>\n")
        }
        raw(form == .compact
            ? "<p class=\"meta print-only\">This printout leaves out the list of passing domains (the HTML file has it), the root fallbacks"
            : "<p class=\"meta print-only\">This printout leaves out the sections of passing domains (their row above says all that matters), the root fallbacks")
        raw(" Apple does not read, notes, the timings, the certificates' key and signature details ")
        raw("(their findings say what matters), Apple's crawler and CDN where they agree with the server or only repeat its failure ")
        raw("and the served bodies after their first \(HTMLReporter.maxPrintedBodyLines) lines; ")
        raw("the HTML file shows them all.</p>\n</section>\n")
    }

    /// The certificate of a summary row or passing row: its problem, its days left or "unknown". The
    /// certificate, its problem and its days left are the audit's judgement (`DomainResult.certificate`):
    /// a certificate Apple refuses says why, not days left that would read as if all were well.
    mutating func certificateCell(_ domain: DomainDigest) {
        if let problem = domain.certificateProblem {
            raw("<span class=\"bad\">")
            raw(problem.words)
            raw("</span>")
        } else if let days = domain.certificateDaysLeft {
            // A span only where it says something (at 100,000 rows, bytes count).
            if days < 0 { raw("<span class=\"bad\">") }
            raw(Formatting.daysLeftText(days))
            if days < 0 { raw("</span>") }
        } else {
            raw("<span class=\"muted\">unknown</span>")
        }
    }

    /// ".well-known" or "root" for the two file locations; any other path (from a report file) as it is.
    static func shortName(ofLocation path: String) -> String {
        switch path {
        case AASAFile.wellKnownPath: return ".well-known"
        case AASAFile.rootPath: return "root"
        default: return path
        }
    }
}
