import AASA
import Audit
import Fetching
import Foundation
import TestSupport
import Testing
@testable import Run

@Suite struct MatchRunTests {
    static let document = """
        {"applinks": {"details": [{"appIDs": ["ABQ7KM3X2P.com.exemplo.app"], "components": [{"/": "/buy/*"}, {"/": "/buy/secret", "exclude": true}]}]}}
        """

    static func file(_ text: String) throws -> String {
        let url = try AuditBinary.temporaryDirectory().appendingPathComponent("aasa.json")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    static let fetch = FetchOptions(userAgent: "aasa-audit/test", connectTo: ["::127.0.0.1:9"], connectTimeout: 2, totalTimeout: 4)

    /// Ctrl-C while an .ipa is read: the read gives up, says so, and nothing is decided.
    @Test func aStoppedReadOfAnIPADecidesNothing() throws {
        let ipa = try AuditBinary.temporaryDirectory().appendingPathComponent("Many.ipa")
        try ZipArchiveWriter.write([.init("Payload/")] + (0..<10_000).map { .init("Payload/f\($0)", stored: true) }, to: ipa)
        let stop = StopSwitch()
        stop.stop()
        var notices: [String] = []
        let results = MatchRun(source: .entitlements(ipa.path, appID: nil), urls: ["https://a.example/"], fetch: Self.fetch, stop: stop)
            .run { notices.append($0) }
        #expect(results == nil)
        #expect(notices.contains { $0.contains("was not read to its end: stopped by a signal") }, "\(notices)")
    }

    /// A URL no entry covers names the app's first applinks entries, not all of an entitlement's thousands.
    @Test func anUncoveredURLNamesTheFirstEntriesOnly() throws {
        let path = try AuditBinary.temporaryDirectory().appendingPathComponent("Many.xcent").path
        let plist: [String: Any] = ["application-identifier": "ABQ7KM3X2P.com.exemplo.app",
                                    "com.apple.developer.associated-domains": (0..<25).map { "applinks:h\($0).example" }]
        try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0).write(to: URL(fileURLWithPath: path))
        let results = MatchRun(source: .entitlements(path, appID: nil), urls: ["https://other.example/"], fetch: Self.fetch).run { _ in }
        let reason = try #require(results?.results.first?.reason)
        #expect(reason.hasSuffix("(its applinks entries: h0.example, h1.example, h2.example, h3.example, h4.example, h5.example, h6.example, "
                                 + "h7.example, h8.example, h9.example and 15 more)"), "\(reason)")
    }

    @Test func decidesEachURLAgainstAFile() throws {
        var notices: [String] = []
        let run = MatchRun(source: .file(try Self.file(Self.document)), urls: ["/buy/1", "https://shop.example/help"],
                           host: "SHOP.example", fetch: Self.fetch)
        let results = try #require(run.run { notices.append($0) }).results
        #expect(notices.isEmpty)
        #expect(results.map(\.decision) == [.match, .noMatch])
        #expect(results.first?.url == "https://shop.example/buy/1", "a path is shown on --host, in ASCII lower case")
        #expect(results.first?.appIDs == ["ABQ7KM3X2P.com.exemplo.app"])
    }

    @Test func saysWhyThereIsNoDecision() throws {
        var notices: [String] = []
        #expect(MatchRun(source: .file(try Self.file("[1]")), urls: ["/a"], fetch: Self.fetch).run { notices.append($0) } == nil)
        #expect(notices.count == 1 && notices[0].contains("is not an AASA document"))
        notices = []
        // A bad URL is its own error line; the others are still decided.
        let mixed = MatchRun(source: .file(try Self.file(Self.document)), urls: ["ftp://x/", "/buy/1"], host: "shop.example", fetch: Self.fetch)
            .run { notices.append($0) }
        #expect(mixed?.refusedURLs == 1 && mixed?.results.map(\.decision) == [.match])
        #expect(notices.count == 1)
        notices = []
        #expect(MatchRun(source: .file("/nonexistent/aasa.json"), urls: ["/a"], fetch: Self.fetch).run { notices.append($0) } == nil)
        #expect(notices == ["cannot read /nonexistent/aasa.json: No such file or directory"])
    }

    /// A file over Apple's 128 KB limit parses, but Apple ignores it whole: `match --file` must not say a
    /// URL opens an app with it (as `match DOMAIN` says nothing opens from such a served file).
    @Test func aFileAppleWouldNotReadDecidesNothing() throws {
        let head = #"{"applinks":{"details":[{"appIDs":["ABQ7KM3X2P.com.exemplo.app"],"components":[{"/":"/*"}]}]},"pad":""#
        let tail = #""}"#
        let over = head + String(repeating: "x", count: 131_073 - head.utf8.count - tail.utf8.count) + tail
        #expect(over.utf8.count == 131_073)
        var notices: [String] = []
        #expect(MatchRun(source: .file(try Self.file(over)), urls: ["/a"], fetch: Self.fetch).run { notices.append($0) } == nil)
        #expect(notices.count == 1 && notices[0].contains("Apple reads no document") && notices[0].contains("size.too-large"), "\(notices)")
        let atLimit = head + String(repeating: "x", count: 131_072 - head.utf8.count - tail.utf8.count) + tail
        notices = []
        let results = try #require(MatchRun(source: .file(try Self.file(atLimit)), urls: ["/a"], fetch: Self.fetch).run { notices.append($0) }).results
        #expect(results.map(\.decision) == [.match])
    }

    @Test func aDomainThatServesNothingIsNamed() {
        var notices: [String] = []
        #expect(MatchRun(source: .domain("shop.example"), urls: ["/a"], fetch: Self.fetch).run { notices.append($0) } == nil)
        #expect(notices.count == 1 && notices[0].hasPrefix("shop.example serves no file Apple can read"), "\(notices)")
        notices = []
        var noCA = Self.fetch
        noCA.caFile = "/nonexistent/ca.pem"
        #expect(MatchRun(source: .domain("shop.example"), urls: ["/a"], fetch: noCA).run { notices.append($0) } == nil)
        #expect(notices == ["--cacert /nonexistent/ca.pem: No such file or directory"])
    }

    static func parsed(_ json: String) -> AASADocument? {
        (try? JSONParser.parse(Array(json.utf8))).flatMap { AASADocument(json: $0) }
    }

    static func device(_ findings: [Finding], cdn: String? = nil) -> DeviceOutcome {
        DeviceOutcome(usedLocation: "/.well-known/apple-app-site-association", usedDocument: parsed(Self.document),
                      wellKnownDocument: parsed(Self.document), cdnDocument: cdn.flatMap(parsed), findings: findings)
    }

    /// `match` decides with what a device gets: a URL the origin's file opens does not open when devices
    /// get no file, and a stale CDN copy that lacks the app is named as the file behind.
    @Test(arguments: [
        ([CDNCheck.missing.finding("x")], String?.none, MatchDecision.noMatch, DeviceFile.none,
         "would open ABQ7KM3X2P.com.exemplo.app (details 0, component 0 { \"/\": \"/buy/*\" }), but devices get no file because Apple's CDN has no copy of shop.example's file (cdn.missing)"),
        ([CrawlerAccessCheck.blocksApple.finding("x")], nil, .noMatch, .none,
         "but devices get no file because shop.example refuses Apple's crawler (AASA-Bot)"),
        ([CDNCheck.stale.finding("x")], #"{"applinks": {"details": [{"appIDs": ["ZYXWV98765.com.exemplo.old"], "components": [{"/": "/*"}]}]}}"#,
         .noMatch, .appleCDN, "the origin's file opens ABQ7KM3X2P.com.exemplo.app (details 0, component 0"),
        ([CDNCheck.ok.finding("x")], MatchRunTests.document, .match, .appleCDN, ""),
        ([CDNCheck.unreachable.finding("x")], nil, .match, .origin, ""),
    ])
    func decidesWithWhatADeviceGets(findings: [Finding], cdn: String?, decision: MatchDecision, file: DeviceFile, reason: String) throws {
        let url = try MatchURL.parse("https://shop.example/buy/1")
        let result = try #require(MatchRun.decideForDevice(url, text: "https://shop.example/buy/1", appID: "ABQ7KM3X2P.com.exemplo.app",
                                                           host: "shop.example", fileHost: "shop.example",
                                                           device: Self.device(findings, cdn: cdn), modeEntry: false))
        #expect(result.decision == decision)
        #expect(result.deviceFile == file)
        #expect(reason.isEmpty ? result.reason == nil : (result.reason ?? "").contains(reason), "\(result.reason ?? "nil")")
    }
}
