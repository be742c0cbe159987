import AASA
import Audit
import Foundation

// The passing list of a compact page (`HTMLPageForm.compact`): one row per passing domain, after the
// sections of the others, written from the digests alone (no domain is read back for it).
extension HTMLWriter {
    /// The anchor of the passing list, where links to a passing domain of a compact page go.
    static let passingListAnchor = "passing"

    mutating func passingList() {
        let digests = domains.digests
        let passing = ordered.filter { digests[$0.position].verdict == .pass }
        raw("<section id=\"\(Self.passingListAnchor)\">\n<h2>Passing domains</h2>\n<p>")
        raw("\(Formatting.plural(passing.count, "passing domain")) \(passing.count == 1 ? "is" : "are") shown as one row each: ")
        raw("this page gives every domain its full section (certificate, headers, timings, served body) only in a report of up to ")
        raw("\(HTMLReporter.fullSectionsUpTo) domains. report.json has their details.</p>\n")
        guard !passing.isEmpty else {
            raw("</section>\n")
            return
        }
        // What devices get, and where Apple reads the file, are said once when the same for every
        // row (the usual case), else per row.
        let first = digests[passing[0].position]
        let sameGets = passing.allSatisfy { digests[$0.position].deviceGets == first.deviceGets }
        let sameUse = passing.allSatisfy { digests[$0.position].usedLocation == first.usedLocation }
        if sameGets {
            raw("<p>For each of them: ")
            let location = first.deviceGets == nil ? nil : sameUse ? first.usedLocation ?? "the location shown" : "the location shown"
            text(DevicePhrases.sentence(first.deviceGets, usedLocation: location))
            raw("</p>\n")
        } else if sameUse, let used = first.usedLocation {
            raw("<p>For each of them, Apple reads the file at <code>")
            text(used)
            raw("</code>.</p>\n")
        }
        // Closing tags a row does not need are left out (HTML allows it), and a certificate's days
        // left are a number under the column's name: at 100,000 rows each byte of a row is 100 KB.
        raw("<div class=\"scroll\"><table class=\"rows\">\n<thead><tr><th>Domain")
        if !sameUse { raw("<th>Apple uses") }
        raw("<th>Certificate: days left")
        if !sameGets { raw("<th>Apple devices get") }
        raw("</thead>\n<tbody>\n")
        for (position, _) in passing {
            let domain = digests[position]
            raw("<tr><td>")
            domainName(domain.domain, unicode: domain.unicodeDomain)
            if !sameUse {
                raw("<td>")
                if let used = domain.usedLocation { text(Self.shortName(ofLocation: used)) } else { raw("<span class=\"muted\">no file it can read</span>") }
            }
            raw("<td>")
            if domain.certificateProblem == nil, let days = domain.certificateDaysLeft, days > 0 {
                raw(String(days))
            } else {
                certificateCell(domain)
            }
            if !sameGets {
                raw("<td>")
                text(Self.deviceGetsInShort(domain.deviceGets))
            }
            raw("\n")
            flush()
        }
        raw("</tbody>\n</table></div>\n</section>\n")
    }

    /// What devices get, in a few words for a column (`DeviceGets`, judged by the audit; the full
    /// sentence is `DevicePhrases.sentence`).
    static func deviceGetsInShort(_ gets: DeviceGets?) -> String {
        switch gets {
        case nil: return "nothing needed: only Android apps claim it"
        case .file?: return "the file, from Apple's CDN (the same copy)"
        case .originFile?: return "the file (Apple's CDN not checked)"
        case .staleCopy?: return "Apple's CDN copy, which differs from the server's"
        case .noFileCrawlerBlocked?: return "no file: the server refuses Apple's crawler"
        case .noFileCDNHasNoCopy?: return "no file: Apple's CDN has no copy"
        case .noFile?: return "no file"
        }
    }
}
