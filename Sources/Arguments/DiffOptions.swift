/// `aasa-audit diff [OPTIONS] OLD NEW`.
public struct DiffOptions: CommandOptions, Equatable, Sendable {
    public static let name = "diff"
    public static let summary = "say what changed between two versions of a file, and which URLs it changes"

    /// The old version: a file, "-" or a domain.
    public var old: String
    /// The new version.
    public var new: String
    /// `--urls FILE`: the URLs to decide, one per line.
    public var urlsFile: String?
    /// `--json`: the comparison as one JSON object.
    public var json = false
    /// `--connect-to`, `--resolve`, `--cacert`, `--timeout`, `--connect-timeout`, `--proxy`, `--noproxy`, for a domain.
    public var network = NetworkOptions()
    /// For a domain, where Apple's CDN copy is fetched from (`--apple-cdn`); nil with `--no-cdn`, which wins.
    public var appleCDNBase: String? = AuditOptions.defaultAppleCDNBase

    public init(old: String, new: String, urlsFile: String? = nil, json: Bool = false, network: NetworkOptions = NetworkOptions(),
                appleCDNBase: String? = AuditOptions.defaultAppleCDNBase) {
        self.old = old
        self.new = new
        self.urlsFile = urlsFile
        self.json = json
        self.network = network
        self.appleCDNBase = appleCDNBase
    }

    /// The command line of `diff` as given, before it is checked as a whole.
    public struct RawLine: Sendable {
        var urlsFile: String?, json = false
        var network = NetworkOptions()
        var appleCDNBase = AuditOptions.defaultAppleCDNBase, noCDN = false
        var positional: [String] = []
    }

    /// Every option of `diff`, declared once.
    public static let table = OptionTable<RawLine>([
        .value("--urls", valueName: "FILE", kind: .file,
               help: "Decide these URLs (one per line: a path or an http(s) URL; blank lines and lines starting with # skipped) instead of one sample URL per rule.") {
            $0.urlsFile = $1.value
        },
        .flag("--json", help: "Print one JSON object: changes (kind, subject, pointer, summary), urlsDecided, sampled, decisionChanges (url, and the old and new decisions as match --json gives them).") {
            $0.json = true
        },
        .flag("--no-cdn", help: "With a DOMAIN: do not fetch Apple's CDN copy; the domain's version is then the origin's file, if devices get it (its answer to Apple's crawler decides).") {
            $0.noCDN = true
        },
        .value("--apple-cdn", valueName: "URL", defaultValue: AuditOptions.defaultAppleCDNBase,
               help: "Base URL of Apple's CDN, as for the audit; the domain is appended. Must be https:// and end with \"/\".") {
            $0.appleCDNBase = try OptionValue.appleCDN($1.value)
        },
    ] + NetworkOptions.options.map { $0.lifted(\RawLine.network) })
    public static var optionSpecs: [OptionSpec] { table.specs }
    /// Files or domains.
    public static let operands = ValueKind.file

    /// Parses the arguments after `diff`.
    public static func parse(_ arguments: [String]) throws(UsageError) -> Invocation<DiffOptions> {
        var line = RawLine()
        if try table.parse(arguments, into: &line, operand: { line, text in line.positional.append(text) }) { return .help }
        let positional = line.positional
        guard positional.count == 2 else {
            throw .missingArgument(positional.count < 2 ? "diff needs OLD and NEW: two files (- for standard input) or domains (see diff --help)"
                                   : "diff compares two versions; \(positional.count) were given (see diff --help)")
        }
        if positional[0] == "-" && positional[1] == "-" || line.urlsFile == "-" && positional.contains("-") {
            throw .missingArgument("standard input (-) can be read once: give at most one of OLD, NEW and --urls as -")
        }
        return .run(DiffOptions(old: positional[0], new: positional[1], urlsFile: line.urlsFile, json: line.json, network: line.network,
                                appleCDNBase: line.noCDN ? nil : line.appleCDNBase))
    }

    public static let help = """
        USAGE: aasa-audit diff [OPTIONS] OLD NEW

        Compares two versions of an apple-app-site-association file and says what changed, in the order
        Apple reads the file: the services, the apps, applinks' defaults and substitution variables,
        then each details entry (paired by the apps it lists) and its rules (added, removed or moved).
        Then it decides URLs with both versions, with Apple's matching rules (see aasa-audit match), and
        lists each URL whose decision changes: "/buy/42 opened ABQ7KM3X2P.com.exemplo.app, now stays in
        the browser". The URLs are those of --urls FILE, or else one sample URL per rule of either
        version, written from its pattern (* and ? as x, a variable as its first value). URLs are
        decided on any host. OLD and NEW are each a file ("-" for standard input), or a DOMAIN, fetched
        as match fetches it (the origin's two locations, Apple's crawler and Apple's CDN, unless
        --no-cdn): its version is the file a device gets, Apple's CDN copy, or the origin's file Apple
        uses when the CDN is not asked or not reached; a domain whose devices get no file (no CDN copy,
        the crawler refused) is refused. An argument with a "/", ending in .json or naming an existing
        file is a file.

        OPTIONS:
        \(table.helpLines())

        EXIT STATUS:
          0  no decision changes (the files may still differ)
          1  at least one URL's decision changes
          2  usage error; a version cannot be read, is not a JSON object or is one Apple would not read
             (over 128 KB, say); a DOMAIN serves no file Apple can read; a URL of --urls is neither an
             http(s) URL nor a path
        """
}
