import Audit
import Reporting
import Testing
@testable import Arguments

@Suite struct AuditOptionsTests {
    static func parse(_ arguments: [String]) throws(UsageError) -> AuditOptions {
        switch try AuditOptions.parse(arguments) {
        case .run(let options): return options
        case .help: throw .missingArgument("help was asked for")
        }
    }

    @Test func defaults() throws {
        let options = try Self.parse([])
        #expect(options == AuditOptions())
        #expect(options.domains.isEmpty && options.domainsFile == "domains.txt" && !options.domainsFileGiven)
        #expect(options.reports.formats == [.json, .html] && options.reports.outDirectory == nil)
        #expect(!options.reports.strict && !options.reports.quiet && !options.jsonToStdout)
        #expect(options.concurrency == 64 && options.maxBytes == 1 << 20 && options.maxPerHost == 6)
        #expect(options.network.timeout == 10 && options.network.connectTimeout == 5)
        #expect(options.userAgent == AuditOptions.defaultUserAgent)
        #expect(options.effectiveAppleCDNBase == AuditOptions.defaultAppleCDNBase)
        #expect(options.expiryWarningDays == 30 && options.keep == nil && options.shard == nil)
        #expect(options.fetchOptions(environment: [:]).crawlerUserAgent == AuditOptions.crawlerUserAgent)
    }

    /// Every option of the audit, given as `--name value` and as `--name=value`.
    @Test func everyOption() throws {
        let arguments = [
            "a.example", "--domains", "list.txt", "--out", "dir", "--format", "md, JUNIT", "--concurrency", "7",
            "--timeout", "2.5", "--connect-timeout", "1", "--max-bytes", "131073",
            "--connect-to", "a.example:443:127.0.0.1:8443", "--connect-to", "::127.0.0.1:8443", "--resolve", "b.example:443:127.0.0.1", "--resolve", "fam.example:443:127.0.0.1,::1,[2001:db8::7]",
            "--cacert", "ca.pem", "--user-agent", "UA", "--no-cdn", "--apple-cdn", "https://cdn.test/a/",
            "--expiry-warning-days", "0", "--no-baseline", "--json", "--strict", "--quiet",
            "--max-per-host", "0", "--shard", "2/3", "--list-findings", "--version", "--ip-families", "6", "--bodies", "all",

            "--proxy", "http://u:pw@proxy.corp:3128", "--noproxy", ".corp, localhost", "b.example",
        ]
        func check(_ options: AuditOptions) {
            #expect(options.domains == ["a.example", "b.example"])
            #expect(options.domainsFile == "list.txt" && options.domainsFileGiven)
            #expect(options.reports.outDirectory == "dir")
            #expect(options.reports.formats == [.md, .junit])
            #expect(options.concurrency == 7 && options.maxBytes == 131_073 && options.maxPerHost == 0)
            #expect(options.network.timeout == 2.5 && options.network.connectTimeout == 1)
            #expect(options.network.connectTo == ["a.example:443:127.0.0.1:8443", "::127.0.0.1:8443"])
            #expect(options.network.resolve == ["b.example:443:127.0.0.1", "fam.example:443:127.0.0.1,::1,[2001:db8::7]"])
            #expect(options.addressFamilies == .only(.ipv6) && options.fetchOptions(environment: [:]).addressFamilies == .only(.ipv6))
            #expect(options.network.caFile == "ca.pem" && options.userAgent == "UA")
            #expect(options.noCDN && options.appleCDNBase == "https://cdn.test/a/" && options.effectiveAppleCDNBase == nil)
            #expect(options.expiryWarningDays == 0 && options.reports.noBaseline && options.jsonToStdout)
            #expect(options.reports.strict && options.reports.quiet)
            #expect(options.shard == Shard(index: 2, count: 3))
            #expect(options.bodies == .all)
            #expect(options.listFindings && options.showVersion)
            let fetch = options.fetchOptions(environment: [:])
            #expect(fetch.userAgent == "UA" && fetch.caFile == "ca.pem" && fetch.concurrency == 7 && fetch.maxPerHost == 0)
            #expect(fetch.appleCDNBase == nil && fetch.maxBytes == 131_073 && fetch.totalTimeout == 2.5 && fetch.connectTimeout == 1)
            #expect(options.auditSettings.expiryWarningDays == 0 && options.auditSettings.userAgent == "UA")
            #expect(options.network.proxy == "http://u:pw@proxy.corp:3128" && options.network.noProxy == ".corp, localhost")
            // --proxy and --noproxy win over the variables.
            let route = options.fetchOptions(environment: ["https_proxy": "http://other:1", "no_proxy": "*"]).proxy
            #expect(route.proxy(for: "https://b.example/")?.endpoint.shown == "http://proxy.corp:3128")
            #expect(route.proxy(for: "https://x.corp/") == nil)
        }
        check(try Self.parse(arguments))
        // The same with every valued option as --name=value.
        var joined: [String] = []
        var index = 0
        let flags: Set = ["--no-cdn", "--no-baseline", "--json", "--strict", "--quiet", "--list-findings", "--version"]
        while index < arguments.count {
            let argument = arguments[index]
            if argument.hasPrefix("--") && !flags.contains(argument) {
                joined.append("\(argument)=\(arguments[index + 1])")
                index += 2
            } else {
                joined.append(argument)
                index += 1
            }
        }
        #expect(joined.contains("--format=md, JUNIT"))
        check(try Self.parse(joined))
    }

