import Audit
import Foundation
import Testing
import TestSupport

/// The real binary against a real nginx on loopback, one server name per scenario, reached
/// through --connect-to and trusted through --cacert, as a user auditing a staging server would.
@Suite struct AuditEndToEndTests {
    /// (host, domain verdict, location Apple uses, ids of the domain's own findings (every severity:
    /// location choice, Apple's crawler, Apple's CDN), error and warning ids of its .well-known location).
    /// The run uses the `cdn.test` CDN: domains whose origin works have a fresh copy there (cdn.ok),
    /// the others none (cdn.missing, whose message names the origin as the cause).
    static let expectations: [(String, Verdict, String?, [String], [String])] = [
        ("good.test", .pass, "wk", ["cdn.ok"], []),
        ("wellknown-only.test", .pass, "wk", ["cdn.ok"], []),
        ("charset.test", .pass, "wk", ["cdn.ok"], []),
        ("gzip.test", .pass, "wk", ["cdn.ok"], []),
        ("root-only.test", .warn, "root", ["http.root-only", "cdn.ok"], ["http.not-found"]),
        ("differ.test", .warn, "wk", ["http.locations-differ", "cdn.ok"], []),
        ("wrong-type.test", .warn, "wk", ["cdn.ok"], ["content-type.unexpected"]),
        ("expiring.test", .warn, "wk", ["cdn.ok"], ["tls.expiring-soon"]),
        ("signed.test", .pass, "wk", ["cdn.ok"], []),
        ("redirect.test", .fail, nil, ["cdn.missing"], ["redirect.present"]),
        ("redirect-loop.test", .fail, nil, ["cdn.missing"], ["redirect.present"]),
        ("notfound.test", .fail, nil, ["cdn.missing"], ["http.not-found"]),
        ("error500.test", .fail, nil, ["cdn.missing"], ["http.server-error"]),
        ("html.test", .fail, nil, ["cdn.missing"], ["content-type.unexpected", "http.html-page"]),
        ("large.test", .fail, nil, ["cdn.missing"], ["size.too-large"]),
        ("large-gzip.test", .fail, nil, ["cdn.missing"], ["size.too-large"]),
        ("invalid-json.test", .fail, nil, ["cdn.missing"], ["json.syntax"]),
        ("array-root.test", .fail, nil, ["cdn.missing"], ["json.not-object"]),
        // Files Apple reads with broken entries: the file Apple uses; the domain fails on the entries.
        ("partner.test", .fail, "wk", ["cdn.ok"], ["schema.app-id-format"]),
        ("bad-schema.test", .fail, "wk", ["cdn.missing"], ["schema.misspelled-service", "schema.type", "schema.legacy-apps", "schema.app-id-format", "schema.type"]),
        ("slow.test", .fail, nil, ["cdn.missing"], ["network.timeout"]),
        ("expired.test", .fail, nil, ["cdn.missing"], ["tls.expired"]),
        ("not-yet-valid.test", .fail, nil, ["cdn.missing"], ["tls.not-yet-valid"]),
        ("mismatch.test", .fail, nil, ["cdn.missing"], ["tls.hostname-mismatch"]),
        ("self-signed.test", .fail, nil, ["cdn.missing"], ["tls.self-signed"]),
        ("silent.test", .fail, nil, ["cdn.missing"], ["network.timeout"]),
        ("refused.test", .fail, nil, ["cdn.missing"], ["network.refused"]),
        // Apple's CDN and crawler: the origin is fine, what devices get is not.
        ("stale.test", .warn, "wk", ["cdn.stale"], []),
        ("cdn-failure.test", .fail, "wk", ["cdn.missing"], []),
        ("bot-blocked.test", .fail, "wk", ["access.blocks-apple", "cdn.missing"], []),
    ]

    /// One run over every scenario, shared by the tests below.
    struct Run: Sendable {
        var outcome: ShellCommand.Outcome
        var report: AuditReport
        var directory: URL
    }

    static let run: Result<Run, Error> = Result {
        let sites = try LocalSites.shared.get()
        let out = try AuditBinary.temporaryDirectory()
        let outcome = try AuditBinary.run(
            ["--cacert", sites.certificateAuthority.certificatePath, "--timeout", "2", "--connect-timeout", "2",
             "--out", out.path, "--format", "json,html,prom"] + sites.connectToArguments + sites.appleCDNArguments + expectations.map(\.0))
        return Run(outcome: outcome, report: try AuditBinary.readReport(at: out.appendingPathComponent("report.json")), directory: out)
    }

