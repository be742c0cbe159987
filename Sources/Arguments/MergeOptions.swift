import Reporting

/// `aasa-audit merge REPORT.json... [--out DIR] [--format LIST] [--strict] [--quiet] [--baseline FILE | --no-baseline]`.
public struct MergeOptions: CommandOptions, Equatable, Sendable {
    public static let name = "merge"
    public static let summary = "combine the report.json of each --shard run into one set of reports"

    /// The shards' report.json files, as given.
    public var files: [String] = []
    /// `--out`, `--format`, `--strict`, `--quiet`, `--baseline`, `--no-baseline`, as for the audit.
    public var reports = ReportOptions()

    /// No files, the defaults.
    public init() {}

    /// Every option of `merge`, declared once: the report group, said of a merge.
    public static let table = OptionTable<MergeOptions>(ReportOptions.options(ReportOptions.HelpTexts(
        out: "Write the merged reports into DIR (default: reports/<UTC time>/, and reports/latest points at it unless the merged report is incomplete).",
        format: "Report formats, comma-separated: \(ReportOptions.formatList).",
        baseline: "Say what changed since this earlier report (default, without --out: the report reports/latest points at, e.g. the last merge).",
        noBaseline: "Compare with nothing.",
        history: "Record the merged run in this history database, a run of the list (default, without --out: reports/history.sqlite); a file that cannot be used is a warning.",
        noHistory: "Neither read nor record a history.",
        strict: "Warnings fail too (exit 1) and are JUnit failures, as for the shards' --strict.",
        quiet: "No summary: only problems (a missing or interrupted shard, warnings), on stderr."))
        .map { $0.lifted(\MergeOptions.reports) })
    public static var optionSpecs: [OptionSpec] { table.specs }
    public static let operands = ValueKind.file

    /// Parses the arguments after `merge`.
    public static func parse(_ arguments: [String]) throws(UsageError) -> Invocation<MergeOptions> {
        var options = MergeOptions()
        if try table.parse(arguments, into: &options, operand: { options, file in options.files.append(file) }) { return .help }
        guard !options.files.isEmpty else { throw .invalidValue("merge", "", "name the report.json of each shard") }
        try options.reports.validate()
        return .run(options)
    }

    public static let help = """
        USAGE: aasa-audit merge REPORT.json... [--out DIR] [--format LIST] [--strict] [--quiet] [--baseline FILE | --no-baseline]
                          [--history FILE | --no-history] [--wait SECONDS]

        Combines the report.json of each shard (aasa-audit --shard K/N) into one set of reports, as if
        one machine had audited the whole list. Domains are sorted by name; input errors reported by
        every shard are kept once; the summary is recomputed. The reports are incomplete ("complete":
        false) when a shard of 1..N is missing or was itself interrupted. Shards written by different
        versions, or started more than 12 hours apart, are merged with a warning. See docs/scaling.md.

        OPTIONS:
        \(table.helpLines())

        EXIT STATUS:
          0  no domain fails (warnings allowed, unless --strict)
          1  at least one domain fails (with --strict: or warns)
          2  usage error; a report cannot be read or does not fit with the others, or another run holds
             the reports folder (nothing is written);
             a shard is missing or was interrupted (the report is written, incomplete); the shards
             reported input errors; the reports could not be written
          130, 143  stopped by SIGINT or SIGTERM (nothing written, or the reports finished first)
        """
}