    /// A --proxy libcurl could not use is a usage error that never repeats its credentials.
    @Test(arguments: [
        ("ftp://user:hunter22@proxy:21", "ftp://***@proxy:21", "not one libcurl speaks"),
        ("http://user:hunter22@proxy:99999", "http://***@proxy:99999", "not a number from 1 to 65535"),
        ("http://user:hunter22@", "http://***@", "no proxy host"),
    ])
    func unusableProxyIsAUsageErrorMasked(text: String, shown: String, reason: String) throws {
        do {
            _ = try Self.parse(["--proxy", text])
            Issue.record("accepted \(text)")
        } catch {
            let message = "\(error)"
            #expect(message.contains(shown) && message.contains(reason), "\(message)")
            #expect(!message.contains("hunter22"))
        }
        // "" is no proxy at all, as for curl.
        #expect(try Self.parse(["--proxy", ""]).fetchOptions(environment: ["https_proxy": "http://p:1"]).proxy.usesProxy == false)
    }

    @Test func shortFormsAndBaseline() throws {
        let options = try Self.parse(["-o", "out", "-A", "agent", "-q", "--baseline", "old.json", "--", "-x.example"])
        #expect(options.reports.outDirectory == "out" && options.userAgent == "agent" && options.reports.quiet)
        #expect(options.reports.baselineFile == "old.json")
        #expect(try Self.parse(["--keep=3"]).keep == 3)
        #expect(try Self.parse(["--baseline=old.json"]).reports.baselineFile == "old.json", "the one valued option everyOption leaves out")
        #expect(options.domains == ["-x.example"], "after --, a word starting with - is a domain")
        // --keep is refused with --out, so this parse must come from separate lines.
        #expect(try Self.parse(["--keep", "30", "--format", "json,html,md,junit"]).keep == 30)
    }

    @Test func help() throws {
        for arguments in [["--help"], ["-h"], ["a.example", "--help", "--strict"]] {
            guard case .help = try AuditOptions.parse(arguments) else {
                Issue.record("\(arguments) should ask for help")
                continue
            }
        }
        #expect(throws: UsageError.unknownOption("--bogus")) { try AuditOptions.parse(["--help", "--bogus"]) }
        #expect(AuditOptions.help.contains("USAGE: aasa-audit [options] [DOMAIN ...]"))
        for option in ["--domains", "--out", "--format", "--concurrency", "--timeout", "--connect-timeout", "--max-bytes", "--connect-to",
                       "--resolve", "--cacert", "--user-agent", "--no-cdn", "--apple-cdn", "--expiry-warning-days", "--baseline",
                       "--no-baseline", "--json", "--strict", "--quiet", "--keep", "--max-per-host", "--shard", "--list-findings",
                       "--help", "--version", "--ip-families"] {
            #expect(AuditOptions.help.contains(option), "\(option) is in --help")
        }
    }

