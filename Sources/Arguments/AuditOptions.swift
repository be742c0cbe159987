import Audit
import Fetching
import Foundation
import Reporting

/// Everything the audit's command line says, validated. Parsing only splits and throws; it never prints.
public struct AuditOptions: CommandOptions, Equatable, Sendable {
    public static let name = "audit"
    public static let summary = "audit the AASA file of each domain the way Apple fetches it, and write reports"
    public static let version = "0.1.0"
    public static let defaultUserAgent = "aasa-audit/\(version) (apple-app-site-association auditor)"
    public static let defaultAppleCDNBase = AppleCDN.defaultBase
    public static let crawlerUserAgent = AppleCDN.crawlerUserAgent

    /// DOMAIN arguments; empty: the domain list file is read.
    public var domains: [String] = []
    public var domainsFile = "domains.txt"
    /// Whether `--domains` named the file (the error for a missing default file says how to start).
    public var domainsFileGiven = false
    /// `--connect-to`, `--resolve`, `--cacert`, `--timeout`, `--connect-timeout`.
    public var network = NetworkOptions()
    /// `--out`, `--format`, `--strict`, `--quiet`, `--baseline`, `--no-baseline`.
    public var reports = ReportOptions()
    public var concurrency = 64
    public var maxBytes = 1 << 20
    public var userAgent = defaultUserAgent
    /// Where Apple's CDN copy is fetched from (the domain is appended); `--apple-cdn`.
    public var appleCDNBase = defaultAppleCDNBase
    /// `--no-cdn`: the CDN copy is not fetched (wins over `--apple-cdn`).
    public var noCDN = false
    /// The CDN base in force, or nil when the CDN is not asked.
    public var effectiveAppleCDNBase: String? { noCDN ? nil : appleCDNBase }
    public var expiryWarningDays = 30
    public var showVersion = false
    public var listFindings = false
    /// `--json`: the JSON report on stdout, everything else on stderr.
    public var jsonToStdout = false
    /// `--keep N`: keep the N newest `reports/<UTC time>` folders, delete older ones.
    public var keep: Int?
    /// `--ip-families both|4|6|off`: compare `.well-known` over both address families (the
    /// default), hold every transfer to one, or neither.
    public var addressFamilies: AddressFamilies = .compare
    /// `--bodies all|failing|none`: which served bodies report.json stores whole (`BodiesPolicy`).
    public var bodies = BodiesPolicy.default
    /// `--max-per-host`: transfers in flight at once to one host name (see FetchOptions.maxPerHost).
    public var maxPerHost = 6
    /// `--shard K/N`: audit only the domains whose hash falls in shard K of N.
    public var shard: Shard?
    /// `--details`: the summary lists every error and warning with its fix, whatever the number of
    /// domains (without it, only for runs of at most `ConsoleSummary.detailLimit` domains).
    public var details = false
    /// `--fail-on any|new|expiring[,...]`: what fails the run (see `ExitPolicy.failingDomains` and
    /// `ExitPolicy.expiringPositions`).
    public var failOn = FailOnList.any
    /// `--android`: also audit each domain's Android `/.well-known/assetlinks.json`.
    public var android = false
    /// `--google-dal`: ask Google's Digital Asset Links API for each domain audited for Android.
    public var googleDAL = false
    /// `--google-dal-base URL`: where that API is (no trailing "/").
    public var googleDALBase = GoogleDAL.defaultBase
    /// `--entitlements FILE [--app-id TEAMID.bundle.id]`, repeatable: apps whose Associated Domains
    /// entries are audited; each `--app-id` belongs to the nearest `--entitlements` before it.
    public var entitlements: [EntitlementsInput] = []
    /// `--apk FILE`, repeatable: Android apps whose verified App Links hosts are audited.
    public var apks: [String] = []
    /// `--include-development`: the apps' development-only entries are audited too (`AuditSettings.includeDevelopment`).
    public var includeDevelopment = false
    /// `--sha256 FP`, repeatable: signing-key fingerprints every `--apk` app must also be listed with
    /// (Play App Signing's app-signing key), canonical form.
    public var androidKeys: [String] = []

    /// The defaults.
    public init() {}

    /// Every option of the audit, declared once: parsing, `--help`, suggestions and completions read it.
    /// Every option of the audit, declared once: parsing, `--help`, suggestions and completions read it.
    public static let table = OptionTable<AuditOptions>(
        inputOptions + reportOptions + limitOptions + NetworkOptions.options.map { $0.lifted(\AuditOptions.network) } + fetchAndRunOptions,
        helpText: "Show this help (also: aasa-audit help).", helpRule: .afterTheLine)

