import AASA
import Audit
import Foundation

// The changes since the baseline.
extension HTMLWriter {
    mutating func changesSection(_ changes: ReportChanges) {
        raw("<section class=\"box changes\" id=\"changes\">\n<h2>Changes since the baseline</h2>\n<p class=\"meta\">Compared with the run of ")
        raw(Formatting.utc(changes.baselineGeneratedAt))
        if let path = changes.baselinePath {
            raw(" (<code>")
            text(path)
            raw("</code>)")
        }
        raw(changes.baselineComplete ? ".</p>\n" : "; that run was interrupted, so domains missing from it are not listed as removed.</p>\n")
        guard !changes.isEmpty else {
            raw("<p>Nothing changed.</p>\n</section>\n")
            return
        }
        let limit = HTMLReporter.maxChangesListed
        var linked = Set<String>()
        for list in [changes.newlyFailing, changes.recovered, changes.otherVerdictChanges] { linked.formUnion(list.prefix(limit).map(\.domain)) }
        linked.formUnion(changes.certificates.prefix(limit).map(\.domain))
        for list in [changes.findingsAppeared, changes.findingsGone] { linked.formUnion(list.prefix(limit).map(\.domain)) }
        for list in [changes.domainsAdded, changes.domainsRemoved] { linked.formUnion(list.prefix(limit)) }
        let anchors = linkTargets(for: linked, unicode: true)
        raw("<ul class=\"changes\">\n")
        for change in changes.newlyFailing.prefix(limit) {
            raw("<li><span class=\"badge fail\">newly failing</span> ")
            link(change.domain, unicode: change.unicodeDomain, anchors: anchors)
            raw(" (was \(change.from.rawValue))")
            if let reason = change.reason {
                raw(": <code>")
                text(reason.id)
                raw("</code> ")
                text(reason.message)
            }
            raw("</li>\n")
        }
        more(changes.newlyFailing.count, "newly failing domain")
        for change in changes.recovered.prefix(limit) {
            raw("<li><span class=\"badge pass\">recovered</span> ")
            link(change.domain, unicode: change.unicodeDomain, anchors: anchors)
            raw(" (now \(change.to.rawValue))</li>\n")
        }
        more(changes.recovered.count, "recovered domain")
        for change in changes.otherVerdictChanges.prefix(limit) {
            raw("<li>Verdict changed: ")
            link(change.domain, unicode: change.unicodeDomain, anchors: anchors)
            raw(" \(change.from.rawValue) → \(change.to.rawValue)</li>\n")
        }
        more(changes.otherVerdictChanges.count, "verdict change")
        for certificate in changes.certificates.prefix(limit) {
            raw("<li>Certificate of ")
            link(certificate.domain, unicode: nil, anchors: anchors)
            raw(certificate.kind == .renewed ? " " : " <span class=\"bad\">")
            switch certificate.kind {
            case .expired: raw("expired")
            case .expiringSoon: raw("crossed the expiry warning")
            case .renewed: raw("was renewed")
            }
            raw(certificate.kind == .renewed ? "" : "</span>")
            raw(": \(Formatting.daysLeftText(certificate.daysLeft)) (\(Formatting.daysLeftText(certificate.daysLeftBefore)) at the baseline)</li>\n")
        }
        more(changes.certificates.count, "certificate change")
        for (title, list) in [("New", changes.findingsAppeared), ("Gone", changes.findingsGone)] {
            for finding in list.prefix(limit) {
                raw("<li>\(title) <span class=\"sev-\(finding.severity.rawValue)\"><span class=\"sev\">\(finding.severity.rawValue)</span></span> ")
                link(finding.domain, unicode: nil, anchors: anchors)
                if let location = finding.location {
                    raw(" <code>")
                    text(location)
                    raw("</code>")
                }
                raw(": <code>")
                text(finding.id)
                raw("</code> ")
                text(finding.message)
                raw("</li>\n")
            }
            more(list.count, title == "New" ? "new finding" : "finding gone")
        }
        for (title, list) in [("Domains added", changes.domainsAdded), ("Domains removed", changes.domainsRemoved)] where !list.isEmpty {
            raw("<li>\(title): ")
            for (i, domain) in list.prefix(limit).enumerated() {
                if i > 0 { raw(", ") }
                link(domain, unicode: nil, anchors: anchors)
            }
            if list.count > limit { raw(" and \(list.count - limit) more") }
            raw("</li>\n")
        }
        raw("</ul>\n</section>\n")
    }

    /// A domain name linked to its section when it has one in this report (removed domains do not).
    mutating func link(_ domain: String, unicode: String?, anchors: [String: String]) {
        if let anchor = anchors[domain] { raw("<a href=\"#\(anchor)\">") }
        text(unicode ?? unicodeNames[domain] ?? domain)
        if anchors[domain] != nil { raw("</a>") }
    }

    mutating func more(_ count: Int, _ word: String) {
        if count > HTMLReporter.maxChangesListed {
            raw("<li>… and \(Formatting.plural(count - HTMLReporter.maxChangesListed, "more \(word)"))</li>\n")
        }
    }
}
