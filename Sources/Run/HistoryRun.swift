import Audit
import Foundation
import History
import Reporting

/// The work of `aasa-audit history`: import old reports, show a domain's timeline or the runs, prune.
/// Returns text for the caller to print; never prints.
public enum HistoryRun {
    /// What an import did.
    public struct ImportOutcome: Sendable, Equatable {
        /// Reports recorded now.
        public var imported = 0
        /// Reports already recorded (same start, shard and domains): left as they were.
        public var alreadyThere = 0
        /// Reports that could not be read: "path: reason".
        public var problems: [String] = []
        /// Reports not read because the import was stopped (Ctrl-C, SIGTERM) before them.
        public var notRead = 0
    }

    /// Records each report folder (its report.json) or report.json file of `paths` as a run of the
    /// list, once. One unreadable report never stops the others. The same report named twice
    /// (`reports/latest` and its folder, a copy) is one run; two runs that started in the same second
    /// with the same domains (reports keep whole seconds) are two. Once `stopped` says so, no
    /// further report is read (`notRead` counts them); each one recorded is whole, in its own transaction.
    /// A report is read one domain at a time into a results spool in `spoolFolder` (the history's
    /// own folder), so a report of any size is imported in the memory of one domain.
    public static func importReports(_ paths: [String], into store: HistoryStore, spoolFolder: URL,
                                     stopped: () -> Bool = { false }) throws(DatabaseError) -> ImportOutcome {
        var outcome = ImportOutcome()
        // The distinct contents seen so far per start, shard and set of domains.
        var seen: [String: [[UInt8]]] = [:]
        for (position, path) in paths.enumerated() {
            if stopped() {
                outcome.notRead = paths.count - position
                break
            }
            var isFolder: ObjCBool = false
            let file = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
                ? (path as NSString).appendingPathComponent("report.json") : path
            let report: StreamedReport, content: [UInt8]
            switch read(file, spoolFolder: spoolFolder) {
            case .success(let read): (report, content) = read
            case .failure(let problem):
                outcome.problems.append("\(file): \(problem)")
                continue
            }
            if report.domains.isEmpty {
                outcome.problems.append("\(file): no domain was audited; nothing to import")
                continue
            }
            var run = RunRecord(streamed: report, kind: .list, origin: .import)
            let identity = "\(report.report.generatedAt.timeIntervalSince1970.rounded(.down)) \(report.report.shard?.description ?? "") \(run.listKey)"
            if seen[identity, default: []].contains(content) {
                outcome.alreadyThere += 1
                continue
            }
            run.importOrdinal = seen[identity, default: []].count
            seen[identity, default: []].append(content)
            if try store.record(run) {
                outcome.imported += 1
            } else {
                outcome.alreadyThere += 1
            }
        }
        return outcome
    }

    /// The report at `file`, its domains spooled one at a time (kept in memory when no spool can be
    /// made), with the identity of its content: the SHA-256 of the shell's and each domain's
    /// canonical JSON (sorted keys) in turn, so a copy reformatted is the same report.
    static func read(_ file: String, spoolFolder: URL) -> Result<(StreamedReport, [UInt8]), ReportFile.LoadError> {
        let shell: AuditReport
        switch ReportFile.loadShell(file) {
        case .success(let read): shell = read
        case .failure(let problem): return .failure(problem)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        var digests = SHA256Digest.of((try? encoder.encode(shell)) ?? Data())
        let spool = try? ResultSpool(in: spoolFolder, count: 0, generatedAt: shell.generatedAt)
        var kept: [DomainResult] = []
        // A version-2 report's bodies (its `bodies`, before its domains) go to the spool, which
        // puts them back when a domain is read; the record itself needs none of them.
        var keptBodies: [String: String] = [:]
        let streamed = ReportFile.forEachDomain(file, generatedAt: shell.generatedAt, takeBody: { digest, text in
            if let spool { spool.storeBody(digest, text, of: file) } else { keptBodies[digest] = text }
        }) { domain in
            digests += SHA256Digest.of((try? encoder.encode(domain)) ?? Data())
            if let spool {
                spool.appendNext(domain)
            } else {
                var domain = domain
                try domain.resolveBodies { keptBodies[$0] }
                kept.append(domain)
            }
        }
        if case .failure(let problem) = streamed { return .failure(problem) }
        var report = StreamedReport(shell: shell, domains: InMemoryDomains(kept))
        if let spool {
            do {
                report = StreamedReport(shell: shell, domains: try spool.seal().results)
            } catch {
                return .failure(.unreadable(error.description))
            }
        }
        // The report's own counts, as a whole report read in memory keeps them.
        report.report.summary = shell.summary
        return .success((report, SHA256Digest.of(Data(digests))))
    }

    /// A domain's timeline as text: one line per run, then what changed.
    public static func text(_ timeline: DomainTimeline) -> String {
        var lines: [String] = []
        for (index, run) in timeline.runs.enumerated() {
            var line = "\(day(run.generatedAt))  \(run.verdict.rawValue.uppercased().padding(toLength: 4, withPad: " ", startingAt: 0))"
            line += run.kind == .oneOff ? "  (one-off check)" : run.shard.map { "  (shard \($0))" } ?? ""
            if run.verdictChanged { line += "  verdict changed" }
            lines.append(line)
            for finding in run.appeared { lines.append("    + \(finding)") }
            for finding in run.wentAway { lines.append("    - \(finding)") }
            if run.certificateChanged || index == 0, let notAfter = run.certificateNotAfter {
                lines.append("    certificate: expires \(day(notAfter))" + (run.certificateIssuer.map { ", issued by \($0)" } ?? ""))
            }
        }
        return lines.map(TerminalText.sanitize).joined(separator: "\n")
    }

    /// The runs as text: one line each.
    public static func text(_ runs: [RunOverview]) -> String {
        let lines = runs.map { run in
            let what = run.kind == .oneOff ? "one-off check" : run.shard.map { "shard \($0)" } ?? (run.origin == .merge ? "list (merged)" : "list")
            return "\(day(run.generatedAt))  \(what.padding(toLength: 14, withPad: " ", startingAt: 0))  "
                + "\(run.domains) domain\(run.domains == 1 ? "" : "s"): \(run.pass) pass, \(run.warn) warn, \(run.fail) fail"
                + (run.complete ? "" : "  (interrupted)") + (run.origin == .import ? "  (imported)" : "")
        }
        return lines.map(TerminalText.sanitize).joined(separator: "\n")
    }

    /// `value` as pretty JSON (ISO 8601 dates), for `--json`: terminal-safe as the audit's `--json`
    /// (DEL, C1 controls, bidi controls, U+2028/U+2029 escaped), since imported reports hold served text.
    public static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return TerminalText.jsonForTerminal(try encoder.encode(value))
    }

    /// "2026-11-30 02:00:00Z".
    public static func day(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime]
        let text = formatter.string(from: date)
        return String(text.prefix(19)).replacingOccurrences(of: "T", with: " ") + "Z"
    }
}
