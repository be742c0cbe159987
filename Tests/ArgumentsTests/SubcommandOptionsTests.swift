import Audit
import Foundation
import Reporting
import Testing
@testable import Arguments

/// The options of `merge`, `validate` and `match`, each parsed without starting the binary.
@Suite struct SubcommandOptionsTests {
    static func run<Options: CommandOptions>(_ type: Options.Type, _ arguments: [String]) throws(UsageError) -> Options {
        switch try Options.parse(arguments) {
        case .run(let options): return options
        case .help: throw .missingArgument("help was asked for")
        }
    }

    static func asksForHelp<Options: CommandOptions>(_ type: Options.Type, _ arguments: [String]) throws -> Bool {
        if case .help = try Options.parse(arguments) { return true }
        return false
    }

    @Test func namesAreDistinctAndEachHasHelp() {
        let all: [any CommandOptions.Type] = [AuditOptions.self, ValidateOptions.self, MatchOptions.self, DiffOptions.self, MergeOptions.self, HistoryOptions.self]
        #expect(Set(all.map { $0.name }).count == all.count)
        for type in all {
            #expect(!type.summary.isEmpty && type.help.contains("USAGE:"), "\(type.name)")
        }
    }

    // MARK: merge

    @Test func mergeEveryOption() throws {
        let options = try Self.run(MergeOptions.self, ["a.json", "-o", "out", "--format=md", "--strict", "-q", "--baseline", "old.json", "b.json"])
        #expect(options.files == ["a.json", "b.json"])
        #expect(options.reports.outDirectory == "out" && options.reports.formats == [.md])
        #expect(options.reports.strict && options.reports.quiet && options.reports.baselineFile == "old.json" && !options.reports.noBaseline)
        let other = try Self.run(MergeOptions.self, ["--out=o", "--format", "json,junit", "--quiet", "--no-baseline", "--", "--odd.json"])
        #expect(other.files == ["--odd.json"] && other.reports.outDirectory == "o" && other.reports.formats == [.json, .junit])
        #expect(other.reports.noBaseline && !other.reports.strict)
        #expect(try Self.run(MergeOptions.self, ["a.json"]).reports == ReportOptions())
    }

    /// `--fail-on` and `--keep` as the audit takes them (one declaration, `RunPolicyOptions`), refused alike.
    @Test func mergeFailsOnAndKeepsAsTheAuditDoes() throws {
        let options = try Self.run(MergeOptions.self, ["a.json", "--fail-on", "new,expiring", "--keep", "30"])
        #expect(options.failOn == (try Self.run(AuditOptions.self, ["--fail-on", "new,expiring"]).failOn))
        #expect(options.failOn.asksWhatIsNew && options.keep == 30)
        let defaults = try Self.run(MergeOptions.self, ["a.json"])
        #expect(defaults.failOn == .any && defaults.keep == nil)
        let refusals: [([String], UsageError)] = [
            (["--keep", "0"], .invalidValue("--keep", "0", "expected 1 to 100000")),
            (["--keep", "3", "--out", "o"], .invalidValue("--keep", "3", "it prunes reports/<UTC time> folders, which are not written with --out")),
            (["--fail-on", "new", "--no-baseline"], .invalidValue("--fail-on", "new", "it compares with a baseline, which --no-baseline turns off")),
            (["--fail-on", "any,new"], .invalidValue("--fail-on", "any,new", "any and new are two answers to which failing domains fail the run; give one of them")),
        ]
        for (arguments, error) in refusals {
            #expect(throws: error, "\(arguments)") { try MergeOptions.parse(["a.json"] + arguments) }
            #expect(throws: error, "the audit refuses it alike: \(arguments)") { try AuditOptions.parse(arguments) }
        }
        #expect(MergeOptions.optionNames.contains("--fail-on") && MergeOptions.optionNames.contains("--keep"))
        // --bodies: absent keeps what the shards stored; given, it leaves out more.
        #expect(try Self.run(MergeOptions.self, ["a.json"]).bodies == nil)
        #expect(try Self.run(MergeOptions.self, ["a.json", "--bodies", "none"]).bodies == BodiesPolicy.none)
        #expect(throws: UsageError.invalidValue("--bodies", "some", "it is all, failing or none")) { try MergeOptions.parse(["a.json", "--bodies", "some"]) }
    }

