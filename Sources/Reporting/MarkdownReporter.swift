import AASA
import Audit
import Foundation

/// The report for a ticket or a chat message (`report.md`): the verdict per domain, what changed
/// since the baseline, and the errors and warnings with how to fix them. Short on purpose: the
/// facts behind each finding (headers, certificates, bodies) are in the HTML report.
///
/// Every string that came from the network or from the input goes through `MarkdownEscaping`;
/// finding ids and verdicts are the tool's own and are written as code spans.
public enum MarkdownReporter {
    /// At most this many domains get their problems listed; the rest are counted.
    public static let maxDetailedDomains = 50
    /// At most this many problems are listed per domain.
    public static let maxFindingsPerDomain = 10
    /// At most this many entries are listed per kind of change.
    public static let maxChangesListed = 20
    /// At most this many domains get a row in the table (worst first); the rest are counted by verdict.
    public static let maxTableRows = 100

    /// Renders `report` as GitHub-flavoured Markdown. Linear in the size of the report.
    public static func render(_ report: AuditReport) -> String {
        // Held in memory, every domain can be read.
        (try? render(StreamedReport(report))) ?? ""
    }

    /// Renders `streamed` as `render(_:)` renders the same report held whole. Only the domains
    /// the page lists are read (the table's rows, the problems); the counts come from the digests.
    /// Throws the first domain that cannot be read back.
    public static func render(_ streamed: StreamedReport) throws -> String {
        let report = streamed.report
        let domains = streamed.domains
        var out = ""
        out.reserveCapacity(4096 + min(domains.count, maxTableRows) * 200)
        let s = report.summary
        out += "# AASA audit, \(Formatting.utc(report.generatedAt))\n\n"
        out += "**\(s.fail) fail · \(s.warn) warn · \(s.pass) pass** of \(Formatting.plural(s.domains, "domain")) "
        out += "(\(MarkdownEscaping.escape(report.tool.name)) \(MarkdownEscaping.escape(report.tool.version))). "
        out += "On a failing domain something does not work: Apple finds no file it can read, or part of the file it reads is broken, "
        out += "or Apple's crawler, Apple's CDN or an expectation written in the domain list fails.\n"
        if let line = AppPhrases.failingOnTheirOwn(report.apps ?? []) { out += "\n**\(line)**\n" }
        if let android = s.android {
            out += "\nAndroid App Links (assetlinks.json, \(Formatting.plural(android.domains, "domain"))): "
            out += "**\(android.fail) fail · \(android.warn) warn · \(android.pass) pass**; a failing Android part fails its domain.\n"
        }
        if let shard = report.shard {
            out += "\nShard \(shard) of the domain list (`--shard`): only its domains were checked.\n"
        }
        if let line = RoutePhrases.line(report.run?.route) { out += "\n**" + MarkdownEscaping.escape(line) + "**\n" }
        if !report.complete && report.notAudited?.isEmpty ?? true {
            // A merge with a shard missing (an interrupted run always names what it did not reach).
            out += "\n**This report is incomplete**: \(ShardPhrases.notMerged(report)); only the domains below were checked.\n"
        } else if !report.complete {
            out += "\n**This run was interrupted**: only the domains below were checked.\n"
            if let missing = report.notAudited, !missing.isEmpty {
                let shown = missing.prefix(50).map(MarkdownEscaping.code).joined(separator: ", ")
                out += "Not audited (\(missing.count)): \(shown)\(missing.count > 50 ? " and \(missing.count - 50) more" : "").\n"
            }
        }
        if let changes = report.changes { self.changes(changes, to: &out) }
        if let history = report.history, !history.saysNothing { self.history(history, to: &out) }
        if !report.inputErrors.isEmpty {
            out += "\n## Problems in the domain list (skipped)\n\n"
            for problem in report.inputErrors.prefix(maxChangesListed) {
                out += "- \(MarkdownEscaping.escape(problem.place)): \"\(MarkdownEscaping.escape(problem.text))\": "
                out += "\(MarkdownEscaping.escape(problem.reason))\n"
            }
            more(report.inputErrorCount, shown: maxChangesListed, "input error", to: &out)
        }
        if let apps = report.apps { self.apps(apps, to: &out) }
        if let hosts = report.appLinkHosts { appLinkHosts(hosts, to: &out) }
        let digests = domains.digests
        let ordered = domains.worstFirst
        out += "\n## Domains\n\n"
        if ordered.isEmpty {
            out += "No domains were checked.\n"
        } else {
            out += "| Domain | Verdict | Main problem |\n|---|---|---|\n"
            for position in ordered.prefix(maxTableRows) {
                let domain = try domains.result(at: position)
                out += "| \(name(domain)) | \(verdict(domain.verdict)) | "
                out += domain.headline.map { MarkdownEscaping.escape($0.message) } ?? ""
                out += " |\n"
            }
            if ordered.count > maxTableRows {
                // A ticket or a chat message has room for a hundred rows, not for a nightly list of thousands.
                let rest = ordered.dropFirst(maxTableRows)
                let counts = [Verdict.fail, .warn, .pass].compactMap { verdict -> String? in
                    let n = rest.filter { digests[$0].verdict == verdict }.count
                    return n == 0 ? nil : "\(n) \(verdict.rawValue)"
                }
                out += "\n… and \(Formatting.plural(rest.count, "more domain")) not listed (\(counts.joined(separator: ", "))); see report.html.\n"
            }
        }
        // How Apple's CDN refreshes is the same for every domain: said once, under the table.
        if digests.contains(where: { $0.deviceGets?.waitsForCDNRefresh ?? false }) {
            out += "\n\(MarkdownEscaping.escape(CDNCheck.refreshFact))\n"
        }
        let troubled = ordered.filter { digests[$0].verdict != .pass }
        if !troubled.isEmpty {
            out += "\n## Problems and how to fix them\n"
            for position in troubled.prefix(maxDetailedDomains) { problems(of: try domains.result(at: position), to: &out) }
            if troubled.count > maxDetailedDomains {
                out += "\n… and \(Formatting.plural(troubled.count - maxDetailedDomains, "more domain")) with problems; see report.html.\n"
            }
        }
        return out
    }

