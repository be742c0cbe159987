import AASA
import Audit
import Foundation

/// The short summary printed to the terminal at the end of a run.
///
/// Every string that came from the network or the input (or from a report file `merge` read, where
/// even finding ids and location paths are the file's) goes through `TerminalText.sanitize`, so
/// nothing a server sends can move the cursor, recolour or retitle the terminal. With `colour`,
/// the only escape sequences in the output are the ones this type writes around verdict words.
public enum ConsoleSummary {
    /// The width details and changes are wrapped to when the terminal's is not known.
    public static let lineWidth = 120

    /// Renders one line per domain in report order (`FAIL  domain  first error`), the details of
    /// the domains that do not pass (`details`, or at most `detailLimit` domains), a note when the
    /// run was interrupted, the changes since the baseline, and a totals line
    /// (`3 domains: 1 pass, 1 warn, 1 fail`). Ends with a newline.
    ///
    /// `width`: the terminal's width in columns when the summary goes to a terminal; each domain
    /// line is then fitted to it (`TerminalLine.fit`). Nil (a pipe, a log, cron mail): nothing is cut.
    /// Input problems are not listed here: the audit lists them on stderr as it reads the list
    /// (`inputProblemLines`); the totals line counts them.
    public static func render(_ report: AuditReport, colour: Bool, width: Int? = nil, details showDetails: Bool = false) -> String {
        var out = ""
        // Held in memory, every domain can be read.
        try? render(StreamedReport(report), colour: colour, width: width, details: showDetails) { out += $0 }
        return out
    }

    /// Renders `streamed` as `render(_:colour:width:details:)` renders the same report held whole,
    /// handed to `sink` in pieces of whole lines (each ends with a newline), reading the domains one
    /// at a time. Throws the first domain that cannot be read back.
    public static func render(_ streamed: StreamedReport, colour: Bool, width: Int? = nil, details showDetails: Bool = false,
                              to sink: (String) throws -> Void) throws {
        let report = streamed.report
        let domains = streamed.domains
        var out = ""
        func flush(atLeast size: Int) throws {
            if out.utf8.count >= size {
                try sink(out)
                out = ""
            }
        }
        // The lines come from the digests: a long list is not read back for them.
        for domain in domains.digests {
            out += verdictWord(domain.verdict, colour: colour)
            out += domainLine(domain, width: width.map { $0 - 4 })
            out += "\n"
            try flush(atLeast: 1 << 16)
        }
        if showDetails || domains.count <= detailLimit {
            var any = false
            let digests = domains.digests
            for position in digests.indices where digests[position].verdict != .pass {
                out += details([try domains.result(at: position)], width: width ?? lineWidth, closing: false)
                any = true
                try flush(atLeast: 1 << 16)
            }
            // How Apple's CDN refreshes is the same for every domain: said once, after the details.
            if any, digests.contains(where: { $0.deviceGets?.waitsForCDNRefresh ?? false }) {
                out += "\n" + wrap(CDNCheck.refreshFact, indent: "", hanging: "", width: width ?? lineWidth)
            }
            if any { out += "\n" }
        }
        if !report.complete {
            out += "Interrupted: only the \(Formatting.plural(domains.count, "domain")) above were checked.\n"
        }
        if let changes = report.changes { out += self.changes(changes, colour: colour) }
        if let history = report.history { out += self.history(history) }
        let s = report.summary
        out += "\(Formatting.plural(s.domains, "domain")): \(s.pass) pass, \(s.warn) warn, \(s.fail) fail"
        if let shard = report.shard { out += " (shard \(shard) of the list)" }
        if report.inputErrorCount > 0 {
            out += "; \(Formatting.plural(report.inputErrorCount, "input error")) (skipped)"
        }
        out += "\n"
        if let line = AppPhrases.failingOnTheirOwn(report.apps ?? []) { out += line + "\n" }
        if let android = s.android {
            out += "Android assetlinks.json of \(Formatting.plural(android.domains, "domain")): \(android.pass) pass, \(android.warn) warn, \(android.fail) fail\n"
        }
        try sink(out)
    }

    /// `  domain  headline` (after the verdict word), fitted to `width` columns when given: the
    /// name is kept whole when it leaves room for a few words of the headline.
    static func domainLine(_ domain: DomainDigest, width: Int?) -> String {
        var name = TerminalText.sanitize(domain.unicodeDomain ?? domain.domain)
        if domain.unicodeDomain != nil { name += " (\(TerminalText.sanitize(domain.domain)))" }
        let message = domain.headline.map { TerminalText.sanitize($0) }
        let line = "  " + name + (message.map { "  " + $0 } ?? "")
        guard let width else { return line }
        let room = width - 2 - TerminalLine.columns(name) - 2
        if let message, room >= 20 {
            return "  " + name + "  " + TerminalLine.fit(message, toColumns: room)
        }
        return TerminalLine.fit(line, toColumns: max(width, 1))
    }

