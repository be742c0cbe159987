import Audit
import Fetching
import Foundation
import Reporting
#if canImport(Glibc)
import Glibc
#endif

/// The run: read targets, fetch, audit, write reports, print the summary, pick the exit status.
struct AuditCommand {
    /// Exit statuses, decided here and nowhere else.
    enum ExitStatus: Int32 {
        case success = 0
        case domainFailed = 1
        case usageOrInputError = 2
        /// Stopped by SIGINT (Ctrl-C) or SIGTERM: 128 + the signal's number, as shells report it.
        case interrupted = 130
        case terminated = 143
    }

    var options: CommandLineOptions
    var console = Console()

    static func main() -> Never {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let console = Console()
        if arguments.first == "merge" { MergeCommand.main(Array(arguments.dropFirst()), console: console) }
        if arguments.first == "validate" {
            do {
                guard let command = try ValidateCommand.parse(Array(arguments.dropFirst())) else {
                    console.out(ValidateCommand.help)
                    exit(0)
                }
                exit(command.run().rawValue)
            } catch {
                console.error("aasa-audit validate: \(error)")
                exit(ExitStatus.usageOrInputError.rawValue)
            }
        }
        if arguments.first == "match" {
            do {
                guard let command = try MatchCommand.parse(Array(arguments.dropFirst())) else {
                    console.out(MatchCommand.help)
                    exit(0)
                }
                exit(command.run().rawValue)
            } catch {
                console.error("aasa-audit match: \(error)")
                exit(ExitStatus.usageOrInputError.rawValue)
            }
        }
        let options: CommandLineOptions
        do {
            options = try CommandLineOptions.parse(arguments)
        } catch {
            console.error("aasa-audit: \(error)")
            exit(ExitStatus.usageOrInputError.rawValue)
        }
        if options.showHelp {
            console.out(CommandLineOptions.help)
            exit(0)
        }
        if options.listFindings {
            console.out(FindingsTable.markdown())
            exit(0)
        }
        if options.showVersion {
            console.out("aasa-audit \(CommandLineOptions.version)")
            exit(0)
        }
        exit(AuditCommand(options: options, console: console).run().rawValue)
    }

