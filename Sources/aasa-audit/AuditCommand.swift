import Arguments
import Audit
import CBuildInfo
import Fetching
import Foundation
import Reporting
import Run

/// The audit (`aasa-audit [options] [DOMAIN ...]`): runs an `AuditRun` and shows it on the console.
struct AuditCommand: Subcommand {
    var options: AuditOptions
    var console: Console

    func run() -> ExitStatus {
        if options.listFindings {
            console.out(FindingsTable.markdown())
            return .success
        }
        if options.showVersion {
            console.out(VersionText(commit: String(cString: cbuildinfo_commit()), libraries: LinkedLibraries.loaded()).text)
            return .success
        }
        // Listening from the start, so a signal at any point ends the run the same orderly way.
        let interruption = Interruption()
        let destination: ReportOutput.Destination = options.reports.outDirectory.map { .folder($0) } ?? .store(ReportStore())
        // With --entitlements or --apk, the default domains.txt is read only when it is there: the apps' hosts may be all there is.
        let listOnlyFromApps = options.domains.isEmpty && !(options.entitlements.isEmpty && options.apks.isEmpty) && !options.domainsFileGiven
            && !FileManager.default.fileExists(atPath: options.domainsFile)
        var output = ReportOutput(destination: destination, formats: options.reports.formats,
                                  policy: ExitPolicy(strict: options.reports.strict, failOn: options.failOn), keep: options.keep,
                                  promFile: options.reports.promFile)
        output.lockWait = options.reports.lockWait
        var run = AuditRun(
            domains: options.domains.isEmpty && !listOnlyFromApps ? .file(options.domainsFile, given: options.domainsFileGiven) : .arguments(options.domains),
            fetch: options.fetchOptions(environment: ProcessInfo.processInfo.environment), audit: options.auditSettings, shard: options.shard,
            baseline: BaselineReport.Choice(file: options.reports.baselineFile, noBaseline: options.reports.noBaseline, output: destination),
            output: output,
            tool: ToolInfo(name: "aasa-audit", version: AuditOptions.version),
            history: HistoryFile.choice(file: options.reports.historyFile, noHistory: options.reports.noHistory, output: destination, stop: interruption.stopSwitch),
            apps: options.entitlements)
        run.androidApps = options.apks
        run.androidKeys = options.androidKeys
        run.bodies = options.bodies
        let observer = ConsoleObserver(console: console, prefix: "aasa-audit", quiet: options.reports.quiet, jsonToStdout: options.jsonToStdout,
                                       listsInputErrors: false, details: options.details,
                                       quietNames: ExitPolicy(strict: options.reports.strict, failOn: options.failOn))
        return run.run(observer: observer, stop: interruption.stopSwitch, signal: { interruption.signalNumber }).status
    }
}

/// Shows a run on the console: its events on stderr in words (`RunEventText`) with the program's
/// name, the progress line, the summary (stdout, or stderr with `--json`, which puts the JSON report
/// alone on stdout).
final class ConsoleObserver: AuditRunObserver {
    let console: Console
    let prefix: String
    let quiet: Bool
    let jsonToStdout: Bool
    /// Whether the report's input errors are listed on stderr with the summary: a merge's (the
    /// shards' lists); the audit tells its own as it reads the list.
    let listsInputErrors: Bool
    /// `--details`: every error and warning with its fix, for any number of domains.
    let details: Bool
    /// Which domains `--quiet` names: those that fail the run; nil: none (a merge, whose `--quiet`
    /// stays silent but for problems with the run).
    let quietNames: ExitPolicy?
    private var progressLine: ProgressLine?

    init(console: Console, prefix: String, quiet: Bool, jsonToStdout: Bool = false, listsInputErrors: Bool,
         details: Bool = false, quietNames: ExitPolicy? = nil) {
        self.console = console
        self.listsInputErrors = listsInputErrors
        self.prefix = prefix
        self.quiet = quiet
        self.jsonToStdout = jsonToStdout
        self.details = details
        self.quietNames = quietNames
    }

    /// Where the summary and the "Reports:" line go: stdout, unless it carries the JSON report.
    private func say(_ text: String) {
        jsonToStdout ? console.error(text) : console.out(text)
    }

    /// Every event but information, which `--quiet` hides. Under `--quiet` a note on the run
    /// (`RunEvent.isNote`: `--keep` left a folder, `--fail-on new` has nothing to compare with)
    /// says `note:`, so a cron wrapper can keep the lines that say `FAIL` apart from the rest.
    func event(_ event: RunEvent) {
        if quiet && event.level == .info { return }
        for line in RunEventText.lines(for: event, quiet: quiet) { console.error("\(prefix): \(line)") }
    }

    func fetching(total: Int?) {
        if let total {
            progressLine = ProgressLine(total: total, enabled: console.progressOnStderr && !quiet && total > 0)
        } else {
            progressLine?.finish()
        }
    }

    func progress(done: Int, of total: Int) { progressLine?.update(done: done, of: total) }

    func reportMade(_ report: AuditReport) throws {
        try reportMade(streamed: StreamedReport(report))
    }

    /// The summary and `--json`, reading the domains one at a time.
    func reportMade(streamed: StreamedReport) throws {
        let report = streamed.report
        if listsInputErrors && !quiet && report.inputErrorCount > 0 {
            event(.inputProblems(report.inputErrors, total: report.inputErrorCount))
        }
        if !quiet {
            try ConsoleSummary.render(streamed, colour: jsonToStdout ? console.colourOnStderr : console.colourOnStdout,
                                      width: jsonToStdout ? console.stderrWidth : console.stdoutWidth, details: details) { say($0) }
            for line in ConsoleSummary.appLines(report.apps ?? []) { say(line) }
        } else if let policy = quietNames {
            // Quiet: no summary; one line per domain that fails the run (with --fail-on new, only
            // what is new), so cron mails only when there is something to do.
            for position in policy.failingPositions(in: streamed) {
                let domain = try streamed.domains.result(at: position)
                for line in ConsoleSummary.quietLines([domain], program: prefix, width: console.stderrWidth) { console.error(line) }
            }
            for line in ConsoleSummary.quietAppLines(policy.failingApps(in: report), policy: policy, program: prefix) {
                console.error(line)
            }
            // --fail-on expiring: each certificate that fails the run, whatever its domain's verdict.
            for position in policy.expiringPositions(in: streamed) {
                let domain = try streamed.domains.result(at: position)
                for line in ConsoleSummary.quietExpiryLines([domain], program: prefix) { console.error(line) }
            }
        }
        // Piece by piece: each piece ends between two domains (at ASCII punctuation), so each is whole text.
        if jsonToStdout { try JSONReporter.render(streamed) { Console.write(TerminalText.jsonForTerminal($0), to: STDOUT_FILENO) } }
    }

    func reportsWritten(in directory: URL) {
        if !quiet { say("Reports: \(TerminalText.sanitize(directory.path))/") }
    }
}