    @Test func mergeHelpAndErrors() throws {
        #expect(try Self.asksForHelp(MergeOptions.self, ["--help"]))
        #expect(try Self.asksForHelp(MergeOptions.self, ["a.json", "-h", "--bogus"]), "help wins over what follows")
        #expect(throws: UsageError.invalidValue("merge", "", "name the report.json of each shard")) { try MergeOptions.parse([]) }
        #expect(throws: UsageError.unknownOption("--json")) { try MergeOptions.parse(["a.json", "--json"]) }
        #expect(throws: UsageError.unknownOption("--expiry-warning-days")) { try MergeOptions.parse(["a.json", "--expiry-warning-days", "3"]) }
        #expect(throws: UsageError.missingValue("--format")) { try MergeOptions.parse(["a.json", "--format"]) }
        #expect(throws: UsageError.invalidValue("--format", "xml", "\"xml\" is not a format; choose from json, html, md, junit, prom")) {
            try MergeOptions.parse(["a.json", "--format", "xml"])
        }
        #expect(throws: UsageError.invalidValue("--baseline", "b", "--no-baseline contradicts it; give one or the other")) {
            try MergeOptions.parse(["a.json", "--no-baseline", "--baseline=b"])
        }
        #expect(throws: UsageError.invalidValue("--strict", "1", "this option takes no value")) { try MergeOptions.parse(["a.json", "--strict=1"]) }
        #expect(MergeOptions.help.contains("json, html, md, junit, prom"))
    }

    // MARK: validate

    /// `help validate` says it checks Android's file too (issue 32, item 11).
    @Test func validateHelpNamesAssetLinks() {
        #expect(ValidateOptions.help.contains("assetlinks.json") && ValidateOptions.summary.contains("assetlinks.json"))
    }

    @Test func validateOptions() throws {
        let options = try Self.run(ValidateOptions.self, ["a.json", "--json", "-", "--", "--b.json"])
        #expect(options.files == ["a.json", "-", "--b.json"] && options.json)
        #expect(try Self.run(ValidateOptions.self, ["a.json"]) == ValidateOptions(files: ["a.json"]))
        #expect(try Self.asksForHelp(ValidateOptions.self, ["-h"]))
        #expect(try Self.asksForHelp(ValidateOptions.self, ["--help"]))
        #expect(throws: UsageError.missingArgument("validate needs at least one FILE, or - for standard input (see validate --help)")) {
            try ValidateOptions.parse(["--json"])
        }
        #expect(throws: UsageError.unknownOption("--strcit")) { try ValidateOptions.parse(["a.json", "--strcit"]) }
        #expect(throws: UsageError.invalidValue("--json", "yes", "this option takes no value")) { try ValidateOptions.parse(["--json=yes", "a"]) }
    }

    @Test(arguments: [
        (["a.json"], ValidateOptions.Format.text, false),
        (["--format", "github", "a.json"], .github, false),
        (["--format=junit", "--strict", "a.json"], .junit, true),
        (["--format", "text", "--json", "a.json"], .json, false),
        (["--json", "--format", "github", "a.json"], .github, false),
        (["--strict", "a.json"], .text, true),
    ])
    func validateFormatAndStrict(arguments: [String], format: ValidateOptions.Format, strict: Bool) throws {
        #expect(try Self.run(ValidateOptions.self, arguments) == ValidateOptions(files: ["a.json"], format: format, strict: strict))
    }

    @Test func validateRefusesAnUnknownFormat() {
        #expect(throws: UsageError.invalidValue("--format", "sarif", "one of text, json, github, junit")) {
            try ValidateOptions.parse(["--format", "sarif", "a.json"])
        }
        #expect(throws: UsageError.missingValue("--format")) { try ValidateOptions.parse(["a.json", "--format"]) }
    }

    // MARK: diff

    @Test func diffOptions() throws {
        let options = try Self.run(DiffOptions.self, ["old.json", "--urls", "urls.txt", "example.com", "--json", "--timeout", "3"])
        #expect(options.old == "old.json" && options.new == "example.com" && options.urlsFile == "urls.txt" && options.json)
        #expect(options.network.timeout == 3)
        #expect(try Self.run(DiffOptions.self, ["a", "b"]) == DiffOptions(old: "a", new: "b"))
        #expect(try Self.asksForHelp(DiffOptions.self, ["-h"]))
    }

    /// A domain is fetched as match fetches it: Apple's CDN by default, another with --apple-cdn, none with --no-cdn (which wins).
    @Test(arguments: [
        ([String](), Optional(AuditOptions.defaultAppleCDNBase)),
        (["--apple-cdn", "https://cdn.test/a/v1/"], "https://cdn.test/a/v1/"),
        (["--no-cdn"], nil),
        (["--no-cdn", "--apple-cdn", "https://cdn.test/a/v1/"], nil),
    ])
    func diffFetchesTheCDNAsMatchDoes(arguments: [String], base: String?) throws {
        #expect(try Self.run(DiffOptions.self, arguments + ["a.json", "shop.example"]).appleCDNBase == base)
    }

    @Test(arguments: [
        (["a.json"], "diff needs OLD and NEW: two files (- for standard input) or domains (see diff --help)"),
        (["a", "b", "c"], "diff compares two versions; 3 were given (see diff --help)"),
        (["-", "-"], "standard input (-) can be read once: give at most one of OLD, NEW and --urls as -"),
        (["--urls", "-", "-", "b"], "standard input (-) can be read once: give at most one of OLD, NEW and --urls as -"),
    ])
    func diffNeedsTwoVersions(arguments: [String], message: String) {
        #expect(throws: UsageError.missingArgument(message)) { try DiffOptions.parse(arguments) }
    }

    // MARK: match

    @Test func matchEveryOptionWithAFile() throws {
        let options = try Self.run(MatchOptions.self, [
            "--file", "aasa.json", "--host=shop.example", "--app", "ABQ7KM3X2P.com.example", "--json",
            "--connect-to", "a:443:127.0.0.1:8443", "--resolve=a:443:127.0.0.1", "--cacert", "ca.pem",
            "--timeout", "3", "--connect-timeout=2", "/buy/1", "https://shop.example/x",
        ])
        #expect(options.source == .file("aasa.json") && options.host == "shop.example" && options.appID == "ABQ7KM3X2P.com.example")
        #expect(options.json && options.urls == ["/buy/1", "https://shop.example/x"])
        #expect(options.network.connectTo == ["a:443:127.0.0.1:8443"] && options.network.resolve == ["a:443:127.0.0.1"])
        #expect(options.network.caFile == "ca.pem" && options.network.timeout == 3 && options.network.connectTimeout == 2)
    }

    /// Every valued option of match and merge as `--name=value` means the same as `--name value`
    /// (the audit's are in AuditOptionsTests.everyOption; validate has none).
    @Test func everyValuedOptionAcceptsNameEqualsValue() throws {
        let match = ["--file", "aasa.json", "--host", "shop.example", "--app", "ABQ7KM3X2P.com.example",
                     "--connect-to", "a:443:127.0.0.1:8443", "--resolve", "a:443:127.0.0.1", "--cacert", "ca.pem",
                     "--timeout", "3", "--connect-timeout", "2"]
        let joinedMatch = stride(from: 0, to: match.count, by: 2).map { "\(match[$0])=\(match[$0 + 1])" }
        let spaced = try Self.run(MatchOptions.self, match + ["/a"]), joined = try Self.run(MatchOptions.self, joinedMatch + ["/a"])
        #expect(spaced == joined)
        #expect(joined.source == .file("aasa.json") && joined.host == "shop.example" && joined.appID == "ABQ7KM3X2P.com.example")
        #expect(joined.network.connectTo == ["a:443:127.0.0.1:8443"] && joined.network.resolve == ["a:443:127.0.0.1"])
        #expect(joined.network.caFile == "ca.pem" && joined.network.timeout == 3 && joined.network.connectTimeout == 2)
        let merge = ["--out", "o", "--format", "md,junit", "--baseline", "old.json"]
        let joinedMerge = stride(from: 0, to: merge.count, by: 2).map { "\(merge[$0])=\(merge[$0 + 1])" }
        let mergeSpaced = try Self.run(MergeOptions.self, ["a.json"] + merge), mergeJoined = try Self.run(MergeOptions.self, ["a.json"] + joinedMerge)
        #expect(mergeSpaced == mergeJoined)
        #expect(mergeJoined.reports.outDirectory == "o" && mergeJoined.reports.formats == [.md, .junit] && mergeJoined.reports.baselineFile == "old.json")
        // An empty value after = is a value, refused where it is not one.
        #expect(throws: UsageError.self) { try MergeOptions.parse(["a.json", "--format="]) }
    }

    @Test func matchWithADomain() throws {
        let options = try Self.run(MatchOptions.self, ["shop.example", "/a", "--", "-b"])
        #expect(options == MatchOptions(source: .domain("shop.example"), urls: ["/a", "-b"]))
        #expect(options.network == NetworkOptions())
    }

    @Test func matchHelpAndErrors() throws {
        #expect(try Self.asksForHelp(MatchOptions.self, ["--help"]))
        #expect(try Self.asksForHelp(MatchOptions.self, ["-h", "--bogus"]))
        #expect(throws: UsageError.missingArgument("name a DOMAIN or --file FILE, then at least one URL (see match --help)")) {
            try MatchOptions.parse([])
        }
        #expect(throws: UsageError.missingArgument("give at least one URL or path to decide (see match --help)")) {
            try MatchOptions.parse(["shop.example"])
        }
        #expect(throws: UsageError.missingArgument("give at least one URL or path to decide (see match --help)")) {
            try MatchOptions.parse(["--file", "a.json"])
        }
        #expect(throws: UsageError.invalidValue("--host", "h", "only with --file; with DOMAIN the host is the domain")) {
            try MatchOptions.parse(["--host", "h", "shop.example", "/a"])
        }
        #expect(throws: UsageError.unknownOption("--user-agent")) { try MatchOptions.parse(["--user-agent", "x", "d", "/a"]) }
        #expect(throws: UsageError.missingValue("--app")) { try MatchOptions.parse(["d", "/a", "--app"]) }
        #expect(throws: UsageError.invalidValue("--timeout", "0", "expected seconds, more than 0 and at most 600 (e.g. 2.5)")) {
            try MatchOptions.parse(["--timeout", "0", "d", "/a"])
        }
        #expect(throws: UsageError.invalidValue("--resolve", "x", "expected HOST:PORT:ADDRESS[,ADDRESS]..., e.g. example.com:443:203.0.113.7,2001:db8::7")) {
            try MatchOptions.parse(["--resolve", "x", "d", "/a"])
        }
    }
}