    func run() -> ExitStatus {
        // Listening from the start, so a signal at any point ends the run the same orderly way.
        let interruption = Interruption()
        // Whole seconds: the JSON report stores seconds, so a report read back compares equal.
        let started = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        // Targets.
        var list: DomainList
        if options.domains.isEmpty {
            let data: Data
            do {
                data = try DomainListFile.read(options.domainsFile)
            } catch DomainListFile.ReadError.unreadable {
                let hint = options.domainsFileGiven ? "" : " (name domains as arguments, or create domains.txt with one domain per line)"
                console.error("aasa-audit: cannot read the domain list \(options.domainsFile)\(hint)")
                return .usageOrInputError
            } catch {
                console.error("aasa-audit: \(error)")
                return .usageOrInputError
            }
            list = DomainList.parse(data, file: options.domainsFile)
        } else {
            list = DomainList.parse(arguments: options.domains)
        }
        if !list.duplicates.isEmpty {
            console.error("aasa-audit: \(list.duplicates.count) duplicate line\(list.duplicates.count == 1 ? "" : "s") audited once")
        }
        for entry in list.entries where entry.note != nil {
            console.error("aasa-audit: \(entry.place): \(entry.note ?? "")")
        }
        if let caFile = options.caFile, !FileManager.default.isReadableFile(atPath: caFile) {
            console.error("aasa-audit: --cacert \(caFile): the file does not exist or cannot be read")
            return .usageOrInputError
        }
        if list.entries.isEmpty && list.problems.isEmpty {
            console.error("aasa-audit: no domains to audit in \(options.domains.isEmpty ? options.domainsFile : "the arguments")")
            return .usageOrInputError
        }
        if let shard = options.shard {
            let total = list.entries.count
            list = shard.subset(of: list)
            // Not with --quiet: a nightly cron job mails whatever it prints, and this is no problem.
            if !options.quiet { console.error("aasa-audit: shard \(shard): \(list.entries.count) of the list's \(total) domains") }
        }

        // The baseline is read now, before this run moves reports/latest.
        let baseline = loadBaseline()

        // Fetch and audit.
        var fetchOptions = FetchOptions(
            userAgent: options.userAgent, caFile: options.caFile, connectTo: options.connectTo, resolve: options.resolve,
            connectTimeout: options.connectTimeout, totalTimeout: options.timeout, maxBytes: options.maxBytes,
            concurrency: options.concurrency, appleCDNBase: options.effectiveAppleCDNBase,
            crawlerUserAgent: CommandLineOptions.crawlerUserAgent)
        fetchOptions.maxPerHost = options.maxPerHost
        let auditor = Auditor(settings: AuditSettings(expiryWarningDays: options.expiryWarningDays, userAgent: options.userAgent,
                                                   crawlerUserAgent: CommandLineOptions.crawlerUserAgent), now: started)
        let entries = list.entries
        let results: [DomainResult?]
        let progress = ProgressLine(total: entries.count, enabled: console.progressOnStderr && !options.quiet && !entries.isEmpty)
        do {
            // Each domain is audited as soon as it is fetched (see QueuedAudit); nil for a domain not
            // finished when a signal stopped the run.
            let audits = QueuedAudit(auditor: auditor, entries: entries, maxWaiting: max(16, options.concurrency / 2))
            _ = try SiteFetcher(options: fetchOptions).fetch(domains: entries.map(\.name.ascii), until: interruption.stopSwitch,
                                                         admit: { audits.hasRoom },
                                                         progress: progress.update) { index, site in audits.submit(index, site) }
            results = audits.finish()
            progress.finish()
        } catch {
            progress.finish()
            console.error("aasa-audit: \(error)")
            return .usageOrInputError
        }
        var report = PartialRun.report(tool: ToolInfo(name: "aasa-audit", version: CommandLineOptions.version), generatedAt: started,
                                       inputErrors: list.problems, entries: entries, results: results)
        report.shard = options.shard
        if let baseline {
            report.changes = ReportChanges.between(baseline: baseline.report, current: report, baselinePath: baseline.path,
                                                   expiryWarningDays: options.expiryWarningDays)
        }

        // Report: with --json, stdout carries the JSON report only and the rest goes to stderr.
        let say = options.jsonToStdout ? console.error : console.out
        if !options.quiet {
            say(ConsoleSummary.render(report, colour: options.jsonToStdout ? console.progressOnStderr : console.colourOnStdout))
        } else {
            // Quiet: no summary, but skipped lines of the list are problems with the run (exit 2).
            for problem in report.inputErrors.prefix(ConsoleSummary.shownProblems) {
                console.error("aasa-audit: \(TerminalText.sanitize(problem.place)): \"\(TerminalText.sanitize(problem.text))\": \(TerminalText.sanitize(problem.reason))")
            }
        }
        do {
            if options.jsonToStdout { console.out(TerminalText.jsonForTerminal(try JSONReporter.render(report))) }
            let directory = try write(report)
            if !options.quiet { say("Reports: \(TerminalText.sanitize(directory.path))/") }
        } catch {
            console.error("aasa-audit: \(error)")
            return .usageOrInputError
        }
        if let signal = interruption.signalNumber {
            console.error(PartialRun.notice(report, signal: signal, usesLatest: options.outDirectory == nil))
            return signal == SIGTERM ? .terminated : .interrupted
        }
        if !list.problems.isEmpty { return .usageOrInputError }
        return report.summary.fail > 0 || (options.strict && report.summary.warn > 0) ? .domainFailed : .success
    }

    /// The baseline to compare with, if any; a baseline that cannot be used is a warning, not a failure.
    private func loadBaseline() -> BaselineReport? {
        switch BaselineReport.load(options: options) {
        case nil:
            return nil
        case .failure(let problem)?:
            console.error("aasa-audit: warning: \(problem)")
            return nil
        case .success(let baseline)?:
            if !options.quiet {
                console.error("aasa-audit: comparing with \(baseline.path) (run of \(baseline.report.generatedAt.formatted(.iso8601)))")
            }
            return baseline
        }
    }

    /// Writes every requested format, then (for the default folder) moves `reports/latest`.
    func write(_ report: AuditReport) throws -> URL {
        let directory = try ReportWriter.runDirectory(out: options.outDirectory, now: report.generatedAt)
        try ReportFiles.write(report, formats: options.formats, strict: options.strict, in: directory)
        // An interrupted run keeps its report but never becomes the latest one.
        if options.outDirectory == nil && report.complete {
            try ReportWriter.markLatest(directory)
            if let keep = options.keep {
                for note in ReportPruner.prune(keep: keep, current: directory).notes { console.error("aasa-audit: warning: \(note)") }
            }
        }
        return directory
    }
}
