import AASA
import Foundation
import Testing
import TestSupport

/// `aasa-audit match`: a local file, and a live domain through nginx.
@Suite struct MatchCommandTests {
    static let file = """
        {"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app", "ABCDE12345.com.example.app2"],
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
        #expect(lines[0].contains("opens ABCDE12345.com.example.app, ABCDE12345.com.example.app2"))
        #expect(lines[0].contains(#"details 0, component 1 { "/": "/buy/*" }"#))
        #expect(lines[1].contains("stays in the browser: excluded by details 0, component 2"))
        #expect(lines[2].contains("no rule matches"))
    }

    @Test func jsonLinesForAnApp() throws {
        let outcome = try AuditBinary.run(["match", "--json", "--app", "ABCDE12345.com.example.app", "--host", "example.com",
                                           "--file", try write(Self.file), "/buy/42", "/help/1?articleNumber=1234"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let parsed = try results(outcome.stdout)
        #expect(parsed.map(\.url) == ["https://example.com/buy/42", "https://example.com/help/1?articleNumber=1234"])
        #expect(parsed.map(\.decision) == [.match, .match])
        #expect(parsed[1].rule?.pointer == "/applinks/details/0/components/3")
        #expect(parsed[0].appIDs == ["ABCDE12345.com.example.app", "ABCDE12345.com.example.app2"])
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
