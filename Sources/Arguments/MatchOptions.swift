/// `aasa-audit match [OPTIONS] (DOMAIN | --file FILE) URL...`.
public struct MatchOptions: CommandOptions, Equatable, Sendable {
    public static let name = "match"
    public static let summary = "say which app, if any, a URL opens, and which rule decides"

    /// Where the document comes from.
    public enum Source: Equatable, Sendable {
        /// `--file FILE` ("-" for standard input).
        case file(String)
        /// DOMAIN: the file Apple would use, fetched.
        case domain(String)
        /// `--entitlements FILE [--app-id ID]`: the app's applinks entries pick the file for each URL.
        case entitlements(String, appID: String?)
    }

    public var source: Source
    /// The URLs (or paths) to decide.
    public var urls: [String]
    /// `--host`: with `--file`, the host the file is served from.
    public var host: String?
    /// `--app APPID`.
    public var appID: String?
    /// `--json`: one JSON object per URL.
    public var json = false
    /// `--connect-to`, `--resolve`, `--cacert`, `--timeout`, `--connect-timeout`, as for the audit.
    public var network = NetworkOptions()
    /// Where Apple's CDN copy is fetched from (`--apple-cdn`); nil with `--no-cdn`, which wins.
    public var appleCDNBase: String? = AuditOptions.defaultAppleCDNBase

    /// Options for `source` and `urls`; the rest as given.
    public init(source: Source, urls: [String], host: String? = nil, appID: String? = nil, json: Bool = false,
                network: NetworkOptions = NetworkOptions(), appleCDNBase: String? = AuditOptions.defaultAppleCDNBase) {
        self.source = source
        self.urls = urls
        self.host = host
        self.appID = appID
        self.json = json
        self.network = network
        self.appleCDNBase = appleCDNBase
    }

    /// The command line of `match` as given, before it is checked as a whole.
    public struct RawLine: Sendable {
        var file: String?, host: String?, appID: String?, json = false
        var entitlements: String?, entitlementsAppID: String?
        var network = NetworkOptions()
        var appleCDNBase = AuditOptions.defaultAppleCDNBase, noCDN = false
        var positional: [String] = []
    }

    /// Every option of `match`, declared once.
    public static let table = OptionTable<RawLine>([
        .value("--file", valueName: "FILE", kind: .file,
               help: "Decide against this file (\"-\" for standard input) instead of fetching.") { $0.file = $1.value },
        .value("--host", valueName: "HOST", help: "With --file: the host the file is served from (default: any host).") { $0.host = $1.value },
        .value("--app", valueName: "APPID", help: "Decide for this app (team ID + \".\" + bundle ID).") { $0.appID = $1.value },
        .value("--entitlements", valueName: "FILE", kind: .file,
               help: "Decide for the app of these entitlements (.entitlements, .xcent, .app, Mach-O executable, .ipa): for each URL, the applinks entry covering its host (exact first, then the longest *. wildcard, which covers subdomains only), the file Apple reads for it (the parent's for a wildcard; /.well-known/ only for ?mode=) and the decision for the app. A URL no entry covers stays in the browser.") {
            $0.entitlements = $1.value
        },
        .value("--app-id", valueName: "TEAMID.BUNDLE",
               help: "With --entitlements: the app ID, when the file holds none or only Xcode variables.") {
            guard $0.entitlements != nil else {
                throw UsageError.invalidValue($1.name, $1.value, "it gives the app ID of the --entitlements FILE before it; name the file first")
            }
            $0.entitlementsAppID = $1.value
        },
        .flag("--json", help: "One JSON object per URL, one per line: url, decision (match, exclude, no_match), appIDs (every app that gets the link), appID, rule (details, kind, index, pointer, text), reason.") {
            $0.json = true
        },
        .flag("--no-cdn", help: "With DOMAIN or --entitlements: do not fetch Apple's CDN copy; devices are then judged by the origin's file and what it answers Apple's crawler.") {
            $0.noCDN = true
        },
        .value("--apple-cdn", valueName: "URL", defaultValue: AuditOptions.defaultAppleCDNBase,
               help: "Base URL of Apple's CDN, as for the audit; the domain is appended. Must be https:// and end with \"/\".") {
            $0.appleCDNBase = try OptionValue.appleCDN($1.value)
        },
    ] + NetworkOptions.options.map { $0.lifted(\RawLine.network) })
    public static var optionSpecs: [OptionSpec] { table.specs }
    /// A domain, then URLs or paths.
    public static let operands = ValueKind.text

