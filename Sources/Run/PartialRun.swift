import Audit
import Fetching
import Foundation

/// What a run that was stopped half-way reports: only finished domains, the rest named as not audited.
enum PartialRun {
    /// The report for `entries`; `results` is aligned with them, nil for a domain not finished.
    /// Complete when nothing is missing.
    static func report(tool: ToolInfo, generatedAt: Date, inputErrors: [InputProblem], entries: [DomainEntry],
                       results: [DomainResult?]) -> AuditReport {
        let finished = results.compactMap { $0 }
        let missing = zip(entries, results).compactMap { entry, result in result == nil ? entry.name.ascii : nil }
        if missing.isEmpty {
            return AuditReport(tool: tool, generatedAt: generatedAt, inputErrors: inputErrors, domains: finished)
        }
        return AuditReport(tool: tool, generatedAt: generatedAt, inputErrors: inputErrors, domains: finished, notAudited: missing)
    }

    /// The report for `entries` whose results are in a spool: `stored` (aligned with the entries)
    /// says which were finished, `results` holds those, in list order.
    static func report(tool: ToolInfo, generatedAt: Date, inputErrors: [InputProblem], entries: [DomainEntry],
                       stored: [Bool], results: any DomainResults) -> StreamedReport {
        let missing = zip(entries, stored).compactMap { entry, done in done ? nil : entry.name.ascii }
        var shell = AuditReport(tool: tool, generatedAt: generatedAt, complete: missing.isEmpty, inputErrors: inputErrors, domains: [])
        if !missing.isEmpty { shell.notAudited = missing }
        return StreamedReport(shell: shell, domains: results)
    }

    /// The line for standard error after a signal (without the program's name): what was kept and what was not.
    /// `usesLatest`: the run writes under reports/ (no `--out`), where `latest` would have moved.
    /// `audited`: how many domains the report holds (its `domains` may be in a spool).
    static func notice(_ report: AuditReport, audited: Int, signal: Int32, usesLatest: Bool) -> String {
        let name = ExitPolicy.status(forSignal: signal) == .terminated ? "SIGTERM" : "SIGINT"
        let missing = report.notAudited?.count ?? 0
        var text = "stopped by \(name): "
        if missing == 0 {
            text += "every domain had already been checked; the report is complete"
        } else {
            text += "\(audited) of \(audited + missing) domains checked; "
            text += "the report is marked \"complete\": false and lists the \(missing) not audited under \"notAudited\""
        }
        if usesLatest && !report.complete { text += "; reports/latest was not moved" }
        return text
    }
}
