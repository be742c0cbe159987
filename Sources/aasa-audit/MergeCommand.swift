import Arguments
import Audit
import Run

/// `aasa-audit merge REPORT.json...`: runs a `MergeRun` and shows it on the console.
struct MergeCommand: Subcommand {
    var options: MergeOptions
    var console: Console

    func run() -> ExitStatus {
        let interruption = Interruption()
        let reports = options.reports
        let destination: ReportOutput.Destination = reports.outDirectory.map { .folder($0) } ?? .store(ReportStore())
        var output = ReportOutput(destination: destination, formats: reports.formats,
                                  policy: ExitPolicy(strict: reports.strict, failOn: options.failOn), keep: options.keep,
                                  promFile: reports.promFile)
        output.lockWait = reports.lockWait
        var merge = MergeRun(files: options.files,
                             baseline: BaselineReport.Choice(file: reports.baselineFile, noBaseline: reports.noBaseline, output: destination),
                             output: output,
                             history: HistoryFile.choice(file: reports.historyFile, noHistory: reports.noHistory, output: destination, stop: interruption.stopSwitch))
        merge.bodies = options.bodies
        let observer = ConsoleObserver(console: console, prefix: "aasa-audit merge", quiet: reports.quiet, listsInputErrors: true)
        return merge.run(observer: observer, signal: { interruption.signalNumber }).status
    }
}
