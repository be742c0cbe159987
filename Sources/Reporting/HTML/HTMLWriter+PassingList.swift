import AASA
import Audit
import Foundation

// The passing list of a compact page (`HTMLPageForm.compact`): one line per passing domain, after the
// sections of the others, written from the digests alone (no domain is read back for it).
extension HTMLWriter {
    /// The anchor of the passing list, where links to a passing domain of a compact page go.
    static let passingListAnchor = "passing"

    mutating func passingList() {
        let digests = domains.digests
        let passing = ordered.filter { digests[$0.position].verdict == .pass }
        raw("<section id=\"\(Self.passingListAnchor)\">\n<h2>Passing domains</h2>\n<p>")
        raw("\(Formatting.plural(passing.count, "passing domain")) \(passing.count == 1 ? "is" : "are") shown as one line each: ")
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
        // One line of text per domain, its columns apart by tabs, in blocks of
        // `HTMLReporter.passingLinesPerBlock` lines: a browser builds a few elements for the whole
        // list instead of three for each row (at 100,000 rows, what made the page slow to open), and
        // lays out only the blocks on screen (report.css). Find in page finds a domain as in a table.
        var headings = ["Domain"]
        var said = ["its name"]
        if !sameUse { headings.append("Apple uses"); said.append("the location Apple reads the file at") }
        headings.append("Certificate: days left")
        said.append("the days left on its certificate")
        if !sameGets { headings.append("Apple devices get"); said.append("what Apple devices get") }
        raw("<p>Each line is one domain: \(said.dropLast().joined(separator: ", ")) and \(said[said.count - 1]).</p>\n")
        // Every column but the last starts at the same distance from the last: a tab stop past its
        // widest entry (up to 48 characters; a longer one pushes its line's next column one stop on).
        var widest = headings.dropLast().map(\.count).max() ?? 0
        for (position, _) in passing {
            let domain = digests[position]
            var cells = [Self.displayedName(domain.domain, unicode: domain.unicodeDomain)]
            if !sameUse { cells.append(Self.usedLocationInShort(domain.usedLocation)) }
            if !sameGets { cells.append(Self.certificateInShort(domain)) }
            widest = max(widest, cells.map(\.count).max() ?? 0)
        }
        let tabSize = min(widest, 48) + 2
        raw("<div class=\"lines\" style=\"tab-size:\(tabSize)\"><pre class=\"head\">\(headings.joined(separator: "\t"))</pre>\n")
        for (index, entry) in passing.enumerated() {
            if index % HTMLReporter.passingLinesPerBlock == 0 { raw(index == 0 ? "<pre>" : "</pre>\n<pre>") }
            let domain = digests[entry.position]
            // What came from a report file goes through `cell`: a name holding a line feed or a
            // tab (a report file can say anything) does not make a line or a column of its own.
            domainName(domain.domain, unicode: domain.unicodeDomain, oneLine: true)
            if !sameUse {
                raw("\t")
                if let used = domain.usedLocation { cell(Self.shortName(ofLocation: used)) } else { raw("<span class=\"muted\">no file it can read</span>") }
            }
            raw("\t")
            if domain.certificateProblem == nil, let days = domain.certificateDaysLeft, days > 0 {
                raw(String(days))
            } else {
                certificateCell(domain)
            }
            if !sameGets {
                raw("\t")
                cell(Self.deviceGetsInShort(domain.deviceGets))
            }
            raw("\n")
            flush()
        }
        raw("</pre>\n</div>\n</section>\n")
    }

    /// A domain's name as `domainName` shows it, as plain text (to measure it).
    static func displayedName(_ ascii: String, unicode: String?) -> String {
        if let unicode, unicode != ascii { return "\(unicode) (\(ascii))" }
        return ascii
    }

    /// The location a passing line names, as plain text (to measure it).
    static func usedLocationInShort(_ used: String?) -> String {
        used.map { shortName(ofLocation: $0) } ?? "no file it can read"
    }

    /// A passing line's certificate, as plain text (to measure it): what `certificateCell` writes, or
    /// the days left alone.
    static func certificateInShort(_ domain: DomainDigest) -> String {
        if let problem = domain.certificateProblem { return problem.words }
        guard let days = domain.certificateDaysLeft else { return "unknown" }
        return days > 0 ? String(days) : Formatting.daysLeftText(days)
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
