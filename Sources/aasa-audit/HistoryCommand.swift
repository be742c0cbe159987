import Arguments
import Audit
import Foundation
import History
import Run

/// `aasa-audit history …`: a domain's timeline, the runs of the list, import of old reports, prune.
struct HistoryCommand: Subcommand {
    var options: HistoryOptions
    var console: Console

    func run() -> ExitStatus {
        let prefix = "aasa-audit history"
        if case .show = options.action, !FileManager.default.fileExists(atPath: options.file) {
            console.error("\(prefix): no history at \(options.file) (every audit records one there; --history FILE names another)")
            return .usageOrInputError
        }
        if case .prune = options.action, !FileManager.default.fileExists(atPath: options.file) {
            // Nothing to prune, and no empty history (nor its folder) made to say so.
            console.out("no history at \(options.file): nothing to prune")
            return .success
        }
        let since = options.since.map { " since \(HistoryRun.day($0))" } ?? ""
        // Ctrl-C and SIGTERM end a statement of a large or crafted history (its progress handler
        // asks the switch), and an import between reports, as they end an audit.
        let interruption = Interruption()
        let store: HistoryStore
        do {
            store = try HistoryFile(path: options.file, createsFolder: options.file == HistoryOptions.defaultFile,
                                    stop: interruption.stopSwitch).open()
        } catch {
            if let number = interruption.signalNumber { return stopped(number, "nothing was read") }
            console.error("\(prefix): \(error)")
            return .usageOrInputError
        }
        let stop = interruption.stopSwitch
        do {
            switch options.action {
            case .show(let domain?):
                let name = (try? DomainName.parse(domain).name.ascii) ?? domain.lowercased()
                let timeline = try store.timeline(of: name, since: options.since)
                if timeline.runs.isEmpty { console.error("\(prefix): no recorded run\(since) audited \(name)") }
                if options.json || !timeline.runs.isEmpty { console.out(options.json ? try HistoryRun.json(timeline) : HistoryRun.text(timeline)) }
            case .show(nil):
                let runs = try store.overview(since: options.since)
                if runs.isEmpty { console.error("\(prefix): no run recorded\(since) in \(options.file)") }
                if options.json || !runs.isEmpty { console.out(options.json ? try HistoryRun.json(runs) : HistoryRun.text(runs)) }
            case .importReports(let paths):
                let outcome: HistoryRun.ImportOutcome
                do {
                    // Each report is spooled beside the history it goes into (a folder the run can write).
                    let spoolFolder = URL(fileURLWithPath: (options.file as NSString).deletingLastPathComponent.isEmpty
                                          ? "." : (options.file as NSString).deletingLastPathComponent)
                    outcome = try HistoryRun.importReports(paths, into: store, spoolFolder: spoolFolder, stopped: { stop.isStopped })
                } catch {
                    // The report being recorded when the signal came is rolled back whole.
                    if let number = interruption.signalNumber { return stopped(number, "the report being recorded was rolled back; those before it are recorded") }
                    throw error
                }
                for problem in outcome.problems { console.error("\(prefix): \(problem)") }
                console.out("imported \(outcome.imported) report\(outcome.imported == 1 ? "" : "s")"
                            + (outcome.alreadyThere > 0 ? "; \(outcome.alreadyThere) already recorded" : ""))
                if let number = interruption.signalNumber {
                    return stopped(number, "\(outcome.notRead) report\(outcome.notRead == 1 ? " was" : "s were") not read")
                }
                return outcome.problems.isEmpty ? .success : .usageOrInputError
            case .prune(let days):
                let deleted = try store.prune(olderThanDays: days)
                console.out("deleted \(deleted) run\(deleted == 1 ? "" : "s") older than \(days) day\(days == 1 ? "" : "s")")
            }
        } catch {
            if let number = interruption.signalNumber {
                // A show prints nothing once stopped; a prune is one transaction, rolled back whole.
                if case .prune = options.action { return stopped(number, "nothing was deleted") }
                return stopped(number, "nothing was shown")
            }
            console.error("\(prefix): \(error)")
            return .usageOrInputError
        }
        if let number = interruption.signalNumber { return ExitPolicy.status(forSignal: number) }
        return .success
    }

    /// Says what the signal `number` stopped and left ("stopped by SIGINT: nothing was deleted");
    /// the status for it (130, 143).
    private func stopped(_ number: Int32, _ left: String) -> ExitStatus {
        console.error("aasa-audit history: stopped by \(Interruption.name(of: number)): \(left)")
        return ExitPolicy.status(forSignal: number)
    }
}
