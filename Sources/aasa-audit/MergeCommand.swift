import Audit
import Foundation
import Reporting
#if canImport(Glibc)
import Glibc
#endif

/// `aasa-audit merge REPORT.json... --out DIR`: combines the reports of `--shard K/N` runs into one
/// set of reports, written like an audit's (same formats, atomic files). The combining is `ReportMerge`.
struct MergeCommand {
    var files: [String]
    /// Only `outDirectory`, `formats`, `strict`, `quiet` and the baseline options are used: the reports are
    /// written by `AuditCommand.write`.
    var options: CommandLineOptions
    var console: Console

    static let help = """
        USAGE: aasa-audit merge REPORT.json... [--out DIR] [--format LIST] [--strict] [--quiet] [--baseline FILE | --no-baseline]

        Combines the report.json of each shard (aasa-audit --shard K/N) into one set of reports, as if
        one machine had audited the whole list. Domains are sorted by name; input errors reported by
        every shard are kept once; the summary is recomputed. The reports are incomplete ("complete":
        false) when a shard of 1..N is missing or was itself interrupted. Shards written by different
        versions, or started more than 12 hours apart, are merged with a warning. See docs/scaling.md.

        OPTIONS:
          -o, --out DIR   Write the merged reports into DIR (default: reports/<UTC time>/, and
                          reports/latest points at it unless the merged report is incomplete).
          --format LIST   Report formats, comma-separated: \(CommandLineOptions.supportedFormats.joined(separator: ", ")) (default: json,html).
          --baseline FILE Say what changed since this earlier report (default, without --out: the
                          report reports/latest points at, e.g. the last merge).
          --no-baseline   Compare with nothing.
          --strict        Warnings fail too (exit 1) and are JUnit failures, as for the shards' --strict.
          -q, --quiet     No summary: only problems (a missing or interrupted shard, warnings), on stderr.
          -h, --help      Show this help.

        EXIT STATUS:
          0  no domain fails (warnings allowed, unless --strict)
          1  at least one domain fails (with --strict: or warns)
          2  usage error; a report cannot be read or does not fit with the others (nothing is written);
             a shard is missing or was interrupted (the report is written, incomplete); the shards
             reported input errors; the reports could not be written
          130, 143  stopped by SIGINT or SIGTERM (nothing written, or the reports finished first)
        """

    /// Parses the arguments after `merge`; nil when help was asked for.
    static func parse(_ arguments: [String]) throws(UsageError) -> MergeCommand? {
        var files: [String] = [], options = CommandLineOptions()
        var cursor = ArgumentCursor(arguments)
        while let argument = try cursor.next() {
            let name: String
            switch argument {
            case .positional(let file):
                files.append(file)
                continue
            case .option(let option):
                name = option
            }
            func take() throws(UsageError) -> String { try cursor.value(for: name) }
            switch name {
            case "-h", "--help": return nil
            case "-o", "--out": options.outDirectory = try take()
            case "--format": options.formats = try CommandLineOptions.parseFormats(try take())
            case "--baseline": options.baselineFile = try take()
            case "--no-baseline": options.noBaseline = true
            case "--strict": options.strict = true
            case "-q", "--quiet": options.quiet = true
            default: throw .unknownOption(name)
            }
        }
        guard !files.isEmpty else { throw .invalidValue("merge", "", "name the report.json of each shard") }
        if let file = options.baselineFile, options.noBaseline {
            throw .invalidValue("--baseline", file, "--no-baseline contradicts it; give one or the other")
        }
        return MergeCommand(files: files, options: options, console: Console())
    }

    /// The `main` of the subcommand.
    static func main(_ arguments: [String], console: Console) -> Never {
        do {
            guard let command = try parse(arguments) else {
                console.out(help)
                exit(0)
            }
            exit(command.run().rawValue)
        } catch {
            console.error("aasa-audit merge: \(error)")
            exit(AuditCommand.ExitStatus.usageOrInputError.rawValue)
        }
    }

