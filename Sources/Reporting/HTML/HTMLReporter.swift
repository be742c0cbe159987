import AASA
import Audit
import Foundation

/// The report for people: one self-contained HTML5 page.
///
/// The page has inline CSS only: no scripts, no fonts, images or links outside the page (the only
/// links are `#anchors`), so it can be mailed, archived and opened offline without trusting it.
/// Its look is `report.css` beside this file, compiled in as `ReportStylesheet.css` (`make stylesheet`);
/// each section of the page is written by one `HTMLWriter+Section.swift` file.
/// Every string that came from the network or from the input is HTML-escaped.
public enum HTMLReporter {
    /// Served bodies are shown up to this many lines.
    public static let maxBodyLines = 300
    /// At most this many lines of each served body are printed (the print stylesheet hides the rest):
    /// with the domain's first screen and findings, a failing domain keeps to a page.
    public static let maxPrintedBodyLines = 8
    /// Certificate subjectAltNames are listed up to this many.
    public static let maxSubjectAltNames = 20
    /// Entries listed per kind of change since the baseline; the rest are counted.
    public static let maxChangesListed = 50
    /// Up to this many domains every domain has its full section; above, the page is compact
    /// (`HTMLPageForm`). Chosen from `scripts/bench-html.sh` (docs/scaling.md, "report.html of a large run").
    public static let fullSectionsUpTo = 200
    /// On a compact page, served bodies are shown up to this many lines (`maxBodyLines` on a full page).
    public static let maxBodyLinesCompact = 12
    /// On a compact page, served bodies are shown up to this many bytes as well.
    public static let maxBodyBytesCompact = 1_024
    /// The summary's rows go in tables of up to this many, each of which the browser lays out only
    /// when it is on screen or near it (report.css): one table of thousands of rows was laid out
    /// whole, several times while the page was read in (docs/scaling.md, "report.html of a large run").
    public static let summaryRowsPerTable = 50
    /// The passing list's lines go in blocks of up to this many, each laid out only when on screen
    /// or near it.
    public static let passingLinesPerBlock = 1_000

    /// The section of `domain` as the page shows it, without its opening `<section>` tag (which
    /// holds the domain's anchor, chosen across the whole page): what `render` writes for the
    /// domain after that tag. A run renders it when the domain is audited, while other domains
    /// are still fetched, and stores it (`HTMLSectionStore`); the page then copies it. `domain`
    /// must be judged as the report's domains are (`DomainResult.judge(at:)` at the run's start).
    /// `form`: the form of the page it goes into (`HTMLPageForm.forPage(of:)`).
    public static func domainSectionBody(_ domain: DomainResult, form: HTMLPageForm = .full) -> String {
        var writer = HTMLWriter(sectionCapacity: 8_192, form: form)
        writer.domainSectionBody(domain)
        return writer.out
    }

    /// Renders `report` as a complete HTML document. Linear in the size of the report.
    public static func render(_ report: AuditReport) -> String {
        var writer = HTMLWriter(report: StreamedReport(report))
        writer.document()
        return writer.out
    }

    /// Renders the same document as `render(_:)`, handing it to `sink` in pieces of about 64 KB (a
    /// domain section or summary row is never split), so a report of thousands of domains is never held whole.
    /// Stops at the first error `sink` throws and rethrows it.
    public static func render(_ report: AuditReport, to sink: (String) throws -> Void) throws {
        try render(StreamedReport(report), to: sink)
    }

    /// Renders the page of `streamed` as `render(_:to:)` renders the same report held whole,
    /// reading each domain when its row or its section is written (the order comes from the
    /// domains' digests). Throws the first domain that cannot be read back.
    public static func render(_ streamed: StreamedReport, to sink: (String) throws -> Void) throws {
        var failure: Error?
        try withoutActuallyEscaping({ (piece: String) in
            guard failure == nil else { return }
            do { try sink(piece) } catch { failure = error }
        }) { emit in
            var writer = HTMLWriter(report: streamed, sink: emit)
            writer.document()
            if let unreadable = writer.failure { failure = failure ?? unreadable }
            if failure == nil, !writer.out.isEmpty { try sink(writer.out) }
        }
        if let failure { throw failure }
    }
}

/// The form of report.html, chosen from how many domains it shows. `full`: every domain has its full
/// section (certificate, headers, timings, served body), as a support ticket about one passing
/// domain needs. `compact`: failing and warning domains keep their full sections, with served bodies
/// cut at `HTMLReporter.maxBodyLinesCompact` lines, and each passing domain is one line of the passing
/// list (domain, the location Apple uses, the certificate's days left, what devices get, all from the
/// domain's digest), so that a page of 100,000 domains stays small enough for a browser to open.
public enum HTMLPageForm: Equatable, Sendable {
    case full
    case compact

    /// The form of a page of `domainCount` domains: full up to `HTMLReporter.fullSectionsUpTo`, compact above.
    public static func forPage(of domainCount: Int) -> HTMLPageForm {
        domainCount > HTMLReporter.fullSectionsUpTo ? .compact : .full
    }

    /// Whether a domain of `verdict` has a section on such a page (a passing one on a compact page is a line of the passing list).
    public func hasSection(_ verdict: Verdict) -> Bool {
        self == .full || verdict != .pass
    }
}
