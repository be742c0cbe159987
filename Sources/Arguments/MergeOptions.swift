import Audit
import Reporting

/// `aasa-audit merge REPORT.json... [--out DIR] [--format LIST] [--strict] [--quiet] [--baseline FILE | --no-baseline]
/// [--fail-on LIST] [--keep N]`.
public struct MergeOptions: CommandOptions, Equatable, Sendable {
    public static let name = "merge"
    public static let summary = "combine the report.json of each --shard run into one set of reports"

    /// The shards' report.json files, as given.
    public var files: [String] = []
    /// `--out`, `--format`, `--strict`, `--quiet`, `--baseline`, `--no-baseline`, as for the audit.
    public var reports = ReportOptions()
    /// `--fail-on any|new|expiring[,...]`, as for the audit (the shards' `--expiry-warning-days`).
    public var failOn = FailOnList.any
    /// `--keep N`: keep the N newest `reports/<UTC time>` folders, as for the audit.
    public var keep: Int?
    /// `--bodies all|failing|none`: leave out the bodies this does not keep; nil keeps what the shards stored.
    public var bodies: BodiesPolicy?

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
        quiet: "No summary: only problems (a missing or interrupted shard, warnings), on stderr; a note on the run (a warning, --fail-on new with nothing to compare with, --keep leaving a folder) starts aasa-audit merge: note:."))
        .map { $0.lifted(\MergeOptions.reports) } + [
            RunPolicyOptions.failOn(\MergeOptions.failOn, help: "What fails the merge (exit 1), comma-separated, as for the audit. any: every failing domain. new: only what fails now and did not in the baseline (by default the previous merge), or without a baseline, in the history's previous run of the list; without either it acts as any and says so. expiring: a certificate that expired or expires within the shards' --expiry-warning-days. new,expiring or any,expiring: either."),
            RunPolicyOptions.keep(\MergeOptions.keep, help: "Keep the N newest reports/<UTC time> folders and delete older ones, as for the audit (never the one reports/latest points to, never other folders; not with --out)."),
            .value("--bodies", valueName: "all|failing|none", kind: .choices(BodiesPolicy.allCases.map(\.rawValue)),
                   help: "Leave out more served bodies than the shards did, by each domain's stored verdict: failing keeps those of the domains that do not pass, none keeps none (all keeps what the shards stored, the default: a merge cannot restore a body a shard left out). Each distinct body is stored once across the shards.") {
                $0.bodies = try OptionValue.bodies($1.value, $1.name)
            },
        ])
    public static var optionSpecs: [OptionSpec] { table.specs }
    public static let operands = ValueKind.file

    /// Parses the arguments after `merge`.
    public static func parse(_ arguments: [String]) throws(UsageError) -> Invocation<MergeOptions> {
        var options = MergeOptions()
        if try table.parse(arguments, into: &options, operand: { options, file in options.files.append(file) }) { return .help }
        guard !options.files.isEmpty else { throw .invalidValue("merge", "", "name the report.json of each shard") }
        try options.reports.validate()
        try RunPolicyOptions.validate(failOn: options.failOn, keep: options.keep, reports: options.reports)
        return .run(options)
    }

    public static let help = """
        USAGE: aasa-audit merge REPORT.json... [--out DIR] [--format LIST] [--strict] [--quiet] [--baseline FILE | --no-baseline]
                          [--history FILE | --no-history] [--wait SECONDS] [--fail-on LIST] [--keep N] [--bodies all|failing|none]

        Combines the report.json of each shard (aasa-audit --shard K/N) into one set of reports, as if
        one machine had audited the whole list. Domains are sorted by name; input errors reported by
        every shard are kept once; the summary is recomputed. The reports are incomplete ("complete":
        false) when a shard of 1..N is missing or was itself interrupted. Shards written by different
        versions, or started more than 12 hours apart, are merged with a warning. See docs/scaling.md.

        OPTIONS:
        \(table.helpLines())

        EXIT STATUS:
          0  no domain fails (warnings allowed, unless --strict)
          1  at least one domain fails (with --strict: or warns; with --fail-on, what it names)
          2  usage error; a report cannot be read or does not fit with the others, or another run holds
             the reports folder (nothing is written);
             a shard is missing or was interrupted (the report is written, incomplete); the shards
             reported input errors; the reports could not be written
          130, 143  stopped by SIGINT or SIGTERM (nothing written, or the reports finished first)
        """
}
