import Audit
import Fetching
import Foundation

/// Everything the command line says, validated. Parsing only splits and throws; it never prints.
struct CommandLineOptions: Equatable {
    static let version = "0.1.0"
    static let defaultUserAgent = "aasa-audit/\(version) (apple-app-site-association auditor)"
    static let supportedFormats = ["json", "html", "md", "junit"]
    static let defaultAppleCDNBase = AppleCDN.defaultBase
    static let crawlerUserAgent = AppleCDN.crawlerUserAgent

    var domains: [String] = []
    var domainsFile = "domains.txt"
    var domainsFileGiven = false
    var outDirectory: String?
    var formats = ["json", "html"]
    var concurrency = 32
    var timeout = 10.0
    var connectTimeout = 5.0
    var maxBytes = 1 << 20
    var connectTo: [String] = []
    var resolve: [String] = []
    var caFile: String?
    var userAgent = defaultUserAgent
    /// Where Apple's CDN copy is fetched from (the domain is appended); `--apple-cdn`.
    var appleCDNBase = defaultAppleCDNBase
    /// `--no-cdn`: the CDN copy is not fetched (wins over `--apple-cdn`).
    var noCDN = false
    /// The CDN base in force, or nil when the CDN is not asked.
    var effectiveAppleCDNBase: String? { noCDN ? nil : appleCDNBase }
    var expiryWarningDays = 30
    var showHelp = false
    var showVersion = false
    var listFindings = false
    // Reports and terminal (issue 4).
    /// `--baseline FILE`: the report to compare with; nil for the default (the previous `reports/latest`).
    var baselineFile: String?
    /// `--no-baseline`: compare with nothing.
    var noBaseline = false
    /// `--json`: the JSON report on stdout, everything else on stderr.
    var jsonToStdout = false
    /// `--strict`: warnings fail the run (exit 1) and are JUnit failures.
    var strict = false
    /// `--quiet`: no progress line and no summary; only problems, on stderr.
    var quiet = false
    /// `--keep N`: keep the N newest `reports/<UTC time>` folders, delete older ones.
    var keep: Int?
    /// `--max-per-host`: transfers in flight at once to one server (see FetchOptions.maxPerHost).
    var maxPerHost = 6
    /// `--shard K/N`: audit only the domains whose hash falls in shard K of N.
    var shard: Shard?

    /// Parses `arguments` (without the program name).
    static func parse(_ arguments: [String]) throws(UsageError) -> CommandLineOptions {
        var options = CommandLineOptions()
        var cursor = ArgumentCursor(arguments)
        while let argument = try cursor.next() {
            let name: String
            switch argument {
            case .positional(let domain):
                options.domains.append(domain)
                continue
            case .option(let option):
                name = option
            }
            func take() throws(UsageError) -> String { try cursor.value(for: name) }
            switch name {
            case "-h", "--help": options.showHelp = true
            case "--version": options.showVersion = true
            case "--list-findings": options.listFindings = true
            case "--domains":
                options.domainsFile = try take()
                options.domainsFileGiven = true
            case "-o", "--out": options.outDirectory = try take()
            case "--format": options.formats = try parseFormats(try take())
            case "--concurrency": options.concurrency = try integer(try take(), name, in: 1...1024)
            case "--timeout": options.timeout = try seconds(try take(), name)
            case "--connect-timeout": options.connectTimeout = try seconds(try take(), name)
            case "--max-bytes":
                options.maxBytes = try integer(try take(), name, in: 131_073...(1 << 30),
                                               why: "it must exceed Apple's 128 KB limit (131,072 bytes) so an oversized file can be told apart")
            case "--connect-to": options.connectTo.append(try connectTo(try take()))
            case "--resolve": options.resolve.append(try resolve(try take()))
            case "--cacert": options.caFile = try take()
            case "--user-agent", "-A": options.userAgent = try take()
            case "--no-cdn": options.noCDN = true
            case "--apple-cdn": options.appleCDNBase = try appleCDN(try take())
            case "--expiry-warning-days": options.expiryWarningDays = try integer(try take(), name, in: 0...3650)
            case "--baseline": options.baselineFile = try take()
            case "--no-baseline": options.noBaseline = true
            case "--json": options.jsonToStdout = true
            case "--strict": options.strict = true
            case "-q", "--quiet": options.quiet = true
            case "--keep": options.keep = try integer(try take(), name, in: 1...100_000)
            case "--max-per-host": options.maxPerHost = try integer(try take(), name, in: 0...1024)
            case "--shard": options.shard = try shard(try take())
            default: throw .unknownOption(name)
            }
        }
        if let file = options.baselineFile, options.noBaseline {
            throw .invalidValue("--baseline", file, "--no-baseline contradicts it; give one or the other")
        }
        if let keep = options.keep, options.outDirectory != nil {
            throw .invalidValue("--keep", "\(keep)", "it prunes reports/<UTC time> folders, which are not written with --out")
        }
        return options
    }

