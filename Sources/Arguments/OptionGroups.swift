import Reporting

/// How to reach the servers: `--connect-to`, `--resolve`, `--cacert`, `--timeout`,
/// `--connect-timeout`. Taken by the audit and `match`, declared and checked here once.
public struct NetworkOptions: Equatable, Sendable {
    public var connectTo: [String] = []
    public var resolve: [String] = []
    public var caFile: String?
    /// Seconds allowed for each transfer.
    public var timeout = 10.0
    /// Seconds allowed to connect, TLS included.
    public var connectTimeout = 5.0

    /// The defaults.
    public init() {}

    /// Reads option `name` (just read from `cursor`) when it is one of this group's; false when it is not.
    public mutating func parse(_ name: String, from cursor: inout ArgumentCursor) throws(UsageError) -> Bool {
        switch name {
        case "--connect-to": connectTo.append(try OptionValue.connectTo(try cursor.value(for: name)))
        case "--resolve": resolve.append(try OptionValue.resolve(try cursor.value(for: name)))
        case "--cacert": caFile = try cursor.value(for: name)
        case "--timeout": timeout = try OptionValue.seconds(try cursor.value(for: name), name)
        case "--connect-timeout": connectTimeout = try OptionValue.seconds(try cursor.value(for: name), name)
        default: return false
        }
        return true
    }
}

/// Where and how reports are written and the run judged: `--out`, `--format`, `--strict`,
/// `--quiet`, `--baseline`, `--no-baseline`, `--history`, `--no-history`. Taken by the audit and `merge`, declared and checked here once.
public struct ReportOptions: Equatable, Sendable {
    /// `-o`, `--out DIR`; nil: a new `reports/<UTC time>` folder.
    public var outDirectory: String?
    public var formats = ReportFormat.defaults
    /// `--strict`: warnings fail the run (exit 1) and are JUnit failures.
    public var strict = false
    /// `-q`, `--quiet`: no progress line and no summary; only problems, on stderr.
    public var quiet = false
    /// `--baseline FILE`: the report to compare with; nil for the default (the previous `reports/latest`).
    public var baselineFile: String?
    /// `--no-baseline`: compare with nothing.
    public var noBaseline = false
    /// `--history FILE`: the history database to read and record the run in; nil for the default
    /// (`reports/history.sqlite` when the reports go to the store, none with `--out`).
    public var historyFile: String?
    /// `--no-history`: neither read nor record a history.
    public var noHistory = false

    /// The defaults.
    public init() {}

    /// Reads option `name` (just read from `cursor`) when it is one of this group's; false when it is not.
    public mutating func parse(_ name: String, from cursor: inout ArgumentCursor) throws(UsageError) -> Bool {
        switch name {
        case "-o", "--out": outDirectory = try cursor.value(for: name)
        case "--format": formats = try OptionValue.formats(try cursor.value(for: name))
        case "--strict": strict = true
        case "-q", "--quiet": quiet = true
        case "--baseline": baselineFile = try cursor.value(for: name)
        case "--no-baseline": noBaseline = true
        case "--history": historyFile = try cursor.value(for: name)
        case "--no-history": noHistory = true
        default: return false
        }
        return true
    }

    /// Checks what only the whole command line can tell: `--baseline` with `--no-baseline`.
    public func validate() throws(UsageError) {
        if let file = baselineFile, noBaseline {
            throw .invalidValue("--baseline", file, "--no-baseline contradicts it; give one or the other")
        }
        if let file = historyFile, noHistory {
            throw .invalidValue("--history", file, "--no-history contradicts it; give one or the other")
        }
    }
}
