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

    /// Parses the arguments after `history`.
    public static func parse(_ arguments: [String]) throws(UsageError) -> Invocation<HistoryOptions> {
        var options = HistoryOptions()
        var cursor = ArgumentCursor(arguments)
        var positionals: [String] = []
        var olderThan: Int?
        while let argument = try cursor.next() {
            switch argument {
            case .positional(let value): positionals.append(value)
            case .option("--json"): options.json = true
            case .option("--history"): options.file = try cursor.value(for: "--history")
            case .option("--since"): options.since = try date(try cursor.value(for: "--since"))
            case .option("--older-than"):
                olderThan = try OptionValue.integer(try cursor.value(for: "--older-than"), "--older-than", in: 0...36_500)
            case .option("-h"), .option("--help"): return .help
            case .option(let name): throw .unknownOption(name)
            }
        }
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
          --history FILE      The history database (default: reports/history.sqlite).
          --json              Print the answer as JSON on stdout.
          --since DATE        Only runs from DATE on: a day (2026-11-01, UTC) or a time
                              (2026-11-01T02:00:00Z).
          --older-than DAYS   prune: delete the runs older than DAYS days.
          -h, --help          Show this help.

        EXIT STATUS:
          0  done (a domain with no recorded run is said on stderr and is no error)
          2  usage error; the history cannot be opened or is not a history database; a report to
             import cannot be read (the others are imported)
        """
}
