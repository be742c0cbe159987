import Audit
import Foundation

/// The short summary printed to the terminal at the end of a run.
///
/// Every string that came from the network or the input (or from a report file `merge` read, where
/// even finding ids and location paths are the file's) goes through `TerminalText.sanitize`, so
/// nothing a server sends can move the cursor, recolour or retitle the terminal. With `colour`,
/// the only escape sequences in the output are the ones this type writes around verdict words.
public enum ConsoleSummary {
    /// The widest line aimed for; messages are shortened to fit.
    public static let lineWidth = 120

    /// Renders input problems (one line each, first), one line per domain in report order
    /// (`FAIL  domain  first error`), a note when the run was interrupted, and a totals line
    /// (`3 domains: 1 pass, 1 warn, 1 fail`). Ends with a newline.
    public static func render(_ report: AuditReport, colour: Bool) -> String {
        var out = ""
        // A binary file can yield hundreds of thousands of problems: list the first, count the rest.
        for problem in report.inputErrors.prefix(shownProblems) {
            let line = "\(TerminalText.sanitize(problem.place)): "
                + "\"\(TerminalText.sanitize(problem.text))\": \(TerminalText.sanitize(problem.reason))"
            out += TerminalText.truncate(line, toWidth: lineWidth)
            out += "\n"
        }
        if report.inputErrors.count > shownProblems {
            out += "… and \(Formatting.plural(report.inputErrors.count - shownProblems, "more input line")) skipped (all are in the reports)\n"
        }
        for domain in report.domains {
            out += verdictWord(domain.verdict, colour: colour)
            var name = TerminalText.sanitize(domain.unicodeDomain ?? domain.domain)
            if domain.unicodeDomain != nil { name += " (\(TerminalText.sanitize(domain.domain)))" }
            out += "  " + name
            if let finding = domain.headline {
                // Keep at least a few words of the message even next to a very long name.
                let room = max(lineWidth - 4 - 2 - name.count - 2, 30)
                out += "  " + TerminalText.truncate(TerminalText.sanitize(finding.message), toWidth: room)
            }
            out += "\n"
        }
        if report.domains.count <= detailLimit {
            out += details(report.domains)
        }
        if !report.complete {
            out += "Interrupted: only the \(Formatting.plural(report.domains.count, "domain")) above were checked.\n"
        }
        if let changes = report.changes { out += self.changes(changes, colour: colour) }
        let s = report.summary
        out += "\(Formatting.plural(s.domains, "domain")): \(s.pass) pass, \(s.warn) warn, \(s.fail) fail"
        if let shard = report.shard { out += " (shard \(shard) of the list)" }
        if !report.inputErrors.isEmpty {
            out += "; \(Formatting.plural(report.inputErrors.count, "input line")) skipped"
        }
        out += "\n"
        if let android = s.android {
            out += "Android assetlinks.json of \(Formatting.plural(android.domains, "domain")): \(android.pass) pass, \(android.warn) warn, \(android.fail) fail\n"
        }
        return out
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

    /// Input problems listed before the rest are only counted.
    public static let shownProblems = 50
    /// Runs with at most this many domains (a one-off check) also get every problem with its fix.
    public static let detailLimit = 10

    /// For each domain that does not pass: its errors and warnings, each with its fix, wrapped.
    static func details(_ domains: [DomainResult]) -> String {
        var out = ""
        for domain in domains where domain.verdict != .pass {
            out += "\n\(TerminalText.sanitize(domain.unicodeDomain ?? domain.domain)):\n"
            var groups: [(String, [Finding])] = [("", domain.findings)]
            groups += domain.locations.map { location in
                let unused = domain.usedLocation != nil && domain.usedLocation != location.path
                return (location.path + (unused ? " (not used by Apple)" : ""), location.findings)
            }
            if let android = domain.android {
                groups += [(android.location.path + " (Android)", android.location.findings), ("Android expectations", android.findings)]
            }
            for (title, findings) in groups {
                let shown = findings.filter { $0.severity != .info }
                guard !shown.isEmpty else { continue }
                if !title.isEmpty { out += "  \(TerminalText.sanitize(title))\n" }
                for finding in shown {
                    out += wrap("\(finding.severity.rawValue) \(TerminalText.sanitize(finding.id)): \(TerminalText.sanitize(finding.message))", indent: "    ", hanging: "      ")
                    if let fix = finding.fix {
                        out += wrap("fix: \(TerminalText.sanitize(fix))", indent: "      ", hanging: "        ")
                    }
                }
            }
        }
        return out.isEmpty ? "" : out + "\n"
    }

    /// Wraps `text` at word boundaries to `lineWidth`.
    static func wrap(_ text: String, indent: String, hanging: String) -> String {
        var out = "", line = indent
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            let prefix = line == indent || line == hanging ? "" : " "
            if line.count + prefix.count + word.count > lineWidth && line != indent && line != hanging {
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