/// `--history`/`--no-history` of the audit and merge, and the `history` subcommand.
@Suite struct HistoryOptionsTests {
    @Test func historyOptionsOfTheAuditAndMerge() throws {
        let merge = try SubcommandOptionsTests.run(MergeOptions.self, ["a.json", "--history", "h.sqlite"])
        #expect(merge.reports.historyFile == "h.sqlite" && !merge.reports.noHistory)
        #expect(try SubcommandOptionsTests.run(MergeOptions.self, ["a.json", "--no-history"]).reports.noHistory)
        #expect(throws: UsageError.invalidValue("--history", "h", "--no-history contradicts it; give one or the other")) {
            try MergeOptions.parse(["a.json", "--history=h", "--no-history"])
        }
        if case .run(let audit) = try AuditOptions.parse(["--history", "x.sqlite", "a.example"]) {
            #expect(audit.reports.historyFile == "x.sqlite")
        } else {
            Issue.record("--history did not parse")
        }
    }

    @Test func theHistorySubcommand() throws {
        let overview = try SubcommandOptionsTests.run(HistoryOptions.self, [])
        #expect(overview.action == .show(domain: nil) && overview.file == "reports/history.sqlite" && !overview.json)
        let domain = try SubcommandOptionsTests.run(HistoryOptions.self, ["example.com", "--json", "--since", "2026-11-01", "--history=h.sqlite"])
        #expect(domain.action == .show(domain: "example.com") && domain.json && domain.file == "h.sqlite")
        #expect(domain.since == Date(timeIntervalSince1970: 1_793_491_200))
        #expect(try SubcommandOptionsTests.run(HistoryOptions.self, ["--since", "2026-11-01T02:00:00Z"]).since == Date(timeIntervalSince1970: 1_793_498_400))
        #expect(try SubcommandOptionsTests.run(HistoryOptions.self, ["import", "a", "b"]).action == .importReports(["a", "b"]))
        #expect(try SubcommandOptionsTests.run(HistoryOptions.self, ["prune", "--older-than", "400"]).action == .prune(olderThanDays: 400))
        #expect(throws: UsageError.missingArgument("history prune needs --older-than DAYS")) { try HistoryOptions.parse(["prune"]) }
        #expect(throws: UsageError.self) { try HistoryOptions.parse(["import"]) }
        #expect(throws: UsageError.self) { try HistoryOptions.parse(["a.example", "b.example"]) }
        #expect(throws: UsageError.self) { try HistoryOptions.parse(["--since", "yesterday"]) }
        #expect(throws: UsageError.self) { try HistoryOptions.parse(["a.example", "--older-than", "3"]) }
        #expect(try SubcommandOptionsTests.asksForHelp(HistoryOptions.self, ["--help"]))
    }
}

/// `--prom-file` and `--format prom`, of the audit and merge alike (the report options group).
@Suite struct PromOptionsTests {
    @Test func promFileAndFormatOfTheAuditAndMerge() throws {
        let merge = try SubcommandOptionsTests.run(MergeOptions.self, ["a.json", "--prom-file", "/var/lib/node/aasa.prom", "--format", "json,prom"])
        #expect(merge.reports.promFile == "/var/lib/node/aasa.prom" && merge.reports.formats == [.json, .prom])
        #expect(try SubcommandOptionsTests.run(MergeOptions.self, ["a.json"]).reports.promFile == nil)
        let audit = try SubcommandOptionsTests.run(AuditOptions.self, ["--prom-file=m.prom", "a.example"])
        #expect(audit.reports.promFile == "m.prom" && audit.reports.formats == [.json, .html])
        #expect(throws: UsageError.self) { try AuditOptions.parse(["a.example", "--prom-file"]) }
    }
}