    @Test(arguments: [
        (["--bogus"], UsageError.unknownOption("--bogus")),
        (["-x"], .unknownOption("-x")),
        (["--out"], .missingValue("--out")),
        (["--strict=yes"], .invalidValue("--strict", "yes", "this option takes no value")),
        (["--format", "pdf"], .invalidValue("--format", "pdf", "\"pdf\" is not a format; choose from json, html, md, junit, prom")),
        (["--format", ","], .invalidValue("--format", ",", "name at least one of json, html, md, junit, prom")),
        (["--concurrency", "0"], .invalidValue("--concurrency", "0", "expected 1 to 1024")),
        (["--concurrency", "many"], .invalidValue("--concurrency", "many", "expected a whole number")),
        (["--timeout", "0"], .invalidValue("--timeout", "0", "expected seconds, more than 0 and at most 600 (e.g. 2.5)")),
        (["--connect-timeout=601"], .invalidValue("--connect-timeout", "601", "expected seconds, more than 0 and at most 600 (e.g. 2.5)")),
        (["--max-bytes", "131072"], .invalidValue("--max-bytes", "131072", "expected 131073 to 1073741824; it must exceed Apple's 128 KB limit (131,072 bytes) so an oversized file can be told apart")),
        (["--connect-to", "a:443:b"], .invalidValue("--connect-to", "a:443:b", "expected HOST:PORT:CONNECT_HOST:CONNECT_PORT, e.g. example.com:443:staging.example.net:443 (empty HOST or PORT means any)")),
        (["--connect-to", "a:443:b:99999"], .invalidValue("--connect-to", "a:443:b:99999", "\"99999\" is not a port number")),
        (["--resolve", "a:port:1.2.3.4"], .invalidValue("--resolve", "a:port:1.2.3.4", "expected HOST:PORT:ADDRESS[,ADDRESS]..., e.g. example.com:443:203.0.113.7,2001:db8::7")),
        (["--resolve", "a:443:127.0.0.1,localhost"], .invalidValue("--resolve", "a:443:127.0.0.1,localhost", "\"localhost\" is not an IPv4 or IPv6 address (expected HOST:PORT:ADDRESS[,ADDRESS]..., e.g. example.com:443:203.0.113.7,2001:db8::7)")),
        (["--apple-cdn", "http://cdn.test/"], .invalidValue("--apple-cdn", "http://cdn.test/", "expected an https:// URL ending with \"/\", e.g. https://app-site-association.cdn-apple.com/a/v1/")),
        (["--apple-cdn", "https://cdn.test/a"], .invalidValue("--apple-cdn", "https://cdn.test/a", "expected an https:// URL ending with \"/\", e.g. https://app-site-association.cdn-apple.com/a/v1/ (the domain is appended to it)")),
        (["--google-dal-base", "http://dal.test"], .invalidValue("--google-dal-base", "http://dal.test", "expected an https:// URL, e.g. https://digitalassetlinks.googleapis.com")),
        (["--google-dal-base", "https://dal.test/?key=1"], .invalidValue("--google-dal-base", "https://dal.test/?key=1", "expected an https:// URL, e.g. https://digitalassetlinks.googleapis.com without ? or # (/v1/statements:list?... is appended to it)")),
        (["--expiry-warning-days", "3651"], .invalidValue("--expiry-warning-days", "3651", "expected 0 to 3650")),
        (["--keep", "0"], .invalidValue("--keep", "0", "expected 1 to 100000")),
        (["--max-per-host", "-1"], .invalidValue("--max-per-host", "-1", "expected 0 to 1024")),
        (["--ip-families", "ipv6"], .invalidValue("--ip-families", "ipv6", "it is both, 4, 6 or off")),
        (["--bodies", "passing"], .invalidValue("--bodies", "passing", "it is all, failing or none")),
        (["--baseline", "a.json", "--no-baseline"], .invalidValue("--baseline", "a.json", "--no-baseline contradicts it; give one or the other")),
        (["--keep", "2", "--out", "dir"], .invalidValue("--keep", "2", "it prunes reports/<UTC time> folders, which are not written with --out")),
        (["--fail-on", "changes"], .invalidValue("--fail-on", "changes", "\"changes\" is none of any (every failing domain), new (only what is new since the baseline) and expiring (a certificate within --expiry-warning-days), comma-separated")),
        (["--fail-on"], .missingValue("--fail-on")),
        (["--fail-on", "new", "--no-baseline"], .invalidValue("--fail-on", "new", "it compares with a baseline, which --no-baseline turns off")),
    ])
    func errors(arguments: [String], expected: UsageError) {
        #expect(throws: expected) { try AuditOptions.parse(arguments) }
    }

    @Test func failOnAndDetails() throws {
        let defaults = try Self.parse([])
        #expect(defaults.failOn == .any && !defaults.details)
        let options = try Self.parse(["--fail-on", "new", "--details", "--quiet"])
        #expect(options.failOn == .new && options.details && options.reports.quiet)
        #expect(try Self.parse(["--fail-on=any"]).failOn == .any)
        #expect(try Self.parse(["--fail-on", "new", "--baseline", "old.json"]).failOn == .new)
        #expect(try Self.parse(["--fail-on", "new,expiring"]).failOn == FailOnList([.new, .expiring]))
        #expect(throws: UsageError.invalidValue("--fail-on", "any,new",
                                                "any and new are two answers to which failing domains fail the run; give one of them")) {
            try AuditOptions.parse(["--fail-on", "any,new"])
        }
        #expect(throws: UsageError.self) { try AuditOptions.parse(["--fail-on", "soon"]) }
        #expect(throws: UsageError.invalidValue("--fail-on", "new,expiring", "it compares with a baseline, which --no-baseline turns off")) {
            try AuditOptions.parse(["--fail-on", "new,expiring", "--no-baseline"])
        }
    }

    @Test func shardErrorsSayWhy() {
        do {
            _ = try AuditOptions.parse(["--shard", "4/3"])
            Issue.record("4/3 must be refused")
        } catch {
            guard case .invalidValue(let name, let value, let reason) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(name == "--shard" && value == "4/3" && !reason.isEmpty)
        }
    }

    /// --google-dal asks for Google's view with the base given (its trailing "/" dropped); without it nothing is asked.
    @Test(arguments: [
        ([String](), nil as String?),
        (["--google-dal-base", "https://dal.test"], nil),
        (["--google-dal"], "https://digitalassetlinks.googleapis.com"),
        (["--google-dal", "--google-dal-base", "https://dal.test/fake/"], "https://dal.test/fake"),
    ])
    func googleDALBaseReachesTheFetch(_ arguments: [String], _ base: String?) throws {
        guard case .run(let options) = try AuditOptions.parse(arguments + ["a.example"]) else { Issue.record("not a run"); return }
        #expect(options.fetchOptions(environment: [:]).googleDALBase == base)
    }
}
