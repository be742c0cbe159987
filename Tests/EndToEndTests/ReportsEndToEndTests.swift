import Audit
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TestSupport

/// The report options through the real binary against the local nginx: baselines across runs,
/// every format, --json, --strict, --quiet, --keep, and the progress line on a terminal.
@Suite struct ReportsEndToEndTests {
    /// Arguments every run here shares: trust the test CA, no CDN (these tests are about reports).
    static func common(_ sites: LocalSites) -> [String] {
        ["--cacert", sites.certificateAuthority.certificatePath, "--no-cdn", "--timeout", "3", "--connect-timeout", "2"]
    }

    /// `folder/domains.txt` holding `domains`, one per line: the list a run without DOMAIN arguments reads.
    static func writeList(_ domains: [String], in folder: URL) throws {
        try (domains.joined(separator: "\n") + "\n").write(to: folder.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
    }

    static func runFolders(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("reports").path)
            .filter { $0 != "latest" && !$0.hasPrefix(".") && !$0.hasPrefix("history.sqlite") }.sorted()
    }

    @Test func twoRunsInARowNameTheDomainThatBrokeAsNewlyFailing() throws {
        let sites = try LocalSites.shared.get()
        let folder = try AuditBinary.temporaryDirectory()
        let domains = ["good.test", "wellknown-only.test"]
        // A run of the domain list: only such runs move latest and are compared with it.
        try Self.writeList(domains, in: folder)
        let formats = ["--format", "json,html,md,junit"]
        let first = try AuditBinary.run(Self.common(sites) + formats + sites.connectToArguments, in: folder)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(!first.stderr.contains("comparing with"), "the first run has no baseline")
        let firstRun = try #require(try Self.runFolders(in: folder).first)

        // good.test breaks: its connections now go to a port nothing listens on (curl takes the
        // first --connect-to entry that matches, so this one wins over the general mapping).
        let broken = ["--connect-to", "good.test:443:127.0.0.1:\(sites.closedPort)"]
        let second = try AuditBinary.run(Self.common(sites) + formats + broken + sites.connectToArguments, in: folder)
        #expect(second.status == 1, "\(second.stderr)")
        #expect(second.stderr.contains("comparing with reports/\(firstRun)/report.json"), "\(second.stderr)")
        #expect(second.stdout.contains("1 newly failing"), "\(second.stdout)")

        let latest = folder.appendingPathComponent("reports/latest")
        let report = try AuditBinary.readReport(at: latest.appendingPathComponent("report.json"))
        let changes = try #require(report.changes)
        #expect(changes.baselinePath == "reports/\(firstRun)/report.json")
        #expect(changes.newlyFailing.map(\.domain) == ["good.test"])
        #expect(changes.newlyFailing.first?.from == .pass && changes.newlyFailing.first?.reason?.id == "network.refused")
        #expect(changes.recovered.isEmpty && changes.domainsAdded.isEmpty && changes.domainsRemoved.isEmpty)
        #expect(changes.findingsAppeared.contains { $0.domain == "good.test" && $0.id == "network.refused" })

        let markdown = try String(contentsOf: latest.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(markdown.contains("- **Newly failing:** good.test (was pass): `network.refused`"), "\(markdown)")
        #expect(markdown.contains("| good.test | ✖ **fail** |"))
        let html = try String(contentsOf: latest.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(html.contains("<span class=\"badge fail\">newly failing</span> <a href=\"#d-good-test\">good.test</a>"))
        let junit = try XMLDocument(contentsOf: latest.appendingPathComponent("report.junit.xml"), options: [])
        let suites = junit.rootElement()?.elements(forName: "testsuite") ?? []
        #expect(suites.map { $0.attribute(forName: "name")?.stringValue ?? "" } == domains)
        #expect(suites.map { $0.attribute(forName: "failures")?.stringValue ?? "" } == ["2", "0"], "network at both locations")
        // The first run's folder still holds the first report, untouched.
        let old = try AuditBinary.readReport(at: folder.appendingPathComponent("reports/\(firstRun)/report.json"))
        #expect(old.changes == nil && old.summary.fail == 0)
    }

    @Test func aBaselineThatCannotBeReadIsAWarningNamingTheFile() throws {
        let sites = try LocalSites.shared.get()
        let folder = try AuditBinary.temporaryDirectory()
        try "{\"schemaVersion\": 1, \"tool\": 3}".write(to: folder.appendingPathComponent("broken.json"), atomically: true, encoding: .utf8)
        try "not json".write(to: folder.appendingPathComponent("text.json"), atomically: true, encoding: .utf8)
        for (file, reason) in [("missing.json", "no such file"), ("broken.json", "it is not an aasa-audit report.json (unexpected value at .tool)"),
                               ("text.json", "it is not an aasa-audit report.json (not valid JSON)"), (".", "it is a folder")] {
            let outcome = try AuditBinary.run(Self.common(sites) + ["--out", "out", "--baseline", file] + sites.connectToArguments + ["good.test"],
                                              in: folder)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stderr.contains("warning: cannot use the baseline \(file): \(reason)"), "\(outcome.stderr)")
            let report = try AuditBinary.readReport(at: folder.appendingPathComponent("out/report.json"))
            #expect(report.changes == nil)
        }
        // A readable one, given explicitly, works with --out too.
        let outcome = try AuditBinary.run(Self.common(sites) + ["--out", "again", "--baseline", "out/report.json"] + sites.connectToArguments + ["good.test"],
                                          in: folder)
        #expect(outcome.stderr.contains("comparing with out/report.json"))
        let report = try AuditBinary.readReport(at: folder.appendingPathComponent("again/report.json"))
        #expect(report.changes?.isEmpty == true && report.changes?.baselinePath == "out/report.json")
        // --no-baseline: the previous reports/latest is ignored.
        try Self.writeList(["good.test"], in: folder)
        _ = try AuditBinary.run(Self.common(sites) + sites.connectToArguments, in: folder)
        let ignored = try AuditBinary.run(Self.common(sites) + ["--no-baseline"] + sites.connectToArguments, in: folder)
        #expect(!ignored.stderr.contains("comparing with"))
        #expect(try AuditBinary.readReport(at: folder.appendingPathComponent("reports/latest/report.json")).changes == nil)
    }

    @Test func jsonPrintsTheReportAloneOnStdout() throws {
        let sites = try LocalSites.shared.get()
        let folder = try AuditBinary.temporaryDirectory()
        let outcome = try AuditBinary.run(Self.common(sites) + ["--json", "--out", "out"] + sites.connectToArguments + ["good.test", "notfound.test"],
                                          in: folder)
        #expect(outcome.status == 1)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let report = try decoder.decode(AuditReport.self, from: Data(outcome.stdout.utf8))
        #expect(report.domains.map(\.domain) == ["good.test", "notfound.test"])
        #expect(outcome.stderr.contains("2 domains: 1 pass, 0 warn, 1 fail"), "the summary goes to stderr")
        #expect(outcome.stderr.contains("Reports: "))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/report.html").path))
    }

    @Test func strictMakesWarningsFail() throws {
        let sites = try LocalSites.shared.get()
        let arguments = Self.common(sites) + ["--out", "out", "--format", "junit,json"] + sites.connectToArguments + ["root-only.test"]
        let folder = try AuditBinary.temporaryDirectory()
        let plain = try AuditBinary.run(arguments, in: folder)
        #expect(plain.status == 0, "a warning alone passes")
        let lenient = try String(contentsOf: folder.appendingPathComponent("out/report.junit.xml"), encoding: .utf8)
        let strict = try AuditBinary.run(["--strict"] + arguments, in: folder)
        #expect(strict.status == 1, "--strict: the warning fails the run")
        let junit = try String(contentsOf: folder.appendingPathComponent("out/report.junit.xml"), encoding: .utf8)
        #expect(lenient.contains("<testsuites name=\"aasa-audit\" tests=\"19\" failures=\"0\""), "\(lenient.prefix(300))")
        #expect(junit.contains("<failure type=\"http.root-only\""))
    }

    @Test func quietPrintsNothingWhenAllIsWell() throws {
        let sites = try LocalSites.shared.get()
        let outcome = try AuditBinary.run(Self.common(sites) + ["--quiet", "--out", "out"] + sites.connectToArguments + ["good.test"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.isEmpty && outcome.stderr.isEmpty, "\(outcome.stdout)\(outcome.stderr)")
        // A line that is not a domain is a problem with the run: said on stderr even when quiet.
        let bad = try AuditBinary.run(Self.common(sites) + ["--quiet", "--out", "out"] + sites.connectToArguments + ["good.test", "not a domain"])
        #expect(bad.status == 2)
        #expect(bad.stdout.isEmpty)
        #expect(bad.stderr.hasPrefix("aasa-audit: argument 2: \"not a domain\": "), "\(bad.stderr)")
    }

    @Test func keepPrunesOnlyOldReportFoldersItMade() throws {
        let sites = try LocalSites.shared.get()
        let folder = try AuditBinary.temporaryDirectory()
        let reports = folder.appendingPathComponent("reports")
        let manager = FileManager.default
        func make(_ name: String, files: [String]) throws {
            try manager.createDirectory(at: reports.appendingPathComponent(name), withIntermediateDirectories: true)
            for file in files { try "x".write(to: reports.appendingPathComponent("\(name)/\(file)"), atomically: true, encoding: .utf8) }
        }
        try make("20200101T000000Z", files: ["report.json", "report.html"])
        try make("20200102T000000Z", files: ["report.json", "notes.txt"])      // someone's file inside: left alone
        try make("20200103T000000Z-1", files: ["report.md", "report.junit.xml"])
        try make("20200103T000000Z", files: ["report.json"])
        try make("archive", files: ["report.json"])                             // not a run folder
        try manager.createSymbolicLink(atPath: reports.appendingPathComponent("20200104T000000Z").path, withDestinationPath: "archive")
        try Self.writeList(["good.test"], in: folder)
        let outcome = try AuditBinary.run(Self.common(sites) + ["--keep", "2", "--no-baseline"] + sites.connectToArguments, in: folder)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let current = try manager.destinationOfSymbolicLink(atPath: reports.appendingPathComponent("latest").path)
        let all = try manager.contentsOfDirectory(atPath: reports.path).sorted()
        #expect(all.contains("history.sqlite"), "--keep leaves the history alone: \(all)")
        let left = all.filter { !$0.hasPrefix("history.sqlite") }
        #expect(left == ["20200102T000000Z", "20200103T000000Z-1", "20200104T000000Z", "archive", current, "latest"].sorted())
        #expect(outcome.stderr.contains("--keep: left reports/20200102T000000Z in place: it holds notes.txt"), "\(outcome.stderr)")
    }

    @Test(arguments: [
        (["--format", "pdf"], "choose from json, html, md, junit, prom"),
        (["--keep", "0"], "--keep \"0\": expected 1 to"),
        (["--keep", "3", "--out", "x", "a.example"], "it prunes reports/<UTC time> folders"),
        (["--baseline", "a.json", "--no-baseline", "a.example"], "--no-baseline contradicts it"),
        (["--baseline"], "--baseline needs a value"),
    ])
    func reportOptionUsageErrors(arguments: [String], text: String) throws {
        let outcome = try AuditBinary.run(arguments)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains(text), "\(outcome.stderr)")
    }

    /// On a terminal (a pseudo-terminal made by script(1)), a progress line is drawn on stderr and
    /// erased; NO_COLOR removes colour only; TERM=dumb or --quiet turn the line off, and it never
    /// appears when stderr is not a terminal.
    @Test func progressLineOnlyOnATerminal() throws {
        guard let script = ShellCommand.which("script") else { throw HarnessError.missingProgram("script (bsdutils)") }
        let sites = try LocalSites.shared.get()
        let binary = try AuditBinary.path()
        let arguments = [binary] + Self.common(sites) + ["--out", "out"] + sites.connectToArguments + ["good.test", "wellknown-only.test"]
        let command = arguments.map { "'\($0)'" }.joined(separator: " ")
        func onTerminal(_ environment: [String: String], extra: String = "") throws -> String {
            let folder = try AuditBinary.temporaryDirectory()
            var env = ProcessInfo.processInfo.environment
            env["TERM"] = "xterm"
            env["NO_COLOR"] = nil
            for (key, value) in environment { env[key] = value }
            return try ShellCommand.run(script, ["-qefc", command + extra, "/dev/null"], directory: folder, environment: env, checked: false).stdout
        }
        let tty = try onTerminal([:])
        #expect(tty.contains("Auditing: 2/2 domains, "), "\(tty.debugDescription)")
        #expect(tty.contains("\r\u{1B}[K"), "the line is erased at the end")
        #expect(tty.contains("\u{1B}[1;32mPASS\u{1B}[0m"), "a coloured summary on a terminal")
        // NO_COLOR removes colour only: the progress line stays (drawn and erased with \r and ESC [K,
        // which are no colour); TERM=dumb removes both.
        let noColour = try onTerminal(["NO_COLOR": "1"])
        #expect(noColour.contains("Auditing: 2/2 domains, "), "\(noColour.debugDescription)")
        #expect(!noColour.replacingOccurrences(of: "\r\u{1B}[K", with: "").contains("\u{1B}"), "\(noColour.debugDescription)")
        #expect(noColour.contains("PASS"))
        let dumb = try onTerminal(["TERM": "dumb"])
        #expect(!dumb.contains("Auditing:") && !dumb.contains("\u{1B}"), "\(dumb.debugDescription)")
        let quiet = try onTerminal([:], extra: " --quiet")
        #expect(!quiet.contains("Auditing:"))
        let piped = try AuditBinary.run(Array(arguments.dropFirst()))
        #expect(!piped.stderr.contains("Auditing:") && !piped.stderr.contains("\u{1B}"))
    }
    /// The progress line moves while a slow domain holds the run: a domain that finishes right
    /// after the first draw is counted within a tick (not only at the end), and the elapsed time
    /// ticks although no other domain finishes.
    @Test func progressLineMovesWhileASlowDomainHoldsTheRun() throws {
        guard let script = ShellCommand.which("script") else { throw HarnessError.missingProgram("script (bsdutils)") }
        let sites = try LocalSites.shared.get()
        let arguments = [try AuditBinary.path()] + Self.common(sites) + ["--out", "out", "--timeout", "3"] + sites.connectToArguments
            + ["good.test", "slow.test"]
        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = "xterm"
        environment["NO_COLOR"] = nil
        let folder = try AuditBinary.temporaryDirectory()
        let tty = try ShellCommand.run(script, ["-qefc", arguments.map { "'\($0)'" }.joined(separator: " "), "/dev/null"],
                                       directory: folder, environment: environment, checked: false).stdout
        let drawn = tty.components(separatedBy: "\r\u{1B}[K").filter { $0.hasPrefix("Auditing: ") }
        // slow.test takes the whole 3 s; good.test is done long before.
        let halfWay = drawn.filter { $0.hasPrefix("Auditing: 1/2 domains, ") }
        #expect(!halfWay.isEmpty, "good.test is counted before the slow domain ends: \(drawn)")
        let elapsed = halfWay.compactMap { Double($0.dropFirst("Auditing: 1/2 domains, ".count).prefix { $0 != " " }) }
        #expect(elapsed.contains { $0 >= 1.0 }, "the elapsed time ticks while nothing finishes: \(drawn)")
    }
}
