import AASA
import Audit
import Foundation

/// Builds the page into one growing string: literal markup through `raw`, anything untrusted
/// through `text`, which escapes while appending.
struct HTMLWriter {
    /// The report without its domains (they are in `domains`).
    let report: AuditReport
    /// The domains, read one at a time.
    let domains: any DomainResults
    /// `domains`, when they keep each one's section rendered ahead (the run's spool).
    let sectionStore: (any HTMLSectionStore)?
    /// Domains in display order (fail, warn, pass): their positions in `domains`, with their anchors.
    let ordered: [(position: Int, anchor: String)]
    /// Full sections for every domain, or compact: passing domains as lines of the passing list,
    /// shorter bodies (chosen from the number of domains on the page).
    let form: HTMLPageForm
    /// The first domain that could not be read back; the rest of the page is not written.
    var failure: Error?
    var out = ""
    /// While a domain's section is written: its headline, whose fix its first screen gives (the
    /// findings below name it rather than repeat it).
    var fixShownAbove: Finding?
    /// Unicode names of internationalised domains by ASCII name, for the changes section.
    var unicodeNames: [String: String] = [:]
    /// When set, finished parts of the page are handed to it (and dropped from `out`) between domains.
    let sink: ((String) -> Void)?

    /// A writer of one domain's section body (`HTMLReporter.domainSectionBody`), with no page around it.
    init(sectionCapacity: Int, form: HTMLPageForm) {
        report = Self.noReport
        domains = InMemoryDomains([])
        sectionStore = nil
        ordered = []
        self.form = form
        sink = nil
        out.reserveCapacity(sectionCapacity)
    }

    private static let noReport = AuditReport(tool: ToolInfo(name: "", version: ""), generatedAt: Date(timeIntervalSince1970: 0), domains: [])

    init(report: StreamedReport, sink: ((String) -> Void)? = nil) {
        self.report = report.report
        domains = report.domains
        let digests = domains.digests
        let form = HTMLPageForm.forPage(of: digests.count)
        self.form = form
        // Sections rendered for a page of another form (a run stopped early, a merge whose shards
        // said other counts) are rendered again.
        sectionStore = (report.domains as? any HTMLSectionStore).flatMap { $0.storedSectionForm == form ? $0 : nil }
        self.sink = sink
        var namer = AnchorNamer()
        // A passing domain of a compact page is a line of the passing list: a link to it goes there,
        // so it takes no anchor of its own (nor a string held for each of 100,000 passing lines).
        ordered = domains.worstFirst.map { position in
            (position, form.hasSection(digests[position].verdict) ? namer.anchor(for: digests[position].domain) : Self.passingListAnchor)
        }
        out.reserveCapacity(sink == nil ? 16_384 + domains.count * 8_192 : 2 * Self.flushSize)
    }

    /// Where a link to each of `names` on this page goes (`ordered`'s anchor: its section, or the
    /// passing list); a name not on the page (a removed domain) has none. Only the names asked for,
    /// so that a page of 100,000 domains does not build a map of them all for a few links. With
    /// `unicode`, their Unicode forms go into `unicodeNames` too.
    mutating func linkTargets(for names: Set<String>, unicode: Bool = false) -> [String: String] {
        var anchors: [String: String] = [:]
        guard !names.isEmpty else { return anchors }
        let digests = domains.digests
        for (position, anchor) in ordered where names.contains(digests[position].domain) && anchors[digests[position].domain] == nil {
            let domain = digests[position]
            anchors[domain.domain] = anchor
            if unicode, let name = domain.unicodeDomain { unicodeNames[domain.domain] = name }
            if anchors.count == names.count { break }
        }
        return anchors
    }

    /// The domain at `position` of `domains`; nil (and the page stops) when it cannot be read back.
    mutating func domain(at position: Int) -> DomainResult? {
        let domains = domains
        return readBack { try domains.result(at: position) }
    }

    /// The section body stored for the domain at `position` (`HTMLSectionStore`), when there is one;
    /// nil (and the page stops) when it cannot be read back.
    mutating func storedSection(at position: Int) -> String? {
        guard let sectionStore else { return nil }
        return readBack { try sectionStore.storedHTMLSection(at: position) }
    }