    static func parseFormats(_ text: String) throws(UsageError) -> [String] {
        let formats = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard !formats.isEmpty else { throw .invalidValue("--format", text, "name at least one of \(supportedFormats.joined(separator: ", "))") }
        for format in formats where !supportedFormats.contains(format) {
            throw .invalidValue("--format", text, "\"\(format)\" is not a format; choose from \(supportedFormats.joined(separator: ", "))")
        }
        return formats
    }

    static func integer(_ text: String, _ name: String, in range: ClosedRange<Int>, why: String? = nil) throws(UsageError) -> Int {
        guard let number = Int(text) else { throw .invalidValue(name, text, "expected a whole number") }
        guard range.contains(number) else {
            throw .invalidValue(name, text, "expected \(range.lowerBound) to \(range.upperBound)" + (why.map { "; \($0)" } ?? ""))
        }
        return number
    }

    static func seconds(_ text: String, _ name: String) throws(UsageError) -> Double {
        guard let number = Double(text), number > 0, number <= 600 else {
            throw .invalidValue(name, text, "expected seconds, more than 0 and at most 600 (e.g. 2.5)")
        }
        return number
    }

    /// `K/N` with 1 ≤ K ≤ N.
    static func shard(_ text: String) throws(UsageError) -> Shard {
        do {
            return try Shard(parsing: text)
        } catch {
            throw .invalidValue("--shard", text, error.description)
        }
    }

    /// An https:// base URL ending with "/", to which the domain is appended.
    static func appleCDN(_ text: String) throws(UsageError) -> String {
        let example = "expected an https:// URL ending with \"/\", e.g. \(defaultAppleCDNBase)"
        guard let url = URLComponents(string: text), url.scheme?.lowercased() == "https",
              let host = url.host, !host.isEmpty else { throw .invalidValue("--apple-cdn", text, example) }
        guard url.query == nil, url.fragment == nil, text.hasSuffix("/") else {
            throw .invalidValue("--apple-cdn", text, example + " (the domain is appended to it)")
        }
        return text
    }

    /// curl's `HOST:PORT:CONNECT_HOST:CONNECT_PORT` (HOST and PORT may be empty: any; brackets for IPv6).
    static func connectTo(_ text: String) throws(UsageError) -> String {
        let fields = FetchOptions.splitHostFields(text)
        guard fields.count == 4 else {
            throw .invalidValue("--connect-to", text, "expected HOST:PORT:CONNECT_HOST:CONNECT_PORT, e.g. example.com:443:staging.example.net:443 (empty HOST or PORT means any)")
        }
        for port in [fields[1], fields[3]] where !port.isEmpty && !(Int(port).map { (1...65535).contains($0) } ?? false) {
            throw .invalidValue("--connect-to", text, "\"\(port)\" is not a port number")
        }
        return text
    }

    /// curl's `HOST:PORT:ADDR[,ADDR]...`.
    static func resolve(_ text: String) throws(UsageError) -> String {
        let fields = FetchOptions.splitHostFields(text)
        guard fields.count == 3, !fields[0].isEmpty, !fields[2].isEmpty,
              Int(fields[1]).map({ (1...65535).contains($0) }) ?? false else {
            throw .invalidValue("--resolve", text, "expected HOST:PORT:ADDRESS, e.g. example.com:443:203.0.113.7")
        }
        return text
    }

