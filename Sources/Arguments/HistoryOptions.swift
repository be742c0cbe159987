import Foundation

/// `aasa-audit history [DOMAIN] [--json] [--since DATE]`, `history import DIR...`,
/// `history prune --older-than DAYS`; each takes `--history FILE`.
public struct HistoryOptions: CommandOptions, Equatable, Sendable {
    public static let name = "history"
    public static let summary = "what changed over time: a domain's timeline, the runs of the list, import and prune"
    /// The file used without `--history`.
    public static let defaultFile = "reports/history.sqlite"

    /// What to do.
    public enum Action: Equatable, Sendable {
        /// The timeline of a domain, or without one the overview of the runs.
        case show(domain: String?)
        /// Load these report folders (or report.json files).
        case importReports([String])
        /// Delete the runs older than this many days.
        case prune(olderThanDays: Int)
    }

    public var action: Action = .show(domain: nil)
    /// `--history FILE`.
    public var file: String = HistoryOptions.defaultFile
    /// `--json`: the answer as JSON on stdout.
    public var json = false
    /// `--since DATE` (YYYY-MM-DD, UTC, or a full ISO 8601 time).
    public var since: Date?

    /// The defaults: the overview of reports/history.sqlite.
    public init() {}

    /// The command line of `history` as given, before it is checked as a whole.
    public struct RawLine: Sendable {
        var options = HistoryOptions()
        var positionals: [String] = []
        var olderThan: Int?
    }

    /// Every option of `history`, declared once.
    public static let table = OptionTable<RawLine>([
        .value("--history", valueName: "FILE", kind: .file, defaultValue: defaultFile, help: "The history database.") {
            $0.options.file = $1.value
        },
        .flag("--json", help: "Print the answer as JSON on stdout.") { $0.options.json = true },
        .value("--since", valueName: "DATE",
               help: "Only runs from DATE on: a day (2026-11-01, UTC) or a time (2026-11-01T02:00:00Z).") {
            $0.options.since = try date($1.value)
        },
        .value("--older-than", valueName: "DAYS", help: "prune: delete the runs older than DAYS days.") {
            $0.olderThan = try OptionValue.integer($1.value, $1.name, in: 0...36_500)
        },
    ])
    public static var optionSpecs: [OptionSpec] { table.specs }
    /// `import`, `prune`, or a domain.
    public static let operands = ValueKind.choices(["import", "prune"])

    /// Parses the arguments after `history`.
    public static func parse(_ arguments: [String]) throws(UsageError) -> Invocation<HistoryOptions> {
        var line = RawLine()
        if try table.parse(arguments, into: &line, operand: { line, value in line.positionals.append(value) }) { return .help }
        var options = line.options
        let positionals = line.positionals, olderThan = line.olderThan
        switch positionals.first {
        case "import":
            guard positionals.count > 1 else {
                throw .missingArgument("history import needs at least one report folder (reports/<UTC time>) or report.json")
            }
            options.action = .importReports(Array(positionals.dropFirst()))
        case "prune":
            guard positionals.count == 1 else { throw .invalidValue("prune", positionals[1], "prune takes no arguments, only --older-than DAYS") }
            guard let olderThan else { throw .missingArgument("history prune needs --older-than DAYS") }
            options.action = .prune(olderThanDays: olderThan)
        default:
            guard positionals.count <= 1 else {
                throw .invalidValue("DOMAIN", positionals[1], "history shows one domain at a time")
            }
            options.action = .show(domain: positionals.first)
        }
        if olderThan != nil, case .prune = options.action {} else if olderThan != nil {
            throw .invalidValue("--older-than", "\(olderThan ?? 0)", "it is prune's: aasa-audit history prune --older-than DAYS")
        }
        return .run(options)
    }

    /// `--since`: a day (2026-11-01, its start in UTC) or an ISO 8601 time.
    static func date(_ text: String) throws(UsageError) -> Date {
        let day = ISO8601DateFormatter()
        day.formatOptions = [.withFullDate]
        if text.count == 10, let date = day.date(from: text) { return date }
        if let date = ISO8601DateFormatter().date(from: text) { return date }
        throw .invalidValue("--since", text, "expected a day (2026-11-01) or a UTC time (2026-11-01T02:00:00Z)")
    }

    public static let help = """
        USAGE: aasa-audit history [DOMAIN] [--json] [--since DATE] [--history FILE]
               aasa-audit history import DIR... [--history FILE]
               aasa-audit history prune --older-than DAYS [--history FILE]

        Every audit and merge records its results in a history database (SQLite, reports/history.sqlite
        by default; see docs/history.md). With DOMAIN: that domain's timeline, one line per run that
        audited it: the verdict, and what changed since the run before (verdict, findings that appeared
        or went away, the certificate). Without DOMAIN: the recorded runs, one line each (when, whole
        list, shard or one-off check, pass/warn/fail).

        import loads reports written before (reports/<UTC time> folders, or report.json files), each
        once: importing the same report again adds nothing. Imported reports count as runs of the
        domain list (a report does not say whether it was a one-off check).
        prune deletes the runs that started more than DAYS days ago.

        OPTIONS:
        \(table.helpLines())

        EXIT STATUS:
          0  done (a domain with no recorded run is said on stderr and is no error)
          2  usage error; the history cannot be opened or is not a history database; a report to
             import cannot be read (the others are imported)
        """
}