    /// For `--quiet`: one line per domain in `domains` (those that fail the run), `PROGRAM: FAIL
    /// domain: headline`, fitted to `width` columns when given (a terminal), else whole.
    public static func quietLines(_ domains: [DomainResult], program: String, width: Int? = nil) -> [String] {
        domains.map { domain in
            var name = TerminalText.sanitize(domain.unicodeDomain ?? domain.domain)
            if domain.unicodeDomain != nil { name += " (\(TerminalText.sanitize(domain.domain)))" }
            let head = "\(program): \(domain.verdict.rawValue.uppercased()) \(name)"
            guard let finding = domain.headline else { return head }
            let message = TerminalText.sanitize(finding.message)
            guard let width else { return head + ": " + message }
            let room = width - TerminalLine.columns(head) - 2
            return room >= 20 ? head + ": " + TerminalLine.fit(message, toColumns: room)
                : TerminalLine.fit(head + ": " + message, toColumns: max(width, 1))
        }
    }

    /// For `--quiet` with `--fail-on expiring`: one line per domain in `domains` (those whose
    /// certificate fails the run), `PROGRAM: FAIL domain: the certificate expires in N days (date)`.
    /// FAIL says it fails the run, which it does whatever the domain's own verdict.
    public static func quietExpiryLines(_ domains: [DomainResult], program: String) -> [String] {
        domains.compactMap { domain in
            guard let certificate = domain.certificate, let days = certificate.daysLeft else { return nil }
            var name = TerminalText.sanitize(domain.unicodeDomain ?? domain.domain)
            if domain.unicodeDomain != nil { name += " (\(TerminalText.sanitize(domain.domain)))" }
            let date = certificate.notAfter.map { ", ends \(Formatting.utc($0))" } ?? ""
            return "\(program): FAIL \(name): certificate \(Formatting.daysLeftText(days))\(date) (--fail-on expiring)"
        }
    }

    /// The domain list's problems for stderr, whole (never cut: each names the file and line, quotes
    /// the line, says what is wrong and how to fix it): the first `shownProblems`, then a count of
    /// the rest and where they are.
    public static func inputProblemLines(_ problems: [InputProblem], total: Int) -> [String] {
        var lines = problems.prefix(shownProblems).map { problem in
            "\(TerminalText.sanitize(problem.place)): \"\(TerminalText.sanitize(problem.text))\": \(TerminalText.sanitize(problem.reason))"
        }
        if total > lines.count {
            let listed = min(total, DomainList.maximumKeptProblems)
            lines.append("… and \(Formatting.plural(total - lines.count, "more input error")): report.json lists the first "
                         + "\(listed) (inputErrors)" + (total > listed ? " and counts the rest (inputErrorsOmitted)" : ""))
        }
        return lines
    }

    /// Domains named per kind of change; the rest are counted.
    public static let shownChanges = 10

    /// One line of counts since the baseline, then the newly failing and recovered domains by name.
    static func changes(_ changes: ReportChanges, colour: Bool) -> String {
        var out = "Since \(Formatting.utc(changes.baselineGeneratedAt)): "
        guard !changes.isEmpty else { return out + "nothing changed\n" }
        var parts: [String] = []
        func count(_ n: Int, _ text: String) { if n > 0 { parts.append("\(n) \(text)") } }
        count(changes.newlyFailing.count, "newly failing")
        count(changes.recovered.count, "recovered")
        count(changes.otherVerdictChanges.count, "other verdict change" + (changes.otherVerdictChanges.count == 1 ? "" : "s"))
        count(changes.findingsAppeared.count, "new finding" + (changes.findingsAppeared.count == 1 ? "" : "s"))
        count(changes.findingsGone.count, "gone")
        count(changes.certificates.count, "certificate change" + (changes.certificates.count == 1 ? "" : "s"))
        count(changes.domainsAdded.count, "added")
        count(changes.domainsRemoved.count, "removed")
        out = wrap(out + parts.joined(separator: ", "), indent: "", hanging: "  ")
        for (title, list, code) in [("newly failing", changes.newlyFailing, "31"), ("recovered", changes.recovered, "32")] where !list.isEmpty {
            let label = colour ? "\u{1B}[1;\(code)m\(title)\u{1B}[0m" : title
            var names = list.prefix(shownChanges).map { change in
                TerminalText.sanitize(change.unicodeDomain ?? change.domain) + " (was \(change.from.rawValue))"
            }.joined(separator: ", ")
            if list.count > shownChanges { names += " and \(list.count - shownChanges) more" }
            out += wrap("\(label): \(names)", indent: "  ", hanging: "    ")
        }
        for certificate in changes.certificates.prefix(shownChanges) where certificate.kind != .renewed {
            let what = certificate.kind == .expired ? "expired" : "crossed the expiry warning"
            out += wrap("certificate of \(TerminalText.sanitize(certificate.domain)) \(what): \(Formatting.daysLeftText(certificate.daysLeft))",
                        indent: "  ", hanging: "    ")
        }
        return out
    }