    /// What `read` reads back; nil after the first failure, which is kept and stops the page.
    private mutating func readBack<Value>(_ read: () throws -> Value?) -> Value? {
        guard failure == nil else { return nil }
        do {
            return try read()
        } catch {
            failure = error
            return nil
        }
    }

    static let flushSize = 1 << 16

    /// Hands what is built so far to `sink`, once it is large enough to be worth a write.
    mutating func flush() {
        guard let sink, out.utf8.count >= Self.flushSize else { return }
        sink(out)
        out.removeAll(keepingCapacity: true)
    }

    mutating func raw(_ markup: String) { out += markup }
    mutating func text<S: StringProtocol>(_ untrusted: S) { HTMLEscaping.append(untrusted, to: &out) }
    /// Untrusted text in element content only, never in an attribute: quotes are left as they are
    /// (a served JSON body is mostly quotes, and `&quot;` made it a third longer).
    mutating func content<S: StringProtocol>(_ untrusted: S) { HTMLEscaping.append(untrusted, to: &out, quotes: false) }
    /// Untrusted text in a cell of a line of preformatted text (the passing list): it neither ends
    /// the line nor the cell (`HTMLEscaping.append(_:to:quotes:oneLine:)`).
    mutating func cell<S: StringProtocol>(_ untrusted: S) { HTMLEscaping.append(untrusted, to: &out, quotes: false, oneLine: true) }

    // MARK: Page

    mutating func document() {
        let when = Formatting.utc(report.generatedAt)
        raw("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        raw("<title>AASA audit, \(when)</title>\n<style>\n\(ReportStylesheet.css)</style>\n</head>\n<body>\n")
        header(when: when)
        if let line = RoutePhrases.line(report.run?.route) { routeLine(line) }
        if !report.complete { interruptedBanner() }
        // A shard's report attached to a ticket must not pass for the whole list.
        if let shard = report.shard {
            raw("<p class=\"meta\">Shard \(shard) of the domain list (<code>--shard</code>): only its domains were checked; ")
            raw("<code>aasa-audit merge</code> combines the shards' report.json into one report.</p>\n")
        }
        if let changes = report.changes { changesSection(changes) }
        if let history = report.history, !history.saysNothing { historySection(history) }
        if !report.inputErrors.isEmpty { inputProblems() }
        if let apps = report.apps { appsSection(apps) }
        if let hosts = report.appLinkHosts { appLinkHostsSection(hosts) }
        summaryTable()
        let digests = domains.digests
        for (position, anchor) in ordered {
            // Passing domains come last (worst first): as lines, they are the passing list below.
            if !form.hasSection(digests[position].verdict) { break }
            // A section rendered when the domain was audited is copied; any other is read back.
            if let stored = storedSection(at: position) {
                sectionStart(verdict: digests[position].verdict, anchor: anchor)
                raw(stored)
            } else {
                guard let domain = domain(at: position) else { break }
                domainSection(domain, anchor: anchor)
            }
            flush()
        }
        if form == .compact && failure == nil && digests.contains(where: { $0.verdict == .pass }) { passingList() }
        raw("<footer class=\"muted\"><p>Generated by ")
        text(report.tool.name)
        raw(" ")
        text(report.tool.version)
        raw(". Apple fetches <code>\(AASAFile.wellKnownPath)</code> first and the root ")
        raw("<code>\(AASAFile.rootPath)</code> only as a fallback; it follows no redirects. report.json schema version \(report.schemaVersion).</p></footer>\n")
        raw("</body>\n</html>\n")
    }

    /// One fact of a `dl.facts` list; `kind`, when given, is a class of its name (the print
    /// stylesheet hides the value after it too: once per fact, not twice).
    mutating func fact(_ name: String, kind: String? = nil, _ value: (inout HTMLWriter) -> Void) {
        let attribute = kind.map { " class=\"\($0)\"" } ?? ""
        raw("<dt\(attribute)>\(name)</dt><dd>")
        value(&self)
        raw("</dd>\n")
    }
}
