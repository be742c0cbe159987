import AASA
import Audit
import Foundation

// One domain's section: first what a device gets and the first cause with its fix (the first
// screen a ticket shows), then, causes first (`DomainResult.findingGroups`), the locations (the one
// Apple uses first), the domain's own findings, Apple's crawler and Apple's CDN.
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
        raw("</h2>\n")
        firstScreen(domain)
        fixShownAbove = domain.headline?.fix == nil ? nil : domain.headline
        defer { fixShownAbove = nil }
        // Causes first (`DomainResult.findingGroups`): what each location serves, then the domain's
        // own findings, Apple's crawler and Apple's CDN, which follow from it. A finding both
        // locations report (an expired certificate) is listed once, before either location.
        let located = LocatedFinding.merging(domain.listedLocations)
        let shared = located.filter { $0.locations.count > 1 }
        // Notes alone are left off paper (report.css), and then so are their heading and mentions.
        let sharedNotesOnly = shared.allSatisfy { $0.finding.severity == .info }
        if !shared.isEmpty {
            raw(sharedNotesOnly ? "<h3 class=\"screen-only\">At both locations</h3>\n" : "<h3>At both locations</h3>\n")
            findings(shared.map(\.finding))
        }
        // The evidence boxes in containers: printed two by two (report.css), they take half the paper.
        // The location Apple uses comes first: what devices get is read there.
        raw("<div class=\"locations\">\n")
        let cards = domain.locations.filter { $0.path == domain.usedLocation } + domain.locations.filter { $0.path != domain.usedLocation }
        for (index, location) in cards.enumerated() {
            let own = located.filter { $0.locations == [location.path] }.map(\.finding)
            let alsoShared = shared.filter { $0.locations.contains(location.path) }.count
            // A body byte for byte the same as one shown above is named, not printed twice; so is the
            // certificate of the same connection.
            let sameBodyAs = cards.prefix(index).first { Self.sameBody($0, location) }?.path
            let sameTLSAs = location.tls == nil ? nil : cards.prefix(index).first { $0.tls == location.tls }?.path
            locationBlock(location, of: domain, findings: own, alsoShared: alsoShared, sharedNotesOnly: sharedNotesOnly,
                          sameBodyAs: sameBodyAs, sameTLSAs: sameTLSAs)
        }
        raw("</div>\n")
        let domainFindings = domain.orderedDomainFindings
        if !domainFindings.isEmpty {
            let echoes = domain.deviceGets == .noFile
            let offPaper = domainFindings.allSatisfy { $0.severity == .info || (echoes && $0.category == "cdn") }
            raw(offPaper ? "<h3 class=\"screen-only\">About the domain</h3>\n" : "<h3>About the domain</h3>\n")
            findings(domainFindings, echoes: domain.deviceGets == .noFile)
        }
        if domain.crawler != nil || domain.cdn != nil {
            raw("<div class=\"locations\">\n")
            if let crawler = domain.crawler { crawlerBlock(crawler) }
            if let cdn = domain.cdn { cdnBlock(cdn, echoes: domain.deviceGets == .noFile) }
            raw("</div>\n")
        }
        if let android = domain.android { androidSection(android, of: domain) }
        raw("<p class=\"top\"><a href=\"#summary\">Back to the summary</a></p>\n</section>\n")
    }

    /// The first screen of a domain: what a release device gets (`DomainResult.deviceGets`), then the
    /// finding that best explains the verdict (`DomainResult.headline`) with its fix. Nothing here
    /// says "pass" unless the domain passes.
    mutating func firstScreen(_ domain: DomainResult) {
        raw("<dl class=\"first\">\n<dt>Outcome</dt><dd>")
        deviceSentence(domain)
        raw("</dd>\n")
        if let headline = domain.headline {
            raw(domain.verdict == .fail ? "<dt>Why it fails</dt>" : "<dt>Needs attention</dt>")
            raw("<dd class=\"sev-\(headline.severity.rawValue)\">")
            text(headline.message)
            raw(" <code class=\"muted\">")
            text(headline.id)
            raw("</code></dd>\n")
            if let fix = headline.fix {
                raw("<dt>Fix</dt><dd class=\"fix\">")
                text(fix)
                raw("</dd>\n")
            }
        }
        raw("</dl>\n")
    }

    /// What a release device gets, in one sentence (`DeviceGets`, judged by the audit): the file,
    /// Apple's CDN copy, or no file and why.
    mutating func deviceSentence(_ domain: DomainResult) {
        text(DevicePhrases.sentence(domain.deviceGets, usedLocation: domain.usedLocation))
    }

    /// The domain's Unicode name with its ASCII form, or its ASCII name.
    /// `oneLine`: for a line of the passing list, where the name neither ends its line nor its cell (`cell`).
    mutating func domainName(_ ascii: String, unicode: String?, oneLine: Bool = false) {
        if let unicode, unicode != ascii {
            name(unicode, oneLine: oneLine)
            raw(" <span class=\"ascii\">(")
            name(ascii, oneLine: oneLine)
            raw(")</span>")
        } else {
            name(ascii, oneLine: oneLine)
        }
    }

    private mutating func name(_ untrusted: String, oneLine: Bool) {
        if oneLine { cell(untrusted) } else { text(untrusted) }
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
    /// `echoes`: true on a domain devices get no file from because Apple can read none at the server
    /// (`DeviceGets.noFile`): Apple's CDN's findings then only repeat that, and paper leaves them out.
    mutating func findings(_ list: [Finding], read: Bool = true, echoes: Bool = false) {
        raw("<ul class=\"findings\">\n")
        for finding in list {
            let severity = read ? finding.severity.rawValue : Severity.info.rawValue
            var classes = "sev-\(severity)"
            if echoes && finding.category == "cdn" { classes += " echo" }
            raw("<li class=\"\(classes)\"><span class=\"sev\">")
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
                if let shown = fixShownAbove, shown == finding {
                    raw("<br><span class=\"fix\">Fix: as given at the top of this section.</span>")
                } else {
                    raw("<br><span class=\"fix\">Fix: ")
                    text(fix)
                    raw("</span>")
                }
            }
            if let detail = finding.detail {
                raw("<br><small class=\"muted\">Technical detail: ")
                text(detail)
                raw("</small>")
            }
            raw("</li>\n")
        }
        raw("</ul>\n")
    }
}