    func run() -> AuditCommand.ExitStatus {
        // Ctrl-C or SIGTERM must not kill the merge half-way through writing (a temporary file left,
        // some formats written and others not): signals are only recorded. Before writing, one ends
        // the merge with nothing written; while writing, the reports are finished first.
        let interruption = Interruption()
        func stopped(_ what: String) -> AuditCommand.ExitStatus? {
            guard let signal = interruption.signalNumber else { return nil }
            console.error("aasa-audit merge: stopped by \(signal == SIGTERM ? "SIGTERM" : "SIGINT"): \(what)")
            return signal == SIGTERM ? .terminated : .interrupted
        }
        var inputs: [ReportMerge.Input] = []
        for file in files {
            let data: Data
            switch ReportFileReader.read(file) {
            case .success(let bytes): data = bytes
            case .failure(let refusal):
                console.error("aasa-audit merge: \(file): \(refusal)")
                return .usageOrInputError
            }
            do {
                inputs.append(ReportMerge.Input(source: file, report: try JSONReporter.decode(data)))
            } catch let error as JSONReporter.UnsupportedSchemaVersion {
                console.error("aasa-audit merge: \(file): \(error)")
                return .usageOrInputError
            } catch {
                console.error("aasa-audit merge: \(file): not an aasa-audit report.json (\(Self.describe(error)))")
                return .usageOrInputError
            }
        }
        let outcome: ReportMerge.Outcome
        do {
            outcome = try ReportMerge.merge(inputs)
        } catch {
            console.error("aasa-audit merge: \(error)")
            return .usageOrInputError
        }
        for warning in outcome.warnings { console.error("aasa-audit merge: warning: \(warning)") }
        var report = outcome.report
        if let status = stopped("nothing was written") { return status }
        // Read before writing: without --out the merge moves reports/latest.
        switch BaselineReport.load(options: options) {
        case nil: break
        case .failure(let problem)?: console.error("aasa-audit merge: warning: \(problem)")
        case .success(let baseline)?:
            if !options.quiet { console.error("aasa-audit merge: comparing with \(baseline.path) (run of \(baseline.report.generatedAt.formatted(.iso8601)))") }
            report.changes = ReportChanges.between(baseline: baseline.report, current: report, baselinePath: baseline.path,
                                                   expiryWarningDays: options.expiryWarningDays)
        }
        if !options.quiet { console.out(ConsoleSummary.render(report, colour: console.colourOnStdout)) }
        do {
            let directory = try AuditCommand(options: options, console: console).write(report)
            if !options.quiet { console.out("Reports: \(TerminalText.sanitize(directory.path))/") }
        } catch {
            console.error("aasa-audit merge: \(error)")
            return .usageOrInputError
        }
        if let status = stopped("the merged reports were written whole first") { return status }
        if !outcome.missingShards.isEmpty {
            let count = inputs.first?.report.shard?.count ?? 0
            let shown = outcome.missingShards.prefix(20)
            let more = outcome.missingShardCount - shown.count
            console.error("aasa-audit merge: shard\(outcome.missingShardCount == 1 ? "" : "s") "
                          + shown.map { "\($0)/\(count)" }.joined(separator: ", ")
                          + (more > 0 ? " and \(more) more" : "")
                          + " not given: the merged report is incomplete")
            return .usageOrInputError
        }
        if !outcome.interruptedSources.isEmpty {
            // An incomplete report must not pass for a whole night's audit.
            for source in outcome.interruptedSources {
                console.error("aasa-audit merge: \(source): this shard was interrupted (\"complete\": false): the merged report is incomplete")
            }
            return .usageOrInputError
        }
        if !report.inputErrors.isEmpty { return .usageOrInputError }
        return report.summary.fail > 0 || (options.strict && report.summary.warn > 0) ? .domainFailed : .success
    }

    /// A decoding error in words: what is wrong, and where in the file.
    static func describe(_ error: Error) -> String {
        guard let decoding = error as? DecodingError else { return "\(error)" }
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
            return keys.isEmpty ? "" : " at " + keys.joined(separator: ".")
        }
        switch decoding {
        case .keyNotFound(let key, let context): return "missing \"\(key.stringValue)\"\(path(context))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context): return "\(context.debugDescription)\(path(context))"
        case .dataCorrupted(let context): return "\(context.debugDescription)\(path(context))"
        @unknown default: return "\(error)"
        }
    }
}
