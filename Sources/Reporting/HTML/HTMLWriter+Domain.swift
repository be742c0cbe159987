import AASA
import Audit
import Foundation

// One domain's section: its verdict, then, causes first (`DomainResult.findingGroups`), the two
// locations, the domain's own findings, Apple's crawler and Apple's CDN.
extension HTMLWriter {
    mutating func domainSection(_ domain: DomainResult, anchor: String) {
        sectionStart(verdict: domain.verdict, anchor: anchor)
        domainSectionBody(domain)
    }

    /// The section's opening tag: the only part of it that depends on the other domains (the
    /// anchor is unique across the page), so the rest can be rendered ahead (`HTMLSectionStore`).
    mutating func sectionStart(verdict: Verdict, anchor: String) {
        raw("<section class=\"domain v-\(verdict.rawValue)\" id=\"\(anchor)\">\n")
    }

    /// Everything of the section after its opening tag, from the domain's result alone.
    mutating func domainSectionBody(_ domain: DomainResult) {
        raw("<h2>")
        domainName(domain.domain, unicode: domain.unicodeDomain)
        raw(" ")
        badge(domain.verdict)
        raw("</h2>\n<p>")
        verdictSentence(domain)
        raw("</p>\n")
        // Causes first (`DomainResult.findingGroups`): what each location serves, then the domain's
        // own findings, Apple's crawler and Apple's CDN, which follow from it. A finding both
        // locations report (an expired certificate) is listed once, before either location.
        let located = LocatedFinding.merging(domain.listedLocations)
        let shared = located.filter { $0.locations.count > 1 }
        if !shared.isEmpty {
            raw("<h3>At both locations</h3>\n")
            findings(shared.map(\.finding))
        }
        // The evidence boxes in containers: printed two by two (report.css), they take half the paper.
        raw("<div class=\"locations\">\n")
        for (index, location) in domain.locations.enumerated() {
            let own = located.filter { $0.locations == [location.path] }.map(\.finding)
            let alsoShared = shared.filter { $0.locations.contains(location.path) }.count
            // A body byte for byte the same as an earlier location's is named, not printed twice.
            let sameBodyAs = domain.locations.prefix(index).first { Self.sameBody($0, location) }?.path
            locationBlock(location, of: domain, findings: own, alsoShared: alsoShared, sameBodyAs: sameBodyAs)
        }
        raw("</div>\n")
        let domainFindings = domain.orderedDomainFindings
        if !domainFindings.isEmpty {
            raw("<h3>About the domain</h3>\n")
            findings(domainFindings)
        }
        if domain.crawler != nil || domain.cdn != nil {
            raw("<div class=\"locations\">\n")
            if let crawler = domain.crawler { crawlerBlock(crawler) }
            if let cdn = domain.cdn { cdnBlock(cdn) }
            raw("</div>\n")
        }
        if let android = domain.android { androidSection(android, of: domain) }
        raw("<p class=\"top\"><a href=\"#summary\">Back to the summary</a></p>\n</section>\n")
    }

    /// What the verdict means for this domain and where Apple takes the file from. A file Apple can
    /// read is the file Apple uses, even when the domain fails on some of its entries: then the
    /// sentence says so and names the main problem, never that Apple cannot use the file.
    mutating func verdictSentence(_ domain: DomainResult) {
        let used = domain.usedLocation
        if domain.isAndroidOnly {
            // No app claims the domain on Apple's platforms: its AASA file, or its absence, changes nothing.
            raw("Only Android apps claim this domain, so it needs no apple-app-site-association file; its verdict is that of its Android App Links file.")
            return
        }
        // Apple's part alone: an Android part that fails has its own section and sentence.
        switch (domain.appleVerdict ?? domain.verdict, used) {
        case (.pass, _):
            raw("Apple can use the file.")
        case (.warn, _):
            raw("Apple can use the file, but something needs attention.")
        case (.fail, .some):
            raw("Apple can read the file, but something does not work")
            if let headline = domain.headline {
                raw(": ")
                text(headline.message)
            } else {
                raw(".")
            }
        case (.fail, nil):
            raw("Apple cannot read a file at either location, so universal links and the other associated-domain features get nothing from this server.")
        }
        raw(" ")
        if let used {
            raw("Apple takes the file from <code>")
            text(used)
            raw("</code>.")
        } else {
            raw("Apple uses neither location.")
        }
    }

    /// The domain's Unicode name with its ASCII form, or its ASCII name.
    mutating func domainName(_ ascii: String, unicode: String?) {
        if let unicode, unicode != ascii {
            text(unicode)
            raw(" <span class=\"ascii\">(")
            text(ascii)
            raw(")</span>")
        } else {
            text(ascii)
        }
    }

    mutating func badge(_ verdict: Verdict) {
        switch verdict {
        case .pass: raw("<span class=\"badge pass\">✔ pass</span>")
        case .warn: raw("<span class=\"badge warn\">⚠ warn</span>")
        case .fail: raw("<span class=\"badge fail\">✖ fail</span>")
        }
    }

    /// `read`: false for the findings of a location nobody reads (`LocationRole.fallbackNotRead`):
    /// listed as notes, without severity or fix, since they are not problems.
    mutating func findings(_ list: [Finding], read: Bool = true) {
        raw("<ul class=\"findings\">\n")
        for finding in list {
            let severity = read ? finding.severity.rawValue : Severity.info.rawValue
            raw("<li class=\"sev-\(severity)\"><span class=\"sev\">")
            raw(read ? severity : "not read")
            raw("</span> <code>")
            text(finding.id)
            raw("</code> ")
            text(finding.message)
            if let pointer = finding.pointer {
                raw(" <span class=\"muted\">(at <code>")
                text(pointer)
                raw("</code>)</span>")
            }
            if read, let fix = finding.fix {
                raw("<br><span class=\"fix\">Fix: ")
                text(fix)
                raw("</span>")
            }
            raw("</li>\n")
        }
        raw("</ul>\n")
    }
}