    func domain(_ host: String) throws -> DomainResult {
        try #require(try Self.run.get().report.domains.first { $0.domain == host })
    }

    @Test(arguments: expectations)
    func scenario(host: String, verdict: Verdict, used: String?, domainIDs: [String], wellKnownIDs: [String]) throws {
        let result = try domain(host)
        #expect(result.verdict == verdict, "\(host): \(result.allFindings.map(\.id))")
        let usedPath = used.map { $0 == "wk" ? "/.well-known/apple-app-site-association" : "/apple-app-site-association" }
        #expect(result.usedLocation == usedPath)
        #expect(result.findings.map(\.id) == domainIDs, "\(host)")
        let wellKnown = try #require(result.locations.first { $0.path == "/.well-known/apple-app-site-association" },
                                     "\(host): no well-known location in \(result.locations.map(\.path))").findings
        #expect(wellKnown.filter { $0.severity != .info }.map(\.id) == wellKnownIDs, "\(host)")
        #expect(result.cdn?.url == "https://cdn.test/a/v1/\(host)")
    }

    @Test func schemaFindingsPointAtTheOffendingValues() throws {
        let run = try Self.run.get()
        let findings = try domain("bad-schema.test").locations[0].findings
        let pointers = Dictionary(grouping: findings, by: \.id).mapValues { $0.compactMap(\.pointer) }
        #expect(pointers["schema.app-id-format"] == ["/applinks/details/0/appIDs/0"])
        #expect(Set(pointers["schema.type"] ?? []) == ["/applinks/details/1/paths", "/applinks/details/0/components/0/exclude"])
        #expect(pointers["schema.misspelled-service"] == ["/webcredential"])
        let html = try String(contentsOf: run.directory.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(html.contains("/applinks/details/0/appIDs/0"))
        #expect(html.contains("did you mean"))
    }

    @Test func signedFileIsUnwrappedAndNamedAsLegacy() throws {
        let ids = try domain("signed.test").locations[0].findings.map(\.id)
        #expect(ids.starts(with: ["content-type.signed", "json.signed"]), "\(ids)")
    }

    /// One domain's section of report.html.
    func section(_ host: String) throws -> String {
        let html = try String(contentsOf: try Self.run.get().directory.appendingPathComponent("report.html"), encoding: .utf8)
        let anchor = "id=\"d-" + host.replacingOccurrences(of: ".", with: "-") + "\""
        let start = try #require(html.range(of: anchor), "no section for \(host)")
        let end = html[start.upperBound...].range(of: "</section>")?.lowerBound ?? html.endIndex
        return String(html[start.lowerBound..<end])
    }

    /// The HTML report tells the true reason a body is not shown, names a body both locations serve
    /// instead of printing it twice, and lists a finding both locations report once.
    @Test func htmlSaysWhyABodyIsNotShownAndShowsSharedThingsOnce() throws {
        let large = try section("large.test")
        #expect(large.contains("Body not shown: it is too large to show ("), "\(large.prefix(3000))")
        #expect(!large.contains("not UTF-8"))
        #expect(try section("signed.test").contains("Body not shown: it is a CMS-signed file (binary); the JSON inside was unwrapped and checked."))
        let stale = try section("stale.test")
        #expect(stale.contains("Served body: the same bytes as <code>/.well-known/apple-app-site-association</code>, shown above."))
        #expect(stale.components(separatedBy: "<pre class=\"body\">").count - 1 == 1, "the file is printed once")
        let expired = try section("expired.test")
        #expect(expired.contains("<h3>At both locations</h3>"))
        #expect(expired.components(separatedBy: "<code>tls.expired</code>").count - 1 == 1, "listed once")
    }

    @Test func exitStatusIsOneWhenADomainFailsAndReportsAreComplete() throws {
        let run = try Self.run.get()
        #expect(run.outcome.status == 1, "\(run.outcome.stderr)")
        #expect(run.report.schemaVersion == AuditReport.currentSchemaVersion)
        #expect(run.report.complete)
        #expect(run.report.summary.domains == Self.expectations.count)
        #expect(run.report.summary.fail == Self.expectations.filter { $0.1 == .fail }.count)
        let html = try String(contentsOf: run.directory.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(html.contains("mismatch.test"))
        // Nothing is left behind under a temporary name.
        let files = try FileManager.default.contentsOfDirectory(atPath: run.directory.path).sorted()
        #expect(files == ["report.html", "report.json", "report.prom"])
    }

    @Test func terminalSummaryHasALinePerDomainAndTotals() throws {
        let stdout = try Self.run.get().outcome.stdout
        for (host, _, _, _, _) in Self.expectations { #expect(stdout.contains(host)) }
        #expect(stdout.contains("\(Self.expectations.count) domains:"))
        #expect(!stdout.contains("\u{1B}"), "no colour when stdout is not a terminal")
    }

    @Test func factsAreRecordedPerLocation() throws {
        let gzip = try domain("gzip.test").locations[0]
        #expect(gzip.headers.first { $0.name == "content-encoding" }?.value == "gzip")
        #expect(gzip.bytes.transferred < gzip.bytes.decoded)
        let good = try domain("good.test")
        #expect(good.locations[0].tls?.certificate?.subjectAltNames == ["good.test"])
        #expect(good.locations[1].timings.reusedConnection, "the root location reuses the .well-known connection")
        let redirect = try #require(try domain("redirect.test").locations[0].redirect)
        #expect(redirect.location == "https://good.test/.well-known/apple-app-site-association")
        #expect(redirect.endServesJSONObject)
        let expired = try #require(try domain("expired.test").locations[0].tls)
        #expect(expired.certificateFromProbe)
        #expect(expired.version != nil, "the probe's TLS version is kept")
        #expect(expired.certificate?.daysLeft == -10)
        #expect(try domain("expiring.test").locations[0].tls?.certificate?.daysLeft == 5)
        #expect(expired.verificationError?.contains("expired") == true)
        let large = try domain("large.test").locations[0]
        #expect(large.bytes.decoded > 131_072 && large.body == nil)
    }

    @Test func cdnAndCrawlerFactsAreRecorded() throws {
        let stale = try #require(try domain("stale.test").cdn)
        #expect(stale.httpStatus == 200 && stale.matchesOrigin == false)
        #expect(stale.age == "7200" && stale.cacheControl == "max-age=21600" && stale.appleOriginFormat == "json")
        #expect(stale.differences == [
            "app IDs on your server but not on the CDN: ABQ7KM3X2P.com.exemplo.app (applinks, webcredentials)",
            "app IDs on the CDN but no longer on your server: ZYXWV98765.com.exemplo.old (applinks)",
            "the applinks rules (details, components, paths, defaults or substitution variables) differ",
        ])
        let staleMessage = try #require(try domain("stale.test").findings.first?.message)
        #expect(staleMessage.contains("due to expire in about 4 h"), "\(staleMessage)")

        let missing = try domain("notfound.test")
        #expect(missing.cdn?.httpStatus == 404 && missing.cdn?.matchesOrigin == nil)
        #expect(missing.cdn?.appleFailureReason == "SWCERR00101 Bad HTTP Response: 404 Not Found")
        #expect(missing.cdn?.appleFrom == "https://notfound.test/.well-known/apple-app-site-association")
        #expect(missing.cdn?.appleTryDirect == "false" && missing.cdn?.cacheControl == "max-age=3600")
        #expect(missing.findings.first?.message.contains("Apple cannot read a file at either location of your server") == true)
        let cached = try #require(try domain("cdn-failure.test").findings.first)
        #expect(cached.message.contains("Your server serves this tool a file Apple can read now, but the CDN's last fetch timed out"), "\(cached.message)")
        #expect(cached.fix?.contains("applinks:cdn-failure.test?mode=developer") == true)

        let blocked = try domain("bot-blocked.test")
        let crawler = try #require(blocked.crawler)
        #expect(crawler.userAgent == "AASA-Bot/1.0.0" && crawler.path == "/.well-known/apple-app-site-association")
        #expect(crawler.httpStatus == 403 && crawler.toolHTTPStatus == 200 && crawler.sameBody == nil)
        #expect(blocked.locations[0].verdict == .pass, "this tool gets the file; only Apple's crawler is refused")
        #expect(blocked.findings[0].message.contains("(User-Agent AASA-Bot/1.0.0) with HTTP 403"), "\(blocked.findings[0].message)")
        #expect(blocked.findings[1].message.contains("got HTTP 403 Forbidden from your server"))
        let good = try #require(try domain("good.test").crawler)
        #expect(good.httpStatus == 200 && good.sameBody == true)
        #expect(try domain("slow.test").crawler == nil, "no response to compare the crawler's with")
    }

    @Test func htmlShowsWhatAppleCDNAndCrawlerGot() throws {
        let run = try Self.run.get()
        let html = try String(contentsOf: run.directory.appendingPathComponent("report.html"), encoding: .utf8)
        func section(_ host: String) throws -> String {
            let anchor = "id=\"d-\(host.replacingOccurrences(of: ".", with: "-"))\""
            return try #require(html.components(separatedBy: "<section class=\"domain ").first { $0.contains(anchor) })
        }
        let blocked = try section("bot-blocked.test")
        #expect(blocked.hasPrefix("v-fail"))
        #expect(blocked.contains("<code>access.blocks-apple</code>"))
        #expect(blocked.contains("<dt>Crawler got</dt><dd><span class=\"bad\">HTTP 403</span></dd>"))
        #expect(blocked.contains("<dt>This tool got</dt><dd>HTTP 200</dd>"))
        #expect(blocked.contains("<dt>Apple-Failure-Reason</dt><dd><code>SWCERR00101 Bad HTTP Response: 403 Forbidden</code></dd>"))
        let stale = try section("stale.test")
        #expect(stale.hasPrefix("v-warn") && stale.contains("<code>cdn.stale</code>"))
        #expect(stale.contains("differs from the origin's file"))
        #expect(stale.contains("<li>app IDs on the CDN but no longer on your server: ZYXWV98765.com.exemplo.old (applinks)</li>"))
        #expect(stale.contains("<dt>Age</dt><dd><code>7200</code></dd>"))
        let missing = try section("notfound.test")
        #expect(missing.contains("<dt>Apple-Try-Direct</dt><dd><code>false</code></dd>"))
        #expect(missing.contains("<dt>Cache-Control</dt><dd><code>max-age=3600</code></dd>"))
        let good = try section("good.test")
        #expect(good.hasPrefix("v-pass") && good.contains("<dt>Copy</dt><dd>the same file as the origin's</dd>"))
        #expect(good.contains("<code>cdn.ok</code>"))
    }

    @Test func unresolvableNameIsReportedAsDNS() throws {
        let out = try AuditBinary.temporaryDirectory()
        let outcome = try AuditBinary.run(["--out", out.path, "--timeout", "3", "--no-cdn", "does-not-exist.invalid"])
        #expect(outcome.status == 1)
        let report = try AuditBinary.readReport(at: out.appendingPathComponent("report.json"))
        #expect(report.domains.first?.locations.first?.findings.map(\.id) == ["network.dns"])
        #expect(report.domains.first?.cdn == nil, "--no-cdn: the CDN is not asked")
        #expect(report.domains.first?.crawler == nil, "no response, nothing to compare the crawler's with")
    }

    @Test func badLinesInTheDomainListAreReportedAndTheRestAudited() throws {
        let sites = try LocalSites.shared.get()
        let folder = try AuditBinary.temporaryDirectory()
        try "# staging\ngood.test\nnot a domain\nhttps://Wellknown-Only.test/path\n10.0.0.1\nexample.com:8443\n\nGOOD.test.\n"
            .write(to: folder.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        let outcome = try AuditBinary.run(["--cacert", sites.certificateAuthority.certificatePath, "--out", "out"] + sites.connectToArguments + sites.appleCDNArguments,
                                          in: folder)
        #expect(outcome.status == 2, "input errors exit 2 even though every audited domain passes")
        // On stderr, whole, before the fetch; never in the summary on stdout.
        #expect(outcome.stderr.contains("aasa-audit: domains.txt:3: \"not a domain\": contains a space: one domain per line"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("domains.txt:5"))
        #expect(outcome.stderr.contains("domains.txt:6"))
        #expect(!outcome.stdout.contains("domains.txt:"))
        #expect(outcome.stderr.contains("domains.txt:4: "), "the note that the host was taken from the URL")
        #expect(outcome.stderr.contains("1 duplicate line audited once"))
        let report = try AuditBinary.readReport(at: folder.appendingPathComponent("out/report.json"))
        #expect(report.domains.map(\.domain) == ["good.test", "wellknown-only.test"])
        #expect(report.inputErrors.map(\.line) == [3, 5, 6])
        #expect(report.inputErrors.allSatisfy { $0.file == "domains.txt" })
    }

    @Test func withoutOutReportsGoToATimestampedFolderAndLatest() throws {
        let sites = try LocalSites.shared.get()
        let folder = try AuditBinary.temporaryDirectory()
        // The domain list (./domains.txt): a run of the list moves latest.
        try "good.test\n".write(to: folder.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        let arguments = ["--cacert", sites.certificateAuthority.certificatePath] + sites.connectToArguments + sites.appleCDNArguments
        let first = try AuditBinary.run(arguments, in: folder)
        #expect(first.status == 0, "\(first.stderr)")
        let second = try AuditBinary.run(arguments, in: folder)
        #expect(second.status == 0)
        let reports = folder.appendingPathComponent("reports")
        let runs = try FileManager.default.contentsOfDirectory(atPath: reports.path).filter { $0 != "latest" && !$0.hasPrefix("history.sqlite") }.sorted()
        #expect(runs.count == 2)
        let latest = try FileManager.default.destinationOfSymbolicLink(atPath: reports.appendingPathComponent("latest").path)
        #expect(latest == runs.last)
        #expect(FileManager.default.fileExists(atPath: reports.appendingPathComponent("latest/report.html").path))
    }

    @Test(arguments: [
        (["--frobnicate"], "unknown option '--frobnicate' (see --help)"),
        (["--timeout"], "--timeout needs a value"),
        (["--timeout", "soon"], "--timeout \"soon\""),
        (["--max-bytes", "1000"], "128 KB"),
        (["--format", "pdf"], "\"pdf\" is not a format"),
        (["--connect-to", "example.com:443"], "HOST:PORT:CONNECT_HOST:CONNECT_PORT"),
        (["--resolve", "example.com:x:1.2.3.4"], "HOST:PORT:ADDRESS"),
        (["--cacert", "/nonexistent/ca.pem", "example.com"], "/nonexistent/ca.pem"),
        (["--domains", "/nonexistent/list.txt"], "/nonexistent/list.txt"),
        (["--apple-cdn", "http://cdn.example/a/v1/", "example.com"], "--apple-cdn \"http://cdn.example/a/v1/\": expected an https:// URL"),
        (["--apple-cdn", "https://cdn.example/a/v1", "example.com"], "the domain is appended to it"),
        (["--apple-cdn", "cdn.example", "example.com"], "expected an https:// URL ending with \"/\""),
        (["--apple-cdn"], "--apple-cdn needs a value"),
        // A flag given a value is refused, not taken as the flag (the same reader serves every subcommand).
        (["--strict=false", "example.com"], "--strict \"false\": this option takes no value"),
        (["validate", "--json=no", "-"], "--json \"no\": this option takes no value"),
        (["merge", "--quiet=1", "a.json"], "--quiet \"1\": this option takes no value"),
        (["match", "--json=0", "--file", "a.json", "/"], "--json \"0\": this option takes no value"),
    ])
    func usageErrorsExitTwoAndSayWhatIsWrong(arguments: [String], text: String) throws {
        let outcome = try AuditBinary.run(arguments)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains(text), "\(outcome.stderr)")
        #expect(outcome.stdout.isEmpty)
    }

    @Test func afterDoubleDashEverythingIsADomain() throws {
        // "--no-cdn" after "--" is a (bad) domain, not the option: reported as a line of input, exit 2.
        let outcome = try AuditBinary.run(["--", "--no-cdn"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("argument 1: \"--no-cdn\": the label \"--no-cdn\" starts with \"-\""), "\(outcome.stderr)")
    }

    @Test func helpAndVersion() throws {
        let help = try AuditBinary.run(["--help"])
        #expect(help.status == 0)
        for option in ["--domains", "--out", "--format", "--concurrency", "--timeout", "--connect-timeout", "--max-bytes",
                       "--connect-to", "--resolve", "--cacert", "--user-agent", "--expiry-warning-days", "--no-cdn", "--apple-cdn",
                       "AASA-Bot/1.0.0", "EXIT STATUS"] {
            #expect(help.stdout.contains(option), "\(option) missing from --help")
        }
        let version = try AuditBinary.run(["--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("aasa-audit 0."))
    }
}
