import AASA
import Foundation
import Testing
import TestSupport

/// `aasa-audit diff OLD NEW`: what a new version of a file changes, for CI before deploy.
@Suite struct DiffCommandTests {
    static let old = #"{"applinks":{"details":[{"appIDs":["ABQ7KM3X2P.com.exemplo.app"],"components":[{"/":"/buy/*"}]}]}}"#
    static let new = #"{"applinks":{"details":[{"appIDs":["ABQ7KM3X2P.com.exemplo.app"],"components":[{"/":"/buy/checkout/*","exclude":true},{"/":"/buy/*"}]}]}}"#

    func write(_ text: String, named name: String) throws -> String {
        let file = try AuditBinary.temporaryDirectory().appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    @Test func anAddedExclusionExitsOneAndNamesTheURL() throws {
        let outcome = try AuditBinary.run(["diff", try write(Self.old, named: "old.json"), try write(Self.new, named: "new.json")])
        #expect(outcome.status == 1, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains("\n  details 0 (ABQ7KM3X2P.com.exemplo.app): component 0 added { \"/\": \"/buy/checkout/*\", \"exclude\": true }\n"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("1 of 2 sample URLs (one per rule) change decision:"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("/buy/checkout/x opened ABQ7KM3X2P.com.exemplo.app"))
        #expect(outcome.stdout.contains("now stays in the browser"))
        #expect(outcome.stdout.contains("(excluded by details 0, component 0 { \"/\": \"/buy/checkout/*\", \"exclude\": true })"))
    }

    @Test func givenURLsAndJSON() throws {
        let urls = try write("# checkout must stay in the app\n/buy/checkout/1\n\n/buy/42\n", named: "urls.txt")
        let outcome = try AuditBinary.run(["diff", "--json", "--urls", urls, try write(Self.old, named: "old.json"), try write(Self.new, named: "new.json")])
        #expect(outcome.status == 1, "\(outcome.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        #expect(object["urlsDecided"] as? Int == 2 && object["sampled"] as? Bool == false)
        let changes = try #require(object["decisionChanges"] as? [[String: Any]])
        #expect(changes.map { $0["url"] as? String } == ["/buy/checkout/1"])
        #expect((changes.first?["new"] as? [String: Any])?["decision"] as? String == "exclude")
    }

    @Test func theSameRulesExitZero() throws {
        let reordered = #"{"applinks":{"details":[{"components":[{"/":"/buy/*"}],"appIDs":["ABQ7KM3X2P.com.exemplo.app"]}]}}"#
        let outcome = try AuditBinary.run(["diff", try write(Self.old, named: "old.json"), try write(reordered, named: "same.json")])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains("No change to the services, apps, entries or rules from"))
        #expect(outcome.stdout.contains("No decision changes for the 1 sample URL (one per rule) decided with both."))
    }

    /// A domain is the file a device gets from it: root-only.test serves good.json at the root location
    /// only (with --no-cdn, devices are judged by the origin's file).
    @Test func aDomainIsTheFileADeviceGets() throws {
        let sites = try LocalSites.shared.get()
        let outcome = try AuditBinary.run(["diff", "--no-cdn", "--cacert", sites.certificateAuthority.certificatePath] + sites.connectToArguments
                                          + ["root-only.test", try write(Self.new, named: "new.json")])
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("https://root-only.test/apple-app-site-association"), "\(outcome.stderr)")
        #expect(outcome.stdout.contains("webcredentials removed"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("/buy/checkout/x opened ABQ7KM3X2P.com.exemplo.app"))
    }

    /// A domain is fetched as match fetches it: Apple's CDN copy is the version of stale.test (the
    /// file devices read), and a domain whose crawler is refused gives devices no file: no version.
    @Test(arguments: [
        ("stale.test", [String](), "deciding with Apple's CDN copy of https://stale.test/.well-known/apple-app-site-association"),
        ("bot-blocked.test", ["--no-cdn"], "devices get no file"),
        ("bot-blocked.test", [], "devices get no file"),
    ])
    func aDomainIsFetchedAsMatchFetchesIt(domain: String, options: [String], note: String) throws {
        let sites = try LocalSites.shared.get()
        let outcome = try AuditBinary.run(["diff", "--cacert", sites.certificateAuthority.certificatePath] + sites.connectToArguments
                                          + sites.appleCDNArguments + options + [domain, try write(Self.new, named: "new.json")])
        #expect(outcome.stderr.contains(note), "\(outcome.stderr)")
        // A version read: 0 or 1 as the decisions go; none: 2.
        #expect(domain == "stale.test" ? outcome.status != 2 : outcome.status == 2, "\(outcome.stdout)\(outcome.stderr)")
    }

    @Test(arguments: [
        (["diff", "a.json"], "diff needs OLD and NEW"),
        (["diff", "/nonexistent/a.json", "/nonexistent/b.json"], "cannot read /nonexistent/a.json"),
        (["diff", "--urlz", "u", "a", "b"], "unknown option '--urlz'; did you mean '--urls'?"),
    ])
    func usageErrorsExitTwo(arguments: [String], text: String) throws {
        let outcome = try AuditBinary.run(arguments)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains(text), "\(outcome.stderr)")
    }
}