    /// "`fail`" etc., with a symbol that survives copy and paste into plain text.
    static func verdict(_ verdict: Verdict) -> String {
        switch verdict {
        case .pass: return "✔ pass"
        case .warn: return "⚠ warn"
        case .fail: return "✖ **fail**"
        }
    }

    static func name(_ domain: DomainResult) -> String {
        if let unicode = domain.unicodeDomain, unicode != domain.domain {
            return "\(MarkdownEscaping.escape(unicode)) (\(MarkdownEscaping.escape(domain.domain)))"
        }
        return MarkdownEscaping.escape(domain.domain)
    }

    static func name(_ domain: String, unicode: String?) -> String {
        MarkdownEscaping.escape(unicode ?? domain)
    }

    static func more(_ count: Int, shown: Int, _ word: String, to out: inout String) {
        if count > shown { out += "- … and \(Formatting.plural(count - shown, "more \(word)"))\n" }
    }

    static func changes(_ changes: ReportChanges, to out: inout String) {
        out += "\n## Changes since \(Formatting.utc(changes.baselineGeneratedAt))\n\n"
        if changes.isEmpty {
            out += "Nothing changed since the baseline run.\n"
            return
        }
        let limit = maxChangesListed
        for change in changes.newlyFailing.prefix(limit) {
            out += "- **Newly failing:** \(name(change.domain, unicode: change.unicodeDomain)) (was \(change.from.rawValue))"
            if let reason = change.reason { out += ": \(MarkdownEscaping.code(reason.id)) \(MarkdownEscaping.escape(reason.message))" }
            out += "\n"
        }
        more(changes.newlyFailing.count, shown: limit, "newly failing domain", to: &out)
        for change in changes.recovered.prefix(limit) {
            out += "- **Recovered:** \(name(change.domain, unicode: change.unicodeDomain)) (now \(change.to.rawValue))\n"
        }
        more(changes.recovered.count, shown: limit, "recovered domain", to: &out)
        for change in changes.otherVerdictChanges.prefix(limit) {
            out += "- Verdict changed: \(name(change.domain, unicode: change.unicodeDomain)) \(change.from.rawValue) → \(change.to.rawValue)\n"
        }
        more(changes.otherVerdictChanges.count, shown: limit, "verdict change", to: &out)
        for certificate in changes.certificates.prefix(limit) {
            out += "- Certificate of \(MarkdownEscaping.escape(certificate.domain)) \(certificateText(certificate))\n"
        }
        more(changes.certificates.count, shown: limit, "certificate change", to: &out)
        for (title, list) in [("New", changes.findingsAppeared), ("Gone", changes.findingsGone)] {
            for finding in list.prefix(limit) {
                out += "- \(title) \(finding.severity.rawValue): \(MarkdownEscaping.escape(finding.domain))"
                if let location = finding.location { out += " \(MarkdownEscaping.escape(location))" }
                out += " \(MarkdownEscaping.code(finding.id)) \(MarkdownEscaping.escape(finding.message))\n"
            }
            more(list.count, shown: limit, title == "New" ? "new finding" : "finding gone", to: &out)
        }
        if !changes.domainsAdded.isEmpty {
            out += "- Domains added: \(changes.domainsAdded.prefix(limit).map(MarkdownEscaping.escape).joined(separator: ", "))"
            out += changes.domainsAdded.count > limit ? " and \(changes.domainsAdded.count - limit) more\n" : "\n"
        }
        if !changes.domainsRemoved.isEmpty {
            out += "- Domains removed: \(changes.domainsRemoved.prefix(limit).map(MarkdownEscaping.escape).joined(separator: ", "))"
            out += changes.domainsRemoved.count > limit ? " and \(changes.domainsRemoved.count - limit) more\n" : "\n"
        }
    }