    /// Parses the arguments after `match`.
    public static func parse(_ arguments: [String]) throws(UsageError) -> Invocation<MatchOptions> {
        var line = RawLine()
        if try table.parse(arguments, into: &line, operand: { line, text in line.positional.append(text) }) { return .help }
        var positional = line.positional
        let source: Source
        if let entitlements = line.entitlements {
            if let file = line.file { throw .invalidValue("--file", file, "not with --entitlements, whose entries pick each URL's file") }
            if let host = line.host { throw .invalidValue("--host", host, "not with --entitlements: each URL's host picks the entry") }
            if let appID = line.appID { throw .invalidValue("--app", appID, "not with --entitlements: the app is the entitlements' (use --app-id for its ID)") }
            source = .entitlements(entitlements, appID: line.entitlementsAppID)
        } else if let file = line.file {
            source = .file(file)
        } else {
            guard let domain = positional.first else {
                throw .missingArgument("name a DOMAIN or --file FILE, then at least one URL (see match --help)")
            }
            positional.removeFirst()
            if let host = line.host { throw .invalidValue("--host", host, "only with --file; with DOMAIN the host is the domain") }
            source = .domain(domain)
        }
        guard !positional.isEmpty else { throw .missingArgument("give at least one URL or path to decide (see match --help)") }
        return .run(MatchOptions(source: source, urls: positional, host: line.host, appID: line.appID, json: line.json, network: line.network,
                                 appleCDNBase: line.noCDN ? nil : line.appleCDNBase))
    }

    public static let help = """
        USAGE: aasa-audit match [OPTIONS] --file FILE URL...
               aasa-audit match [OPTIONS] DOMAIN URL...
               aasa-audit match [OPTIONS] --entitlements FILE [--app-id ID] URL...

        Says whether each URL opens an app as a universal link, with Apple's matching rules (legacy paths
        and NOT, components with "/", "?", "#" and exclude, first match wins, caseSensitive and
        percentEncoded with their defaults, substitution variables), and which details entry and rule
        decide. With DOMAIN, the domain is fetched as the audit fetches it (Apple's crawler and CDN
        included) and the URLs are decided with what a device gets: Apple's CDN copy, which iOS 14+
        and macOS 11+ read (a stale copy is named when it decides otherwise than the origin's file);
        the file Apple uses at the origin (/.well-known/ first, the root location as a fallback) when
        the CDN is not asked (--no-cdn) or not reached; and no file when the CDN has none or the origin
        refuses Apple's crawler ("would open …, but devices get no file because …"). The file is taken
        even when some of its entries are broken (a note on stderr names its errors). A URL may be a path
        ("/buy/42"): it is taken on DOMAIN (or --host). URLs on another host never match; a Unicode
        host and its punycode form (bücher.example, xn--bcher-kva.example) are the same host.

        OPTIONS:
        \(table.helpLines())

        EXIT STATUS:
          0  every URL opens the app (--app), or some app, on devices
          1  at least one URL stays in the browser (a rule excludes it, or none matches, or devices
             get no file; with --entitlements also: no applinks entry covers its host, or that
             entry's host serves no file Apple can read, which is told and stops no other URL)
          2  usage error; the file cannot be read, is not a JSON object or is one Apple would not read
             (over 128 KB, say); the DOMAIN serves no file Apple can read; a URL is neither an http(s)
             URL nor a path (told on its own line; the other URLs are still decided)
        """
}