    static let inputOptions: [DeclaredOption<AuditOptions>] = [
            .value("--domains", valueName: "FILE", kind: .file, defaultValue: "domains.txt",
                   help: "Domain list to read when no DOMAIN is given.") {
                $0.domainsFile = $1.value
                $0.domainsFileGiven = true
            },
        ]

    static let reportOptions: [DeclaredOption<AuditOptions>] = ReportOptions.options(ReportOptions.HelpTexts(
            out: "Write the reports into DIR. Without it: reports/<UTC time>/, and reports/latest points at the newest complete run of the domain list that audited a domain. A folder that cannot be written is an error before anything is fetched.",
            format: "Report formats, comma-separated: \(ReportOptions.formatList); md is for a ticket, junit for CI.",
            baseline: "Compare with this earlier report.json: every report then says which domains started or stopped failing, which findings appeared or went away, which certificates crossed the expiry warning. Default, without --out: the previous reports/latest/report.json, when there is one.",
            noBaseline: "Compare with nothing.",
            history: "Record the run in this history database (SQLite) and show what it tells: failing since when, fixed, flapping, expiring certificates, the trend (default, without --out: reports/history.sqlite). A file that cannot be used is a warning; the reports are written anyway.",
            noHistory: "Neither read nor record a history.",
            strict: "Warnings fail the run too (exit 1), and are failures in JUnit.",
            quiet: "No progress line and no summary: on stderr, one line per domain that fails the run (aasa-audit: FAIL domain: main problem), one per app whose own profile fails it, and the problems; a note on the run (a warning, --fail-on new with nothing to compare with, --keep leaving a folder) starts aasa-audit: note:, so the FAIL lines can be kept apart.\nThe progress line shows only on a terminal, not with TERM=dumb; NO_COLOR removes colour only."))
        .map { $0.lifted(\AuditOptions.reports) }

    static let limitOptions: [DeclaredOption<AuditOptions>] = [
            .value("--concurrency", valueName: "N", defaultValue: "64", help: "Transfers in flight at once.") {
                $0.concurrency = try OptionValue.integer($1.value, $1.name, in: 1...1024)
            },
            .value("--max-bytes", valueName: "N", defaultValue: "1048576",
                   help: "Stop reading a body after N decoded bytes; must exceed 131072.") {
                $0.maxBytes = try OptionValue.integer($1.value, $1.name, in: 131_073...(1 << 30),
                                                      why: "it must exceed Apple's 128 KB limit (131,072 bytes) so an oversized file can be told apart")
            },
        ]

