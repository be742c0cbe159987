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
}
