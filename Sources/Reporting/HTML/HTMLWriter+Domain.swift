import AASA
import Audit
import Foundation

// One domain's section: its verdict, its own findings, then Apple's crawler and CDN and the two locations.
extension HTMLWriter {
    mutating func domainSection(_ domain: DomainResult, anchor: String) {
        raw("<section class=\"domain v-\(domain.verdict.rawValue)\" id=\"\(anchor)\">\n<h2>")
        domainName(domain)
        raw(" ")
        badge(domain.verdict)
        raw("</h2>\n<p>")
        raw(verdictMeaning(domain.appleVerdict ?? domain.verdict))
        raw(" ")
        if let used = domain.usedLocation {
            raw("Apple takes the file from <code>")
            text(used)
            raw("</code>.")
        } else {
            raw("Apple can use neither location.")
        }
        raw("</p>\n")
        if !domain.findings.isEmpty {
            raw("<h3>About the domain</h3>\n")
            findings(domain.findings)
        }
        if let crawler = domain.crawler { crawlerBlock(crawler) }
        if let cdn = domain.cdn { cdnBlock(cdn) }
        for location in domain.locations { locationBlock(location, of: domain) }
        if let android = domain.android { androidSection(android, of: domain) }
        raw("<p class=\"top\"><a href=\"#summary\">Back to the summary</a></p>\n</section>\n")
    }

    mutating func domainName(_ domain: DomainResult) {
        if let unicode = domain.unicodeDomain, unicode != domain.domain {
            text(unicode)
            raw(" <span class=\"ascii\">(")
            text(domain.domain)
            raw(")</span>")
        } else {
            text(domain.domain)
        }
    }

    mutating func badge(_ verdict: Verdict) {
        switch verdict {
        case .pass: raw("<span class=\"badge pass\">✔ pass</span>")
        case .warn: raw("<span class=\"badge warn\">⚠ warn</span>")
        case .fail: raw("<span class=\"badge fail\">✖ fail</span>")
        }
    }

    func verdictMeaning(_ verdict: Verdict) -> String {
        switch verdict {
        case .pass: return "Apple can use the file."
        case .warn: return "Apple can use the file, but something needs attention."
        case .fail: return "Apple cannot use the file: universal links and the other associated-domain features do not work for this domain."
        }
    }

    mutating func findings(_ list: [Finding]) {
        raw("<ul class=\"findings\">\n")
        for finding in list {
            raw("<li class=\"sev-\(finding.severity.rawValue)\"><span class=\"sev\">")
            raw(finding.severity.rawValue)
            raw("</span> <code>")
            text(finding.id)
            raw("</code> ")
            text(finding.message)
            if let pointer = finding.pointer {
                raw(" <span class=\"muted\">(at <code>")
                text(pointer)
                raw("</code>)</span>")
            }
            if let fix = finding.fix {
                raw("<br><span class=\"fix\">Fix: ")
                text(fix)
                raw("</span>")
            }
            raw("</li>\n")
        }
        raw("</ul>\n")
    }
}
