import Arguments
import Audit
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
            console.out("aasa-audit \(AuditOptions.version)")
            return .success
        }
        // Listening from the start, so a signal at any point ends the run the same orderly way.
        let interruption = Interruption()
        let destination: ReportOutput.Destination = options.reports.outDirectory.map { .folder($0) } ?? .store(ReportStore())
        let run = AuditRun(
            domains: options.domains.isEmpty ? .file(options.domainsFile, given: options.domainsFileGiven) : .arguments(options.domains),
            fetch: options.fetchOptions, audit: options.auditSettings, shard: options.shard,
            baseline: BaselineReport.Choice(file: options.reports.baselineFile, noBaseline: options.reports.noBaseline, output: destination),
            output: ReportOutput(destination: destination, formats: options.reports.formats,
                                 policy: ExitPolicy(strict: options.reports.strict), keep: options.keep),
            tool: ToolInfo(name: "aasa-audit", version: AuditOptions.version),
            history: HistoryFile.choice(file: options.reports.historyFile, noHistory: options.reports.noHistory, output: destination))
        let observer = ConsoleObserver(console: console, prefix: "aasa-audit", quiet: options.reports.quiet, jsonToStdout: options.jsonToStdout)
        return run.run(observer: observer, stop: interruption.stopSwitch, signal: { interruption.signalNumber }).status
    }
}

/// Shows a run on the console: messages on stderr with the program's name, the progress line, the
/// summary (stdout, or stderr with `--json`, which puts the JSON report alone on stdout).
final class ConsoleObserver: AuditRunObserver {
    let console: Console
    let prefix: String
    let quiet: Bool
    let jsonToStdout: Bool
    /// With `--quiet`, the skipped lines of the domain list are still told (the audit; a merge's are
    /// in the shards' own output).
    let listsInputErrorsWhenQuiet: Bool
    private var progressLine: ProgressLine?

    init(console: Console, prefix: String, quiet: Bool, jsonToStdout: Bool = false, listsInputErrorsWhenQuiet: Bool = true) {
        self.console = console
        self.listsInputErrorsWhenQuiet = listsInputErrorsWhenQuiet
        self.prefix = prefix
        self.quiet = quiet
        self.jsonToStdout = jsonToStdout
    }

    /// Where the summary and the "Reports:" line go: stdout, unless it carries the JSON report.
    private func say(_ text: String) {
        jsonToStdout ? console.error(text) : console.out(text)
    }

    func notice(_ text: String) { console.error("\(prefix): \(text)") }

    func info(_ text: String) {
        if !quiet { notice(text) }
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
        if !quiet {
            say(ConsoleSummary.render(report, colour: jsonToStdout ? console.colourOnStderr : console.colourOnStdout))
        } else if listsInputErrorsWhenQuiet {
            // Quiet: no summary, but skipped lines of the list are problems with the run (exit 2).
            for problem in report.inputErrors.prefix(ConsoleSummary.shownProblems) {
                notice("\(TerminalText.sanitize(problem.place)): \"\(TerminalText.sanitize(problem.text))\": \(TerminalText.sanitize(problem.reason))")
            }
        }
        if jsonToStdout { console.out(TerminalText.jsonForTerminal(try JSONReporter.render(report))) }
    }

    func reportsWritten(in directory: URL) {
        if !quiet { say("Reports: \(TerminalText.sanitize(directory.path))/") }
    }
}
