import AASA
import Audit
import Foundation

/// How a run ended, as far as it is known when its reports are written: what only the run knows,
/// not the report (its exit status, decided by `ExitPolicy`, and the moment the reports were written).
public struct RunEnding: Sendable, Equatable {
    /// The exit status the run ends with.
    public var status: ExitStatus
    /// When the reports were written: the end of the run's work.
    public var reportsWrittenAt: Date

    public init(status: ExitStatus, reportsWrittenAt: Date) {
        self.status = status
        self.reportsWrittenAt = reportsWrittenAt
    }
}

/// The report as Prometheus metrics, in the text exposition format (version 0.0.4) that
/// node_exporter's textfile collector reads: `report.prom`, and `--prom-file PATH`. The metrics are
/// listed in docs/monitoring.md.
///
/// Every metric family is one group of lines (the format requires it), so the domains are read one
/// at a time and each is reduced to its few numbers (`DomainMetrics`) before any family is written:
/// the memory of a digest per domain, never the whole report.
public enum PrometheusReporter {
    /// Renders `streamed` into `emit`, one metric family at a time. `policy` gives the exit status when
    /// `ending` is nil (a report rendered outside a run); without an `ending` no duration is written.
    public static func render(_ streamed: StreamedReport, policy: ExitPolicy, ending: RunEnding?,
                              to emit: (String) throws -> Void) throws {
        let report = streamed.report
        var domains: [DomainMetrics] = []
        domains.reserveCapacity(streamed.domains.count)
        let newlyFailing = Set(report.changes?.newlyFailing.map(\.domain) ?? [])
        try streamed.domains.forEach { domains.append(DomainMetrics($0, newlyFailing: newlyFailing.contains($0.domain))) }

        var text = ""
        func family(_ name: String, _ help: String, _ samples: [(labels: [(String, String)], value: String)]) throws {
            guard !samples.isEmpty else { return }
            text += "# HELP \(name) \(escapeHelp(help))\n# TYPE \(name) gauge\n"
            for sample in samples {
                text += name
                if !sample.labels.isEmpty {
                    text += "{" + sample.labels.map { "\($0.0)=\"\(escapeLabelValue($0.1))\"" }.joined(separator: ",") + "}"
                }
                text += " \(sample.value)\n"
                // Written in pieces: a large list is never held as one string.
                if text.utf8.count >= 65536 {
                    try emit(text)
                    text = ""
                }
            }
            try emit(text)
            text = ""
        }
        func one(_ value: String) -> [(labels: [(String, String)], value: String)] { [([], value)] }
        func flag(_ value: Bool) -> String { value ? "1" : "0" }

        try family("aasa_audit_info", "The aasa-audit version that wrote these metrics and the report's schemaVersion; always 1.",
                   [([("version", report.tool.version), ("schema_version", String(report.schemaVersion))], "1")])
        try family("aasa_audit_run_start_timestamp_seconds", "When the run started (report.json's generatedAt), in seconds since the Unix epoch.",
                   one(String(seconds(report.generatedAt))))
        if let ending {
            let duration = max(0, ending.reportsWrittenAt.timeIntervalSince(report.generatedAt))
            try family("aasa_audit_run_duration_seconds", "Seconds from the run's start until its reports were written.",
                       one(String(format: "%.3f", duration)))
        }
        try family("aasa_audit_run_complete", "1 when every domain of the run was audited; 0 when it was stopped (SIGINT, SIGTERM) or a merge lacked shards.",
                   one(flag(report.complete)))
        try family("aasa_audit_run_exit_status", "The exit status the run ends with: 0 no domain fails the run, 1 one does, 2 a usage or input error (or a merge short of shards), 130 and 143 stopped by SIGINT and SIGTERM.",
                   one(String((ending?.status ?? policy.status(for: streamed)).rawValue)))
        try family("aasa_audit_run_domains", "Domains audited, by verdict.",
                   [([("verdict", "pass")], String(report.summary.pass)), ([("verdict", "warn")], String(report.summary.warn)),
                    ([("verdict", "fail")], String(report.summary.fail))])
        try family("aasa_audit_run_domains_not_audited", "Domains of the list not audited because the run was stopped.",
                   one(String(report.notAudited?.count ?? 0)))
        try family("aasa_audit_run_input_errors", "Lines of the domain list and expectation tokens that were skipped.",
                   one(String(report.inputErrorCount)))
        try family("aasa_audit_run_baseline_compared", "1 when the run was compared with a baseline report (so the newly failing metrics are known); 0 on a first run.",
                   one(flag(report.changes != nil)))
        if let changes = report.changes {
            try family("aasa_audit_run_newly_failing_domains", "Domains that fail now and did not in the baseline.",
                       one(String(changes.newlyFailing.count)))
        }
        let verdicts: [Verdict] = [.pass, .warn, .fail]
        try family("aasa_audit_domain_verdict", "The domain's verdict: 1 for the verdict it has, 0 for the others.",
                   domains.flatMap { domain in verdicts.map { ([("domain", domain.domain), ("verdict", $0.rawValue)], flag(domain.verdict == $0)) } })
        try family("aasa_audit_domain_errors", "Errors of the domain: its own, its Android part's, and those of the locations a device reads.",
                   domains.map { ([("domain", $0.domain)], String($0.errors)) })
        try family("aasa_audit_domain_warnings", "Warnings of the domain: its own, its Android part's, and those of the locations a device reads.",
                   domains.map { ([("domain", $0.domain)], String($0.warnings)) })
        if report.changes != nil {
            try family("aasa_audit_domain_newly_failing", "1 when the domain fails now and did not in the baseline report.",
                       domains.map { ([("domain", $0.domain)], flag($0.newlyFailing)) })
        }
        try family("aasa_audit_certificate_expiry_timestamp_seconds", "When the certificate the domain is judged by expires (notAfter), in seconds since the Unix epoch.",
                   domains.compactMap { domain in domain.notAfter.map { ([("domain", domain.domain)], String(seconds($0))) } })
        // The days left, in Prometheus' base unit (promtool refuses a "days" metric) and to the second.
        try family("aasa_audit_certificate_remaining_seconds", "Seconds from the run's start until the certificate the domain is judged by expires (its days left, to the second); negative once expired.",
                   domains.compactMap { domain in
                       domain.notAfter.map { ([("domain", domain.domain)], String(seconds($0) - seconds(report.generatedAt))) }
                   })
        try family("aasa_audit_cdn_age_seconds", "The Age header of Apple's CDN copy of the file: seconds since the CDN fetched it.",
                   domains.compactMap { domain in domain.cdnAge.map { ([("domain", domain.domain)], String($0)) } })
        try family("aasa_audit_cdn_state", "Apple's CDN copy of the file: 1 for its state (current, stale, missing, unreachable), 0 for the others.",
                   domains.flatMap { domain in
                       domain.cdnState.map { state in CDNState.allCases.map { ([("domain", domain.domain), ("state", $0.rawValue)], flag($0 == state)) } } ?? []
                   })
    }