    static let fetchAndRunOptions: [DeclaredOption<AuditOptions>] = [
            .value("-A", "--user-agent", valueName: "TEXT", defaultValue: defaultUserAgent,
                   help: "User-Agent to send. The file is fetched again as \(crawlerUserAgent) either way.") {
                $0.userAgent = $1.value
            },
            .flag("--no-cdn", help: "Do not fetch Apple's CDN copy.") { $0.noCDN = true },
            .value("--apple-cdn", valueName: "URL", defaultValue: defaultAppleCDNBase,
                   help: "Base URL of Apple's CDN; the domain is appended. Must be https:// and end with \"/\". --connect-to and --resolve apply to its host too.") {
                $0.appleCDNBase = try OptionValue.appleCDN($1.value)
            },
            .value("--expiry-warning-days", valueName: "N", defaultValue: "30",
                   help: "Warn when a certificate expires within N days.") {
                $0.expiryWarningDays = try OptionValue.integer($1.value, $1.name, in: 0...3650)
            },
            .flag("--json", help: "Print the JSON report on stdout and nothing else there (the summary and messages go to stderr), e.g. for jq. Report files are still written, whole, when stdout is closed early (| head).") {
                $0.jsonToStdout = true
            },
            RunPolicyOptions.failOn(\AuditOptions.failOn, help: "What fails the run (exit 1), comma-separated. any: every failing domain. new: only a domain that fails now and did not in the baseline (or was not in it), or a failing domain with an error it did not have there (with --strict, warnings count too); without a baseline, from the history: a domain that did not fail in the previous run of the list; without either it acts as any and says so. expiring: a certificate that expired or expires within --expiry-warning-days, whatever else the domain gets. new,expiring or any,expiring: either. expiring alone: only certificates. For cron: see docs/cron.md."),
            .flag("--details", help: "List every error and warning with its fix for every domain that does not pass (by default only when there are at most 10 domains).") {
                $0.details = true
            },
            RunPolicyOptions.keep(\AuditOptions.keep, help: "Keep the N newest reports/<UTC time> folders and delete older ones (never the one reports/latest points to, never other folders)."),
            .value("--ip-families", valueName: "both|4|6|off", kind: .choices(["both", "4", "6", "off"]), defaultValue: "both",
                   help: "both: when a name has IPv4 and IPv6 addresses, fetch /.well-known again over the family the first fetch did not use and report a difference. 4 or 6: every transfer over that family only. off: either family, as curl picks, and no second fetch.") {
                $0.addressFamilies = try OptionValue.addressFamilies($1.value)
            },
            .value("--bodies", valueName: "all|failing|none", kind: .choices(BodiesPolicy.allCases.map(\.rawValue)),
                   defaultValue: BodiesPolicy.default.rawValue,
                   help: "Which served bodies the reports store whole. failing: those of every domain that does not pass (fail or warn), the evidence a ticket needs. all: every body. none: no body. A body not stored is still named by its size and SHA-256, so a changed file shows; each distinct body is stored once however many domains serve it.") {
                $0.bodies = try OptionValue.bodies($1.value, $1.name)
            },
            .value("--max-per-host", valueName: "N", defaultValue: "6",
                   help: "Transfers in flight at once to one host name (0: no limit): each domain of the list is one, Apple's CDN is one. Counted by the name in the URL, not by where --connect-to sends it: names routed to one server are held only by --concurrency.") {
                $0.maxPerHost = try OptionValue.integer($1.value, $1.name, in: 0...1024)
            },
            .value("--shard", valueName: "K/N",
                   help: "Audit only shard K of N (1-based): a stable subset chosen by a hash of each domain, so shards do not move when the list grows. Combine the shard reports with aasa-audit merge (see docs/scaling.md).") {
                $0.shard = try OptionValue.shard($1.value)
            },
            .flag("--android", help: "Also audit each domain's Android App Links file, https://DOMAIN/.well-known/assetlinks.json, on the same connection: the same transport checks (Android's verifier follows no redirect either) and its verifier's limits (1 MiB, 5 s), then the Digital Asset Links statements, with the lists they include (one level, as Android reads them). Automatic for a domain with android=, android-creds= or sha256= expectations. Its errors fail the domain.") {
                $0.android = true
            },
            .flag("--google-dal", help: "For each domain audited for Android, also ask Google's Digital Asset Links API (statements:list, handle_all_urls) what it holds for the site, and compare it with the site's assetlinks.json as Apple's CDN copy is compared: Google's error codes (dal.error), apps and fingerprints only one of them lists (dal.differs), and how long Google's answer holds (maxAge). The API not answering is a warning (dal.unreachable), not the site's fault.") {
                $0.googleDAL = true
            },
            .value("--google-dal-base", valueName: "URL", defaultValue: GoogleDAL.defaultBase,
                   help: "Base URL of Google's Digital Asset Links API for --google-dal; /v1/statements:list?... is appended. Must be https://. --connect-to, --resolve and the proxy apply to its host too.") {
                $0.googleDALBase = try OptionValue.googleDALBase($1.value)
            },
            .value("--entitlements", valueName: "FILE", kind: .file, repeatable: true,
                   help: "Also audit an app's Associated Domains entitlement: each applinks:, webcredentials:, appclips: and activitycontinuation: entry adds the host whose file Apple reads for it, and that file must list the app for the service (*.example.com: example.com's file; ?mode= entries: the origin's /.well-known/ only, never Apple's CDN). FILE: an .entitlements or .xcent property list (XML or binary), a built .app, its Mach-O executable, or an .ipa (with its embedded provisioning profile). Repeatable, one app each; combines with DOMAIN arguments and the domain list (with no DOMAIN, ./domains.txt is read when it exists). A bad entry is an input error (exit 2); the others are still audited.\nSee docs/entitlements.md.") {
                $0.entitlements.append(EntitlementsInput(path: $1.value))
            },
            .value("--app-id", valueName: "TEAMID.BUNDLE", repeatable: true,
                   help: "The app ID of the nearest --entitlements FILE before it, for a file without a usable application-identifier (Xcode's $(AppIdentifierPrefix)$(CFBundleIdentifier)). A different app ID than the file's own is an error.") {
                try $0.setAppID($1.value, name: $1.name)
            },
            .flag("--include-development", help: "Also audit the --entitlements entries only development devices use (?mode=developer, ?mode=developer+managed): their hosts are fetched and a broken one fails the run. Without it they are named in the app's section, not checked: release devices ignore them (?mode=managed entries are always audited).") {
                $0.includeDevelopment = true
            },
            .value("--apk", valueName: "FILE", kind: .file, repeatable: true,
                   help: "Also audit an Android app: each host Android verifies for the APK (its intent filters with autoVerify, by Android's rules for its target API; *.example.com: example.com's file) must serve an assetlinks.json granting handle_all_urls to its package with the SHA-256 of each certificate it is signed with (v3, v2 or v1 signature). A host only an APK names is Android-only: it needs no AASA file. Repeatable; combines with DOMAIN arguments and the domain list. An APK that cannot be read is an input error (exit 2).\nSee docs/apk.md.") {
                $0.apks.append($1.value)
            },
            .value("--sha256", valueName: "FP", repeatable: true,
                   help: "Another signing-key fingerprint every --apk app must be listed with: Play App Signing's app-signing key (Google re-signs apps it distributes). Repeatable.") {
                do throws(ExpectationSyntaxError) {
                    $0.androidKeys += try DomainExpectations.parse([Substring("sha256=" + $1.value)]).fingerprints
                } catch {
                    throw UsageError.invalidValue($1.name, $1.value, error.reason)
                }
            },
            .flag("--list-findings", help: "Print every finding id with its severity, meaning and fix (Markdown).") { $0.listFindings = true },
            .flag("--version", help: "Show the version.") { $0.showVersion = true },
        ]


