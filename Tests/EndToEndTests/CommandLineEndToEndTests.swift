import Audit
import Foundation
import Testing
import TestSupport

/// The command line where users touch it: the binary run in a folder of its own, against the real
/// nginx of LocalSites. The parsing of each option is unit-tested in Tests/ArgumentsTests; these
/// tests show each option that changes what the audit does taking effect.
@Suite struct CommandLineEndToEndTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The arguments that reach LocalSites' nginx and trust its CA (no CDN unless asked).
    static func network(_ sites: LocalSites) -> [String] {
        ["--cacert", sites.certificateAuthority.certificatePath, "--timeout", "5", "--connect-timeout", "5"] + sites.connectToArguments
    }

    /// Runs an audit into a fresh `--out` folder and reads its report.json.
    static func audit(_ arguments: [String], cdn: Bool = false) throws -> (ShellCommand.Outcome, AuditReport) {
        let sites = try LocalSites.shared.get()
        let out = try AuditBinary.temporaryDirectory()
        let outcome = try AuditBinary.run(network(sites) + (cdn ? [] : ["--no-cdn"]) + ["--out", out.path] + arguments)
        let file = out.appendingPathComponent("report.json")
        try #require(FileManager.default.fileExists(atPath: file.path), "no report.json (status \(outcome.status)): \(outcome.stderr)")
        return (outcome, try AuditBinary.readReport(at: file))
    }

    static func ids(_ report: AuditReport, _ host: String) throws -> [String] {
        try #require(report.domains.first { $0.domain == host }, "\(host) is not in the report").allFindings.map(\.id)
    }

    // MARK: - The domain list

    /// `make audit` runs the binary with no domain: it reads domains.txt in the working directory and
    /// writes reports/<UTC time>/ and reports/latest there.
    @Test func withoutDomainsTheListIsDomainsTxtInTheWorkingDirectory() throws {
        let sites = try LocalSites.shared.get()
        let folder = try AuditBinary.temporaryDirectory()
        try "# the default list\ngood.test\nexpiring.test   # a note\n".write(to: folder.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        let outcome = try AuditBinary.run(Self.network(sites) + ["--no-cdn"], in: folder)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let report = try AuditBinary.readReport(at: folder.appendingPathComponent("reports/latest/report.json"))
        #expect(report.domains.map(\.domain) == ["good.test", "expiring.test"])
        #expect(report.domains.map(\.verdict) == [.pass, .warn])
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("reports/latest/report.html").path))
    }

    /// No argument at all, as `make audit` runs it: the default list is read and audited. (Without
    /// --connect-to nothing is reachable from the test machine, so every domain fails to connect.)
    @Test func noArgumentsAtAll() throws {
        let folder = try AuditBinary.temporaryDirectory()
        try "unreachable.test\n".write(to: folder.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        let outcome = try AuditBinary.run([], in: folder)
        #expect(outcome.status == 1, "the one domain fails: \(outcome.stderr)")
        let report = try AuditBinary.readReport(at: folder.appendingPathComponent("reports/latest/report.json"))
        #expect(report.domains.map(\.domain) == ["unreachable.test"] && report.domains[0].verdict == .fail)
        #expect(report.complete)
    }

    @Test func aMissingDefaultListSaysHowToStart() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let outcome = try AuditBinary.run([], in: folder)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("cannot read the domain list domains.txt")
                && outcome.stderr.contains("name domains as arguments, or create domains.txt with one domain per line"), "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("reports").path), "nothing is written")
    }

    @Test func aMissingGivenListIsAnError() throws {
        let folder = try AuditBinary.temporaryDirectory()
        for arguments in [["--domains", "missing.txt"], ["--domains=missing.txt"]] {
            let outcome = try AuditBinary.run(arguments, in: folder)
            #expect(outcome.status == 2)
            #expect(outcome.stderr.contains("cannot read the domain list missing.txt"), "\(outcome.stderr)")
            #expect(!outcome.stderr.contains("create domains.txt"), "the hint is for the default list only")
        }
    }

    @Test func aListWithNoDomainsIsAnError() throws {
        let folder = try AuditBinary.temporaryDirectory()
        try "# nothing yet\n\n   \n".write(to: folder.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        let outcome = try AuditBinary.run([], in: folder)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("no domains to audit in domains.txt"), "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("reports").path), "nothing is written")
    }

    // MARK: - `--` and `--name=value` in every subcommand

    /// After `--` a word starting with "-" is an operand, in every subcommand.
    @Test func doubleDashEndsTheOptionsOfEverySubcommand() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let good = #"{"applinks":{"details":[{"appIDs":["ABQ7KM3X2P.com.exemplo.app"],"components":[{"/":"/*"}]}]}}"#
        try good.write(to: folder.appendingPathComponent("-odd.json"), atomically: true, encoding: .utf8)

        // audit: "-x.test" is a domain argument (and not a valid name), not an unknown option.
        let audit = try AuditBinary.run(["--no-cdn", "--out", "out", "--", "-x.test"], in: folder)
        #expect(audit.status == 2 && !audit.stderr.contains("unknown option"), "\(audit.stderr)")
        // The list's problems go to stderr, whole.
        #expect(audit.stderr.contains("argument 1: \"-x.test\": the label \"-x\" starts with \"-\""),
                "the word is read as a domain: \(audit.stdout) \(audit.stderr)")

        // validate: a file named -odd.json.
        let validate = try AuditBinary.run(["validate", "--json", "--", "-odd.json"], in: folder)
        #expect(validate.status == 0 && validate.stdout.contains("\"file\" : \"-odd.json\""), "\(validate.stdout) \(validate.stderr)")

        // match: the file's option before --, a path after.
        let match = try AuditBinary.run(["match", "--file=-odd.json", "--", "/"], in: folder)
        #expect(match.status == 0, "\(match.stdout) \(match.stderr)")
        #expect(match.stdout.hasPrefix("/  opens ABQ7KM3X2P.com.exemplo.app"), "\(match.stdout)")

        // merge: a shard file named -a.json (a real shard report: one.test, refused on a closed port).
        let shard = try AuditBinary.run(["--no-cdn", "--connect-to", "::127.0.0.1:9", "--connect-timeout", "1", "--out", "shard",
                                         "--format=json", "--shard=1/1", "one.test"], in: folder)
        #expect(shard.status == 1, "\(shard.stderr)")
        try FileManager.default.moveItem(at: folder.appendingPathComponent("shard/report.json"), to: folder.appendingPathComponent("-a.json"))
        let merge = try AuditBinary.run(["merge", "--out=merged", "--format=json", "--", "-a.json"], in: folder)
        #expect(!merge.stderr.contains("unknown option"), "\(merge.stderr)")
        #expect(merge.status == 1, "the merged domain fails to connect: \(merge.stderr)")
        let merged = try AuditBinary.readReport(at: folder.appendingPathComponent("merged/report.json"))
        #expect(merged.domains.map(\.domain) == ["one.test"])
    }

    /// The binary reads `--name=value` as `--name value` (each option is unit-tested; this is the whole path).
    @Test func nameEqualsValueReachesTheRun() throws {
        let sites = try LocalSites.shared.get()
        let out = try AuditBinary.temporaryDirectory()
        let outcome = try AuditBinary.run(["--cacert=\(sites.certificateAuthority.certificatePath)", "--timeout=5", "--connect-timeout=5",
                                           "--connect-to=::127.0.0.1:\(sites.port)", "--no-cdn", "--out=\(out.path)", "--format=md",
                                           "--expiry-warning-days=1", "--user-agent=equals-agent", "expiring.test"])
        #expect(outcome.status == 0, "expiring.test expires in 5 days, more than 1: \(outcome.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path)
        #expect(names == ["report.md"], "--format=md: \(names)")
    }

    // MARK: - Each option's effect

    /// `--expiry-warning-days` is the threshold of tls.expiring-soon (expiring.test's certificate
    /// has 5 days left, good.test's months).
    @Test func expiryWarningDaysMovesTheCertificateWarning() throws {
        let (_, defaults) = try Self.audit(["good.test", "expiring.test"])
        #expect(try Self.ids(defaults, "expiring.test").contains("tls.expiring-soon"))
        #expect(try !Self.ids(defaults, "good.test").contains("tls.expiring-soon"))
        let (_, short) = try Self.audit(["--expiry-warning-days", "3", "good.test", "expiring.test"])
        #expect(try !Self.ids(short, "expiring.test").contains("tls.expiring-soon"), "5 days left is more than 3")
        let (_, long) = try Self.audit(["--expiry-warning-days", "3650", "good.test"])
        #expect(try Self.ids(long, "good.test").contains("tls.expiring-soon"), "every certificate expires within 10 years")
    }

    /// `--user-agent` is the User-Agent nginx sees on the audit's requests.
    @Test func userAgentReachesTheServer() throws {
        let sites = try LocalSites.shared.get()
        let agent = "aasa-audit-test/\(UUID().uuidString)"
        let (outcome, _) = try Self.audit(["--user-agent", agent, "good.test"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        var lines: [Substring] = []
        for _ in 0..<50 {  // nginx writes its log line after the response; give it a moment
            lines = sites.accessLog().split(separator: "\n").filter { $0.hasSuffix("ua=\"\(agent)\"") }
            if lines.count >= 2 { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(lines.contains { $0.hasPrefix("good.test /.well-known/apple-app-site-association ") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("good.test /apple-app-site-association ") }, "\(lines)")
    }

    /// `--max-bytes` stops reading a body there: large.test's file (about 180 KB) is read whole by
    /// default and cut at the limit with it.
    @Test func maxBytesStopsABody() throws {
        let (_, whole) = try Self.audit(["large.test"])
        let wholeMessage = try #require(whole.domains.first?.locations.first?.findings.first { $0.id == "size.too-large" }).message
        #expect(wholeMessage.hasPrefix("The file is ") && !wholeMessage.contains("reading stopped"), "\(wholeMessage)")
        let (_, cut) = try Self.audit(["--max-bytes", "131073", "large.test"])
        let cutMessage = try #require(cut.domains.first?.locations.first?.findings.first { $0.id == "size.too-large" }).message
        #expect(cutMessage.contains("larger than 131073 bytes uncompressed (reading stopped there"), "\(cutMessage)")
    }

    /// `--connect-timeout` bounds the connection (TCP and TLS handshake): silent.test accepts and never
    /// answers; with a 1 s connection limit under a 30 s total, the run ends long before the total.
    @Test func connectTimeoutBoundsTheHandshake() throws {
        let sites = try LocalSites.shared.get()
        let out = try AuditBinary.temporaryDirectory()
        let outcome = try AuditBinary.run(["--cacert", sites.certificateAuthority.certificatePath, "--timeout", "30", "--connect-timeout", "1",
                                           "--no-cdn", "--out", out.path] + sites.connectToArguments + ["silent.test"])
        #expect(outcome.status == 1)
        #expect(outcome.seconds < 20, "the 1 s connect timeout, not the 30 s total, ended the run (\(outcome.seconds) s)")
        let report = try AuditBinary.readReport(at: out.appendingPathComponent("report.json"))
        #expect(try Self.ids(report, "silent.test").contains("network.timeout"))
    }

    /// `--resolve` gives a name its address: a name that resolves nowhere is then refused on
    /// 127.0.0.1:443 (nothing listens there) instead of failing to resolve.
    @Test func resolveGivesANameItsAddress() throws {
        let out = try AuditBinary.temporaryDirectory()
        let plain = try AuditBinary.run(["--no-cdn", "--connect-timeout", "2", "--timeout", "4", "--out", out.appendingPathComponent("a").path,
                                         "nowhere.test"])
        #expect(plain.status == 1)
        let unresolved = try AuditBinary.readReport(at: out.appendingPathComponent("a/report.json"))
        #expect(try Self.ids(unresolved, "nowhere.test").contains("network.dns"))
        let resolved = try AuditBinary.run(["--no-cdn", "--connect-timeout", "2", "--timeout", "4", "--out", out.appendingPathComponent("b").path,
                                            "--resolve", "nowhere.test:443:127.0.0.1", "nowhere.test"])
        #expect(resolved.status == 1)
        let ids = try Self.ids(try AuditBinary.readReport(at: out.appendingPathComponent("b/report.json")), "nowhere.test")
        #expect(ids.contains("network.refused") && !ids.contains("network.dns"), "\(ids)")
    }

    /// `--no-cdn` asks Apple's CDN nothing; `--apple-cdn URL` asks that CDN.
    @Test func appleCDNAndNoCDN() throws {
        let sites = try LocalSites.shared.get()
        let (_, without) = try Self.audit(["good.test"])
        #expect(without.domains[0].cdn == nil)
        #expect(try !Self.ids(without, "good.test").contains { $0.hasPrefix("cdn.") })
        let (_, with) = try Self.audit(sites.appleCDNArguments + ["good.test"], cdn: true)
        #expect(with.domains[0].cdn?.url == "https://cdn.test/a/v1/good.test")
        #expect(try Self.ids(with, "good.test").contains("cdn.ok"))
    }

    /// `--concurrency 1`: one transfer at a time. Three names on the port that accepts and never answers
    /// each wait out their 1 s connect timeout, so one after the other they take at least 3 s (at once,
    /// as the default 64 runs them, about 2 s). Only a lower bound: a loaded machine cannot fail it.
    @Test func concurrencyOneRunsOneTransferAtATime() throws {
        let sites = try LocalSites.shared.get()
        let hosts = (1...3).map { "quiet\($0).test" }
        let routes = hosts.flatMap { ["--connect-to", "\($0):443:127.0.0.1:\(sites.silentPort)"] }
        let out = try AuditBinary.temporaryDirectory()
        let serial = try AuditBinary.run(["--no-cdn", "--cacert", sites.certificateAuthority.certificatePath, "--connect-timeout", "1",
                                          "--timeout", "1", "--concurrency", "1", "--out", out.path] + routes + hosts)
        #expect(serial.status == 1, "\(serial.stderr)")
        let report = try AuditBinary.readReport(at: out.appendingPathComponent("report.json"))
        #expect(report.domains.map(\.domain) == hosts && report.domains.allSatisfy { $0.verdict == .fail })
        #expect(serial.seconds >= 3, "three 1 s waits one after the other took \(serial.seconds) s")
    }

    /// `--concurrency` and `--max-per-host` reach the fetch layer (AuditOptionsTests checks the
    /// FetchOptions they make; SiteFetcherTests shows those limits on nginx's connections). Here: the
    /// extremes run, and give the same report as the defaults.
    @Test func concurrencyAndMaxPerHostKeepTheResults() throws {
        let hosts = (1...4).map { "c\($0).many.test" }
        let (_, defaults) = try Self.audit(hosts)
        let (_, serial) = try Self.audit(["--concurrency", "1", "--max-per-host", "1"] + hosts)
        #expect(serial.domains.map(\.domain) == hosts)
        #expect(serial.domains.map(\.verdict) == defaults.domains.map(\.verdict))
        #expect(serial.domains.allSatisfy { $0.verdict == .pass })
    }

    // MARK: - --list-findings

    /// `--list-findings` prints the table docs/findings.md holds (`make docs` writes it from this output).
    @Test func listFindingsIsTheTableOfDocsFindings() throws {
        let outcome = try AuditBinary.run(["--list-findings"])
        #expect(outcome.status == 0)
        let document = try String(contentsOf: Self.repositoryRoot.appendingPathComponent("docs/findings.md"), encoding: .utf8)
        let table = try #require(document.range(of: "\n| id |"), "docs/findings.md has no table")
        let documented = String(document[document.index(after: table.lowerBound)...])
        #expect(outcome.stdout.hasPrefix("| id |"))
        #expect(outcome.stdout.split(separator: "\n").count > 50, "the registry has many rules")
        #expect(outcome.stdout == documented, "docs/findings.md is out of date: run `make docs`")
    }

    /// Input refusals never fall through to another job: an --entitlements or --apk file that cannot
    /// be read (missing, or not what it claims to be) ends the run (exit 2) before ./domains.txt is
    /// read, and a command mistyped after options checks nothing; none writes a report.
    @Test(arguments: [
        (["--entitlements", "app.apk"], "cannot read the entitlements"),
        (["--apk", "/nonexistent.apk"], "--apk /nonexistent.apk"),
        (["--apk", "app.apk"], "cannot read the APK"),
        (["--apk", "app.apk", "shop.test"], "cannot read the APK"),
        (["--no-cdn", "validat", "foo.json"], "unknown command 'validat' after options; did you mean 'validate'?"),
    ])
    func aRefusedInputWritesNothing(arguments: [String], text: String) throws {
        let folder = try AuditBinary.temporaryDirectory()
        try "example.com\n".write(to: folder.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        try Data("PK not an entitlements file".utf8).write(to: folder.appendingPathComponent("app.apk"))
        let outcome = try AuditBinary.run(arguments + ["--timeout", "1"], in: folder)
        #expect(outcome.status == 2, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stderr.contains(text), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("example.com"), "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("reports").path))
    }
}
