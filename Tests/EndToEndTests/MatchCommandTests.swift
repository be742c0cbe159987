import AASA
import Foundation
import Testing
import TestSupport

/// `aasa-audit match`: a local file, and a live domain through nginx.
@Suite struct MatchCommandTests {
    static let file = """
        {"applinks": {"details": [{"appIDs": ["ABQ7KM3X2P.com.exemplo.app", "ABQ7KM3X2P.com.exemplo.app2"],
          "components": [{"#": "no_universal_links", "exclude": true}, {"/": "/buy/*"},
                         {"/": "/help/website/*", "exclude": true}, {"/": "/help/*", "?": {"articleNumber": "????"}}]}]}}
        """

    func write(_ text: String) throws -> String {
        let url = try AuditBinary.temporaryDirectory().appendingPathComponent("aasa.json")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    func results(_ stdout: String) throws -> [MatchResult] {
        try stdout.split(separator: "\n").map { try JSONDecoder().decode(MatchResult.self, from: Data($0.utf8)) }
    }

    @Test func fileModeSaysWhichRuleDecides() throws {
        let outcome = try AuditBinary.run(["match", "--file", try write(Self.file), "https://example.com/buy/42", "/help/website/faq", "/nowhere"])
        #expect(outcome.status == 1)
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0].contains("opens ABQ7KM3X2P.com.exemplo.app, ABQ7KM3X2P.com.exemplo.app2"))
        #expect(lines[0].contains(#"details 0, component 1 { "/": "/buy/*" }"#))
        #expect(lines[1].contains("stays in the browser: excluded by details 0, component 2"))
        #expect(lines[2].contains("no rule matches"))
    }

    @Test func jsonLinesForAnApp() throws {
        let outcome = try AuditBinary.run(["match", "--json", "--app", "ABQ7KM3X2P.com.exemplo.app", "--host", "example.com",
                                           "--file", try write(Self.file), "/buy/42", "/help/1?articleNumber=1234"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let parsed = try results(outcome.stdout)
        #expect(parsed.map(\.url) == ["https://example.com/buy/42", "https://example.com/help/1?articleNumber=1234"])
        #expect(parsed.map(\.decision) == [.match, .match])
        #expect(parsed[1].rule?.pointer == "/applinks/details/0/components/3")
        #expect(parsed[0].appIDs == ["ABQ7KM3X2P.com.exemplo.app", "ABQ7KM3X2P.com.exemplo.app2"])
    }

    @Test func liveDomainUsesTheFileAppleWouldUse() throws {
        let sites = try LocalSites.shared.get()
        // root-only.test serves the file only at the legacy root location: Apple falls back to it.
        let outcome = try AuditBinary.run(["match", "--cacert", sites.certificateAuthority.certificatePath, "--json"]
                                          + sites.connectToArguments + ["root-only.test", "/buy/1", "https://root-only.test/sell"])
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("https://root-only.test/apple-app-site-association"))
        let parsed = try results(outcome.stdout)
        #expect(parsed.map(\.decision) == [.match, .noMatch])
        #expect(parsed[0].url == "https://root-only.test/buy/1")
    }

    /// `match DOMAIN` decides with what a device gets: the crawler refused and the CDN's cached failure
    /// mean no file, and a stale CDN copy is the file devices read; the exit status follows.
    @Test(arguments: [
        // (domain, extra options, exit status, the line's words, stderr's words)
        ("bot-blocked.test", [String](), Int32(1),
         "stays in the browser: would open ABQ7KM3X2P.com.exemplo.app (details 0, component 0 { \"/\": \"/buy/*\" }), but devices get no file because Apple's CDN has no copy of bot-blocked.test's file (cdn.missing)",
         "devices get no file"),
        ("bot-blocked.test", ["--no-cdn"], 1, "but devices get no file because bot-blocked.test refuses Apple's crawler (AASA-Bot)", "devices get no file"),
        ("stale.test", [], 1, "no rule matches; the origin's file opens ABQ7KM3X2P.com.exemplo.app", "deciding with Apple's CDN copy of https://stale.test/.well-known/apple-app-site-association"),
        ("good.test", [], 0, "opens ABQ7KM3X2P.com.exemplo.app  (details 0, component 0 { \"/\": \"/buy/*\" }; Apple's CDN copy)", "(what iOS 14+ and macOS 11+ read)"),
        ("good.test", ["--no-cdn"], 0, "opens ABQ7KM3X2P.com.exemplo.app  (details 0, component 0 { \"/\": \"/buy/*\" })", "Apple's CDN was not asked"),
    ])
    func aDomainIsDecidedWithWhatADeviceGets(domain: String, options: [String], status: Int32, line: String, note: String) throws {
        let sites = try LocalSites.shared.get()
        let outcome = try AuditBinary.run(["match", "--cacert", sites.certificateAuthority.certificatePath] + sites.connectToArguments
                                          + sites.appleCDNArguments + options + [domain, "/buy/1"])
        #expect(outcome.status == status, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains(line), "\(outcome.stdout)")
        #expect(outcome.stderr.contains(note), "\(outcome.stderr)")
    }

    /// A bad URL is its own error line: the others are decided (after one fetch), and the exit status is 2.
    @Test func aBadURLDoesNotStopTheOthers() throws {
        let sites = try LocalSites.shared.get()
        let outcome = try AuditBinary.run(["match", "--no-cdn", "--cacert", sites.certificateAuthority.certificatePath] + sites.connectToArguments
                                          + ["good.test", "/buy/1", "mailto:x@example.com", "/sell"])
        #expect(outcome.status == 2)
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2 && lines[0].contains("/buy/1  opens") && lines[1].contains("/sell  stays in the browser"), "\(outcome.stdout)")
        #expect(outcome.stderr.contains("neither an http(s) URL nor a path"))
    }

    @Test func domainWithoutAFileExitsTwo() throws {
        let sites = try LocalSites.shared.get()
        let outcome = try AuditBinary.run(["match", "--cacert", sites.certificateAuthority.certificatePath, "--timeout", "2"]
                                          + sites.connectToArguments + ["notfound.test", "/buy/1"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("notfound.test serves no file Apple can read"))
    }

    @Test(arguments: [
        (["match"], "name a DOMAIN or --file FILE"),
        (["match", "--file", "/nonexistent.json", "/x"], "cannot read /nonexistent.json"),
        (["match", "--frob"], "unknown option '--frob'"),
        (["match", "example.com"], "at least one URL"),
    ])
    func usageErrorsExitTwo(arguments: [String], text: String) throws {
        let outcome = try AuditBinary.run(arguments)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains(text), "\(outcome.stderr)")
    }

    @Test func badURLExitsTwo() throws {
        let outcome = try AuditBinary.run(["match", "--file", try write(Self.file), "mailto:x@example.com"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("neither an http(s) URL nor a path"))
    }

    @Test func helpExplainsTheSubcommand() throws {
        let outcome = try AuditBinary.run(["match", "--help"])
        #expect(outcome.status == 0 && outcome.stdout.contains("USAGE: aasa-audit match"))
        #expect(outcome.stdout.contains("EXIT STATUS"))
    }
}