    public static var optionSpecs: [OptionSpec] { table.specs }
    /// Domains; the first word may also be a subcommand's name (the completions offer those).
    public static let operands = ValueKind.text

    /// Parses `arguments` (without the program name). `--help` anywhere asks for help, once the
    /// whole line has parsed.
    public static func parse(_ arguments: [String]) throws(UsageError) -> Invocation<AuditOptions> {
        var options = AuditOptions()
        let showHelp = try table.parse(arguments, into: &options) { options, domain in options.domains.append(domain) }
        try options.reports.validate()
        try RunPolicyOptions.validate(failOn: options.failOn, keep: options.keep, reports: options.reports)
        return showHelp ? .help : .run(options)
    }

    /// `--app-id`: the app ID of the last `--entitlements` given, once.
    mutating func setAppID(_ value: String, name: String) throws(UsageError) {
        guard let last = entitlements.indices.last else {
            throw .invalidValue(name, value, "it gives the app ID of the --entitlements FILE before it; name the file first: --entitlements FILE --app-id TEAMID.bundle.id")
        }
        if let earlier = entitlements[last].appID {
            throw .invalidValue(name, value, "--entitlements \(entitlements[last].path) already has --app-id \(earlier); each --entitlements takes one --app-id, written after it")
        }
        do {
            _ = try AppIdentifier.parse(value)
        } catch {
            throw .invalidValue(name, value, error.reason)
        }
        entitlements[last].appID = value
    }

    /// The fetch these options ask for; `environment` (the process's variables) gives the proxy
    /// where `--proxy` does not.
    public func fetchOptions(environment: [String: String]) -> FetchOptions {
        var fetch = FetchOptions(
            userAgent: userAgent, caFile: network.caFile, connectTo: network.connectTo, resolve: network.resolve,
            connectTimeout: network.connectTimeout, totalTimeout: network.timeout, maxBytes: maxBytes,
            concurrency: concurrency, appleCDNBase: effectiveAppleCDNBase, crawlerUserAgent: Self.crawlerUserAgent)
        fetch.maxPerHost = maxPerHost
        fetch.addressFamilies = addressFamilies
        fetch.proxy = network.proxyRoute(environment: environment)
        if android { fetch.assetLinks = .all }
        if googleDAL { fetch.googleDALBase = googleDALBase }
        return fetch
    }

    /// The audit's settings these options ask for.
    public var auditSettings: AuditSettings {
        AuditSettings(expiryWarningDays: expiryWarningDays, userAgent: userAgent, crawlerUserAgent: Self.crawlerUserAgent,
                      includeDevelopment: includeDevelopment)
    }