    /// What Apple's CDN serves for a domain, as its check judged it (`cdn.*` findings).
    enum CDNState: String, CaseIterable {
        case current, stale, missing, unreachable
    }

    /// The numbers of one domain the metrics show, read from its result once.
    struct DomainMetrics {
        var domain: String
        var verdict: Verdict
        var errors = 0
        var warnings = 0
        var notAfter: Date?
        var cdnAge: Int?
        var cdnState: CDNState?
        var newlyFailing: Bool

        init(_ result: DomainResult, newlyFailing: Bool) {
            domain = result.domain
            verdict = result.verdict
            self.newlyFailing = newlyFailing
            notAfter = result.certificate?.notAfter
            // The findings that decide the verdict: a location Apple does not read changes nothing.
            let counted = result.locations.filter { $0.role?.counts ?? true }.flatMap(\.findings)
                + result.findings + (result.android?.allFindings ?? [])
            for finding in counted {
                if finding.severity == .error { errors += 1 }
                if finding.severity == .warning { warnings += 1 }
            }
            if let cdn = result.cdn {
                // Age is delta-seconds: digits only; anything else a server sent is not shown.
                if let age = cdn.age, !age.isEmpty, age.utf8.allSatisfy({ (0x30...0x39).contains($0) }) { cdnAge = Int(age) }
                let ids = Set(result.findings.map(\.id))
                cdnState = ids.contains(CDNCheck.missing.id) ? .missing
                    : ids.contains(CDNCheck.unreachable.id) ? .unreachable
                    : ids.contains(CDNCheck.stale.id) ? .stale : .current
            }
        }
    }

    /// Whole seconds since the Unix epoch (report dates are to the second).
    static func seconds(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970.rounded(.down)) }

    /// A label value as the text format requires: backslash, double quote and line feed escaped.
    public static func escapeLabelValue(_ value: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(value.utf8.count)
        for character in value.unicodeScalars {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// A HELP text as the text format requires: backslash and line feed escaped.
    static func escapeHelp(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }
}