    static let help = """
        USAGE: aasa-audit [options] [DOMAIN ...]
               aasa-audit validate [--json] FILE... | -    (check local files; see validate --help)
               aasa-audit match [--app APPID] [--json] (DOMAIN | --file FILE) URL...
                                                          (which app a URL opens; see match --help)
               aasa-audit merge REPORT.json... [--out DIR] [--format LIST]   (combine --shard reports;
                                                          see merge --help)

        Audits the apple-app-site-association (AASA) file of each domain the way Apple fetches it:
        https://DOMAIN/.well-known/apple-app-site-association first, https://DOMAIN/apple-app-site-association
        as the fallback. Checks TLS, redirects (Apple follows none), status, Content-Type, size (128 KB
        uncompressed) and that the body is a JSON object, then writes reports. Also fetches the file with
        Apple's crawler User-Agent (\(crawlerUserAgent)) to catch bot rules that block it, and compares
        the copy on Apple's CDN (what iOS 14+ devices read) with the origin's.

        With no DOMAIN arguments, the domains are read from --domains (default ./domains.txt): one per line,
        '#' comments and blank lines ignored; URLs are reduced to their host. Words after a domain are
        expectations checked against the file Apple would use (a broken one is an expect.* error):
        app=APPID, opens=/path, stays=/path, webcredentials=APPID, appclip=APPID (see README).

        OPTIONS:
          --domains FILE            Domain list to read when no DOMAIN is given (default: domains.txt).
          -o, --out DIR             Write the reports into DIR. Without it: reports/<UTC time>/, and
                                    reports/latest points at the newest complete run.
          --format LIST             Report formats, comma-separated: json, html, md, junit (default:
                                    json,html). md: report.md for a ticket; junit: report.junit.xml for CI.
          --concurrency N           Transfers in flight at once (default: 32).
          --timeout SECONDS         Time allowed for each transfer (default: 10).
          --connect-timeout SECONDS Time allowed to connect, TLS included (default: 5).
          --max-bytes N             Stop reading a body after N decoded bytes (default: 1048576);
                                    must exceed 131072.
          --connect-to H:P:CH:CP    Connect to CH:CP instead of H:P, keeping the name for TLS and Host
                                    (curl's syntax; repeatable; empty H or P means any). Audit a staging
                                    server before DNS moves.
          --resolve H:P:ADDR        Use ADDR for host H, port P (curl's syntax; repeatable).
          --cacert FILE             Trust the CA certificates in FILE (PEM) instead of the system store.
          -A, --user-agent TEXT     User-Agent to send (default: \(defaultUserAgent)).
                                    The file is fetched again as \(crawlerUserAgent) either way.
          --no-cdn                  Do not fetch Apple's CDN copy.
          --apple-cdn URL           Base URL of Apple's CDN; the domain is appended (default:
                                    \(defaultAppleCDNBase)). Must be https:// and end
                                    with "/". --connect-to and --resolve apply to its host too.
          --expiry-warning-days N   Warn when a certificate expires within N days (default: 30).
          --baseline FILE           Compare with this earlier report.json: every report then says which
                                    domains started or stopped failing, which findings appeared or went
                                    away, which certificates crossed the expiry warning. Default, without
                                    --out: the previous reports/latest/report.json, when there is one.
          --no-baseline             Compare with nothing.
          --json                    Print the JSON report on stdout and nothing else there (the summary
                                    and messages go to stderr), e.g. for jq. Report files are still written.
          --strict                  Warnings fail the run too (exit 1), and are failures in JUnit.
          -q, --quiet               No progress line and no summary; only problems, on stderr.
          --keep N                  Keep the N newest reports/<UTC time> folders and delete older ones
                                    (never the one reports/latest points to, never other folders).
          --max-per-host N          Transfers in flight at once to one server (default: 6; 0: no
                                    limit). The server is the host:port connected to: with --connect-to,
                                    every name routed to one server shares it; Apple's CDN is one server.
          --shard K/N               Audit only shard K of N (1-based): a stable subset chosen by a hash
                                    of each domain, so shards do not move when the list grows. Combine
                                    the shard reports with aasa-audit merge (see docs/scaling.md).
          --list-findings           Print every finding id with its severity, meaning and fix (Markdown).
          -h, --help                Show this help.
          --version                 Show the version.

        EXIT STATUS:
          0  no domain fails (warnings allowed, unless --strict)
          1  at least one domain fails: Apple would not get a valid file from it, or its file breaks an
             expectation written in the domain list (with --strict: or warns)
          2  usage error, or input error (a line of the domain list is not a domain; the others
             are still audited; a list over 16 MiB or binary is refused), or the reports could
             not be written
          130, 143  stopped by SIGINT (Ctrl-C) or SIGTERM: what was finished is written as a report
             marked "complete": false, and reports/latest is not moved

        EXAMPLES:
          aasa-audit example.com
          aasa-audit --domains domains.txt --out /var/reports/aasa
          aasa-audit --no-cdn --connect-to example.com:443:staging.example.net:443 example.com
          aasa-audit --json example.com | jq '.domains[] | {domain, verdict}'
          aasa-audit --quiet --keep 30 --format json,html,md,junit     (nightly, from cron)
        """
}

/// A command line that cannot be run; each case has what is needed to explain it.
enum UsageError: Error, Equatable, CustomStringConvertible {
    case unknownOption(String)
    case missingValue(String)
    case invalidValue(String, String, String)

    var description: String {
        switch self {
        case .unknownOption(let option): return "unknown option \(option) (see --help)"
        case .missingValue(let option): return option == "validate" ? "validate needs at least one FILE, or - for standard input (see validate --help)" : "\(option) needs a value (see --help)"
        case .invalidValue(let option, let value, let reason): return "\(option) \"\(value)\": \(reason)"
        }
    }
}