    /// Input problems listed on stderr before the rest are only counted.
    public static let shownProblems = 20
    /// Runs with at most this many domains (a one-off check) also get every problem with its fix.
    public static let detailLimit = 10

    /// For each domain that does not pass: its errors and warnings, each with its fix, wrapped to
    /// `width`; the locations' first, then the domain's own (cause before consequence).
    /// `closing`: the blank line that ends the details (false when more domains' details follow).
    static func details(_ domains: [DomainResult], width: Int = lineWidth, closing: Bool = true) -> String {
        var out = ""
        for domain in domains where domain.verdict != .pass {
            out += "\n\(TerminalText.sanitize(domain.unicodeDomain ?? domain.domain)):\n"
            // First what a device gets (the domain's line above named the main problem).
            out += wrap(TerminalText.sanitize(DevicePhrases.sentence(domain.deviceGets, usedLocation: domain.usedLocation)),
                        indent: "  ", hanging: "    ", width: width)
            // Causes first (`DomainResult.findingGroups`): the locations, then the domain's own findings.
            // A finding both locations report is listed once, under both names (`LocatedFinding`).
            let located = LocatedFinding.merging(domain.listedLocations)
            var groups: [(String, [Finding])] = []
            for entry in located where entry.locations.count > 1 {
                let title = entry.locations.joined(separator: " and ")
                if let at = groups.firstIndex(where: { $0.0 == title }) {
                    groups[at].1.append(entry.finding)
                } else {
                    groups.append((title, [entry.finding]))
                }
            }
            // Locations by their role (`LocationResult.role`, as in report.md): a root Apple never reads
            // because it uses /.well-known/ changes nothing (a root 404 listed as an error, with a fix to
            // publish the file that is already published, would mislead); an unused /.well-known/ stays:
            // it is why Apple falls back.
            groups += domain.listedLocations.filter { domain.role(of: $0).isCause }.map { location in
                let own = located.filter { $0.locations == [location.path] }.map(\.finding)
                return (location.path + domain.role(of: location).unusedSuffix, own)
            }
            groups.append(("domain", domain.orderedDomainFindings))
            if let android = domain.android {
                groups += [(android.location.path + " (Android)", android.location.findings), ("Android expectations", android.findings)]
            }
            for (title, findings) in groups {
                let shown = findings.filter { $0.severity != .info }
                guard !shown.isEmpty else { continue }
                if !title.isEmpty { out += wrap(TerminalText.sanitize(title), indent: "  ", hanging: "    ", width: width) }
                for finding in shown {
                    out += wrap("\(finding.severity.rawValue) \(TerminalText.sanitize(finding.id)): \(TerminalText.sanitize(finding.message))",
                                indent: "    ", hanging: "      ", width: width)
                    if let detail = finding.detail {
                        out += wrap("detail: \(TerminalText.sanitize(detail))", indent: "      ", hanging: "        ", width: width)
                    }
                    if let fix = finding.fix {
                        out += wrap("fix: \(TerminalText.sanitize(fix))", indent: "      ", hanging: "        ", width: width)
                    }
                }
            }
        }
        return out.isEmpty || !closing ? out : out + "\n"
    }

    /// Wraps `text` at word boundaries to `width` (a word longer than a line is kept whole: wrapping
    /// never cuts).
    static func wrap(_ text: String, indent: String, hanging: String, width: Int = lineWidth) -> String {
        var out = "", line = indent
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            let prefix = line == indent || line == hanging ? "" : " "
            if line.count + prefix.count + word.count > width && line != indent && line != hanging {
                out += line + "\n"
                line = hanging + word
            } else {
                line += prefix + word
            }
        }
        return out + line + "\n"
    }

    /// "PASS"/"WARN"/"FAIL", four columns wide, in green/yellow/red when `colour` is on.
    private static func verdictWord(_ verdict: Verdict, colour: Bool) -> String {
        let word = verdict.rawValue.uppercased()
        guard colour else { return word }
        let code: String
        switch verdict {
        case .pass: code = "32"
        case .warn: code = "33"
        case .fail: code = "31"
        }
        return "\u{1B}[1;\(code)m\(word)\u{1B}[0m"
    }
}
