import Fetching
import Reporting

/// How to reach the servers: `--connect-to`, `--resolve`, `--cacert`, `--timeout`,
/// `--connect-timeout`, `--proxy`, `--noproxy`. Taken by the audit and `match`, declared and checked here once.
public struct NetworkOptions: Equatable, Sendable {
    public var connectTo: [String] = []
    public var resolve: [String] = []
    public var caFile: String?
    /// Seconds allowed for each transfer.
    public var timeout = 10.0
    /// Seconds allowed to connect, TLS included.
    public var connectTimeout = 5.0
    /// `--proxy URL`: every transfer through this proxy ("" for none), whatever the variables say;
    /// nil: the variables decide (`ProxyRoute`).
    public var proxy: String?
    /// `--noproxy LIST`: the hosts reached without the proxy, instead of `no_proxy`.
    public var noProxy: String?

    /// The defaults.
    public init() {}

    /// The proxy route these options and `environment` (the process's variables) ask for, as libcurl
    /// would choose it.
    public func proxyRoute(environment: [String: String]) -> ProxyRoute {
        ProxyRoute(proxy: proxy, noProxy: noProxy, environment: environment)
    }

    /// The group's options, to include in a subcommand's table with `lifted`.
    public static let options: [DeclaredOption<NetworkOptions>] = [
        .value("--timeout", valueName: "SECONDS", defaultValue: "10", help: "Time allowed for each transfer.") {
            $0.timeout = try OptionValue.seconds($1.value, $1.name)
        },
        .value("--connect-timeout", valueName: "SECONDS", defaultValue: "5", help: "Time allowed to connect, TLS included.") {
            $0.connectTimeout = try OptionValue.seconds($1.value, $1.name)
        },
        .value("--connect-to", valueName: "H:P:CH:CP", repeatable: true,
               help: "Connect to CH:CP instead of H:P, keeping the name for TLS and Host (curl's syntax; repeatable; empty H or P means any). Audit a staging server before DNS moves.") {
            $0.connectTo.append(try OptionValue.connectTo($1.value))
        },
        .value("--resolve", valueName: "H:P:ADDR[,ADDR]...", repeatable: true,
               help: "Use these addresses for host H, port P (curl's syntax; repeatable; IPv6 bare or in brackets, e.g. example.com:443:203.0.113.7,2001:db8::7).") {
            $0.resolve.append(try OptionValue.resolve($1.value))
        },
        .value("--cacert", valueName: "FILE", kind: .file,
               help: "Trust the CA certificates in FILE (PEM) instead of the system store (Apple's own CDN is still checked against the system store).") {
            $0.caFile = $1.value
        },
        .value("--proxy", valueName: "URL",
               help: "Send every transfer through this proxy ([SCHEME://][USER:PASSWORD@]HOST[:PORT], curl's syntax; \"\" for none), instead of https_proxy, all_proxy and the like. Shown without its credentials.") {
            $0.proxy = try OptionValue.proxy($1.value)
        },
        .value("--noproxy", valueName: "LIST",
               help: "Reach these hosts without the proxy (curl's syntax: comma-separated names, each with every name under it, IP addresses or networks; * for all), instead of no_proxy.") {
            $0.noProxy = $1.value
        },
    ]
}

/// Where and how reports are written and the run judged: `--out`, `--format`, `--strict`,
/// `--quiet`, `--baseline`, `--no-baseline`, `--history`, `--no-history`, `--prom-file`. Taken by the audit and
/// `merge`, declared and checked here once; each gives its own help text (`options(_:)`).
public struct ReportOptions: Equatable, Sendable {
    /// `-o`, `--out DIR`; nil: a new `reports/<UTC time>` folder.
    public var outDirectory: String?
    public var formats = ReportFormat.defaults
    /// `--strict`: warnings fail the run (exit 1) and are JUnit failures.
    public var strict = false
    /// `-q`, `--quiet`: no progress line and no summary; only problems, on stderr.
    public var quiet = false
    /// `--wait SECONDS`: how long to wait for another run's lock on the reports folder (0: not at all).
    public var lockWait = 0
    /// `--baseline FILE`: the report to compare with; nil for the default (the previous `reports/latest`).
    public var baselineFile: String?
    /// `--no-baseline`: compare with nothing.
    public var noBaseline = false
    /// `--history FILE`: the history database to read and record the run in; nil for the default
    /// (`reports/history.sqlite` when the reports go to the store, none with `--out`).
    public var historyFile: String?
    /// `--no-history`: neither read nor record a history.
    public var noHistory = false
    /// `--prom-file PATH`: the metrics also written there (for node_exporter's textfile collector).
    public var promFile: String?

    /// The defaults.
    public init() {}

    /// The help of each of the group's options, as the subcommand including them says it (the
    /// audit and merge mean the same options on different runs).
    public struct HelpTexts: Sendable {
        public var out, format, baseline, noBaseline, history, noHistory, strict, quiet: String
    }

    /// Every format `--format` takes and the files they write, for the help.
    public static var formatList: String {
        ReportFormat.allCases.map(\.name).joined(separator: ", ")
            + " (written to " + ReportFormat.allCases.map(\.fileName).joined(separator: ", ") + ")"
    }

    /// The group's options with `help`, to include in a subcommand's table with `lifted`.
    public static func options(_ help: HelpTexts) -> [DeclaredOption<ReportOptions>] {
        let formats = ReportFormat.allCases.map(\.name)
        return [
            .value("-o", "--out", valueName: "DIR", kind: .directory, help: help.out) { $0.outDirectory = $1.value },
            .value("--format", valueName: "LIST", kind: .choiceList(formats),
                   defaultValue: ReportFormat.defaults.map(\.name).joined(separator: ","), help: help.format) {
                $0.formats = try OptionValue.formats($1.value)
            },
            .value("--baseline", valueName: "FILE", kind: .file, help: help.baseline) { $0.baselineFile = $1.value },
            .flag("--no-baseline", help: help.noBaseline) { $0.noBaseline = true },
            .value("--history", valueName: "FILE", kind: .file, help: help.history) { $0.historyFile = $1.value },
            .flag("--no-history", help: help.noHistory) { $0.noHistory = true },
            .value("--prom-file", valueName: "PATH", kind: .file,
                   help: "Also write the metrics (as --format prom's report.prom) to PATH, atomically, for node_exporter's textfile collector (a regular file or a new name; docs/monitoring.md).") {
                $0.promFile = $1.value
            },
            .flag("--strict", help: help.strict) { $0.strict = true },
            .flag("-q", "--quiet", help: help.quiet) { $0.quiet = true },
            .value("--wait", valueName: "SECONDS", defaultValue: "0",
                   help: "One run at a time writes to a reports folder (the reports root, or --out DIR): while another holds it, wait up to SECONDS for it to end (default: do not wait; exit 2 naming the other run's process, start and host).") {
                $0.lockWait = try OptionValue.integer($1.value, $1.name, in: 0...86_400)
            },
        ]
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