    /// "expired (expired 9 days ago; 20 days left before)".
    static func certificateText(_ change: CertificateChange) -> String {
        let what: String
        switch change.kind {
        case .expired: what = "expired"
        case .expiringSoon: what = "crossed the expiry warning"
        case .renewed: what = "was renewed"
        }
        return "\(what): \(Formatting.daysLeftText(change.daysLeft)) (\(Formatting.daysLeftText(change.daysLeftBefore)) at the baseline)"
    }

    /// The errors and warnings that decide the domain's verdict, each with its fix, deduplicated
    /// (an expired certificate is the same problem at both locations).
    static func problems(of domain: DomainResult, to out: inout String) {
        out += "\n### \(name(domain)): \(verdict(domain.verdict))\n\n"
        // First what a device gets, then the finding that best explains the verdict (listed first below).
        out += "\(MarkdownEscaping.escape(DevicePhrases.sentence(domain.deviceGets, usedLocation: domain.usedLocation)))\n\n"
        // Causes first (`DomainResult.findingGroups`): the locations Apple reads or tries, then the
        // domain's own. The same finding at both locations is one entry naming both (`LocatedFinding`).
        // Locations by their role (`LocationResult.role`): an unused /.well-known/ is why Apple falls back
        // and stays; an unused root behind a working /.well-known/ changes nothing and is left out.
        let located = LocatedFinding.merging(domain.listedLocations.filter { domain.role(of: $0).isCause })
        // Each place named with its role's suffix, as the console names it ("… (not used by Apple)").
        let suffixes = Dictionary(domain.locations.map { ($0.path, domain.role(of: $0).unusedSuffix) }, uniquingKeysWith: { first, _ in first })
        var entries: [(finding: Finding, places: [String])] = located.map { ($0.finding, $0.locations.map { $0 + (suffixes[$0] ?? "") }) }
            + domain.orderedDomainFindings.map { ($0, ["domain"]) }
        entries = entries.filter { $0.finding.severity != .info }
        if let android = domain.android {
            entries += android.location.findings.map { ($0, [android.location.path]) }
                + android.findings.map { ($0, [$0.check == GoogleDALCheck.id ? "Google's Digital Asset Links API" : "Android expectations"]) }
            entries = entries.filter { $0.finding.severity != .info }
        }
        // The headline first (the cause a reader acts on), then errors, otherwise in report order.
        entries = entries.filter { $0.finding.severity == .error } + entries.filter { $0.finding.severity != .error }
        if let headline = domain.headline, let first = entries.firstIndex(where: { $0.finding == headline }) {
            entries.insert(entries.remove(at: first), at: 0)
        }
        for (finding, places) in entries.prefix(maxFindingsPerDomain) {
            out += "- **\(finding.severity.rawValue)** \(MarkdownEscaping.code(finding.id)) (\(places.map(MarkdownEscaping.escape).joined(separator: ", "))): "
            out += MarkdownEscaping.escape(finding.message)
            if let fix = finding.fix { out += "  \n  Fix: \(MarkdownEscaping.escape(fix))" }
            if let detail = finding.detail { out += "  \n  Technical detail: \(MarkdownEscaping.escape(detail))" }
            out += "\n"
        }
        more(entries.count, shown: maxFindingsPerDomain, "problem", to: &out)
    }
}
