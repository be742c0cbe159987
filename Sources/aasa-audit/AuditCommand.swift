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
        // Whole seconds: the JSON report stores seconds, so a report read back compares equal.
        let started = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        // Targets.
        var list: DomainList
        if options.domains.isEmpty {
            guard let data = FileManager.default.contents(atPath: options.domainsFile) else {
                let hint = options.domainsFileGiven ? "" : " (name domains as arguments, or create domains.txt with one domain per line)"
                console.error("aasa-audit: cannot read the domain list \(options.domainsFile)\(hint)")
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
            console.error("aasa-audit: shard \(shard): \(list.entries.count) of the list's \(total) domains")
        }

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
        let results: [DomainResult]
        do {
            // Each domain is audited as soon as it is fetched, so its raw responses are freed at once.
            results = try SiteFetcher(options: fetchOptions).fetch(domains: entries.map(\.name.ascii)) { index, site in
                auditor.audit(site, unicodeDomain: entries[index].name.unicode)
            }
        } catch {
            console.error("aasa-audit: \(error)")
            return .usageOrInputError
        }
        var report = AuditReport(tool: ToolInfo(name: "aasa-audit", version: CommandLineOptions.version),
                                 generatedAt: started, inputErrors: list.problems, domains: results)
        report.shard = options.shard

        // Report.
        console.out(ConsoleSummary.render(report, colour: console.colourOnStdout))
        do {
            let directory = try write(report)
            console.out("Reports: \(directory.path)/")
        } catch {
            console.error("aasa-audit: \(error)")
            return .usageOrInputError
        }
        if !list.problems.isEmpty { return .usageOrInputError }
        return report.summary.fail > 0 ? .domainFailed : .success
    }

    /// Writes every requested format, then (for the default folder) moves `reports/latest`.
    func write(_ report: AuditReport) throws -> URL {
        let directory = try ReportWriter.runDirectory(out: options.outDirectory, now: report.generatedAt)
        for format in options.formats {
            switch format {
            case "json": try ReportWriter.write(named: "report.json", in: directory) { emit in try JSONReporter.render(report, to: emit) }
            case "html": try ReportWriter.write(named: "report.html", in: directory) { emit in try HTMLReporter.render(report) { try emit(Data($0.utf8)) } }
            default: break
            }
        }
        if options.outDirectory == nil { try ReportWriter.markLatest(directory) }
        return directory
    }
}