    public static let help = """
        USAGE: aasa-audit [options] [DOMAIN ...]          (a DOMAIN may be followed by KEY=VALUE
                                                          expectations, the keys of domains.txt)
               aasa-audit validate [--format F] [--strict] FILE... | -   (check local files; see validate --help)
               aasa-audit match [--app APPID] [--json] (DOMAIN | --file FILE) URL...
                                                          (which app a URL opens; see match --help)
               aasa-audit diff [--urls FILE] [--json] OLD NEW   (what a new version changes; see diff --help)
               aasa-audit merge REPORT.json... [--out DIR] [--format LIST]   (combine --shard reports;
                                                          see merge --help)
               aasa-audit history [DOMAIN] [--json] [--since DATE]   (what changed over time; see history --help)
               aasa-audit help [COMMAND]                  (this help, or a command's: validate, match, diff, merge, history,
                                                          completions)
               aasa-audit completions bash|zsh|fish       (a shell completion script; see completions --help)

        Audits the apple-app-site-association (AASA) file of each domain the way Apple fetches it:
        https://DOMAIN/.well-known/apple-app-site-association first, https://DOMAIN/apple-app-site-association
        as the fallback. Checks TLS, redirects (Apple follows none), status, Content-Type, size (128 KB
        uncompressed) and that the body is a JSON object, then writes reports. Also fetches the file with
        Apple's crawler User-Agent (\(crawlerUserAgent)) to catch bot rules that block it, and compares
        the copy on Apple's CDN (what iOS 14+ devices read) with the origin's.

        With no DOMAIN arguments, the domains are read from --domains (default ./domains.txt): one per line,
        '#' comments and blank lines ignored; URLs are reduced to their host. Words after a domain are
        expectations checked against the file Apple would use (a broken one is an expect.* error):
        app=APPID, opens=/path, stays=/path, webcredentials=APPID, appclip=APPID,
        activitycontinuation=APPID, and for Android
        android=PACKAGE, android-creds=PACKAGE, sha256=FINGERPRINT (see README).
        The list may be a pipe (--domains <(grep -v staging domains.txt)); a folder, device or
        socket is refused.

        Domains given as arguments are a one-off check: their reports go to reports/<UTC time>/ but
        reports/latest stays on the last run of the domain list, and they are compared with a
        baseline only when --baseline names one. A first argument with no dot within two edits of
        a command (validat, mtach, hlep) is an unknown command, never a domain: nothing is fetched
        or written.

        OPTIONS:
        \(table.helpLines())

        EXIT STATUS:
          0  no domain fails (warnings allowed, unless --strict)
          1  at least one domain fails: Apple can read no file from it, or part of the file it reads is
             broken, or its crawler or CDN check or an expectation written in the domain list fails
             (with --strict: or warns), or an --entitlements entry finds its app missing from the
             file Apple reads for it; with --fail-on new, only when such a failure is new since
             the baseline. Also: an app's own provisioning profile belongs to another team or app
             ID (whatever --fail-on says)
          2  usage error, or input error (a line of the domain list is not a domain, or an
             expectation on it cannot be read: that line or token is skipped, the rest is still
             audited, and each problem is told on stderr; a list over 16 MiB or binary is
             refused; an --entitlements file cannot be read or has no usable app ID, or an entry of
             its Associated Domains entitlement is malformed or a duplicate: that app or entry is
             skipped; an --apk file cannot be read or has no host Android verifies), or the
             reports could not be written
          130, 143  stopped by SIGINT (Ctrl-C) or SIGTERM, at any point (also while waiting for a
             pipe or for a reader of stdout): what was finished is written as a report marked
             "complete": false, and reports/latest is not moved

        EXAMPLES:
          aasa-audit example.com
          aasa-audit --domains domains.txt --out /var/reports/aasa
          aasa-audit --no-cdn --connect-to example.com:443:staging.example.net:443 example.com
          aasa-audit --json example.com | jq '.domains[] | {domain, verdict}'
          aasa-audit --quiet --keep 30 --format json,html,md,junit     (nightly, from cron)
          aasa-audit --quiet --fail-on new --keep 30       (cron mails once per new breakage)
          aasa-audit --entitlements App.entitlements --app-id ABQ7KM3X2P.com.exemplo.app
          aasa-audit --apk app-release.apk --sha256 PLAY:KEY:FINGERPRINT
          aasa-audit shop.example platforms=android android=com.exemplo.shop sha256=AA:BB:...
        """
}
