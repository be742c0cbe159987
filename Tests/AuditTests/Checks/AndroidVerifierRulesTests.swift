import AASA
import Fetching
import Foundation
import Testing
@testable import Audit

private typealias F = CheckFixtures

/// Android's verifier's own rules (AOSP StatementService): the 1 MiB it reads, its 5 s connect and
/// read timeouts, and the lists a file includes, followed one level.
@Suite struct AndroidVerifierRulesTests {
    static let url = "https://example.com/.well-known/assetlinks.json"
    static let release = "D2:EA:8B:A3:B0:4B:5C:C0:6A:4B:48:E5:AD:5F:C2:9B:22:4D:63:67:A4:A5:26:1D:22:27:71:49:48:38:A7:0C"
    static let statement = #"{"relation":["delegate_permission/common.handle_all_urls"],"target":{"namespace":"android_app","package_name":"com.exemplo.app","sha256_cert_fingerprints":[""# + release + #""]}}"#

    static func location(_ response: FetchResponse) -> FetchedLocation {
        FetchedLocation(path: AssetLinksFile.path, fetch: LocationFetch(response: response), now: F.now, settings: AuditSettings(), kind: .assetLinks)
    }

    /// A statement list of `size` bytes: one statement, padded with spaces.
    static func list(bytes size: Int) -> String {
        let body = "[" + statement + "]"
        return body + String(repeating: " ", count: max(0, size - body.utf8.count))
    }

    /// (bytes read, read stopped at the limit, the read limit, Content-Length, Content-Encoding, the size finding).
    @Test(arguments: [
        (1_048_576, false, 1 << 20, nil, nil, nil),
        (1_048_577, false, 1 << 21, nil, nil, "assetlinks.too-large"),
        (1_048_576, true, 1 << 20, nil, nil, "assetlinks.too-large"),
        (200_000, true, 200_000, nil, nil, "assetlinks.too-large-to-check"),
        (1_000, false, 1 << 20, "2000000", nil, "assetlinks.too-large"),
        (1_000, false, 1 << 20, "1048576", nil, nil),
        // Compressed, the length is the encoded body's, which Android's transparent decoding hides.
        (1_000, false, 1 << 20, "2000000", "gzip", nil),
    ] as [(Int, Bool, Int, String?, String?, String?)])
    func androidReadsAtMostOneMebibyte(size: Int, truncated: Bool, limit: Int, contentLength: String?, encoding: String?, expected: String?) {
        var response = F.response(body: Self.list(bytes: size), url: Self.url)
        response.bytes = ByteCounts(transferred: size, decoded: size, truncated: truncated, limit: limit)
        if let contentLength { response.headers.append(HTTPHeader(name: "Content-Length", value: contentLength)) }
        if let encoding { response.headers.append(HTTPHeader(name: "Content-Encoding", value: encoding)) }
        let ids = RuleRegistry.locationChecks.flatMap { $0.findings(for: Self.location(response)) }.map(\.id)
        #expect(ids.filter { $0.hasPrefix("assetlinks.too-large") } == (expected.map { [$0] } ?? []), "\(ids)")
    }

    /// A file over the limit meets no expectation, whatever it says: Android takes nothing from it.
    @Test func aFileOverTheLimitMeetsNoExpectation() throws {
        var response = F.response(body: Self.list(bytes: 1_048_600), url: Self.url)
        response.bytes = ByteCounts(transferred: 1_048_600, decoded: 1_048_600, truncated: false, limit: 1 << 21)
        let notFound = F.response(status: 404, contentType: "text/html", body: "")
        let site = SiteFetch(domain: "example.com", wellKnown: LocationFetch(response: notFound), root: LocationFetch(response: notFound),
                             android: LocationFetch(response: response))
        let result = Auditor(now: F.now).audit(site, expectations: try DomainExpectations.parse(["android=com.exemplo.app"]))
        #expect(result.android?.location.usable == false)
        #expect(result.android?.findings.map(\.id) == ["expect.android-unchecked"])
    }

    /// (curl's cumulative timers: DNS, connect, TLS, first byte; the phases over 5 s).
    @Test(arguments: [
        (Timings(dnsMs: 10, connectMs: 40, tlsMs: 90, firstByteMs: 120, totalMs: 130), [String]()),
        (Timings(dnsMs: 6_000, connectMs: 6_040, tlsMs: 6_090, firstByteMs: 6_120, totalMs: 6_130), []),
        (Timings(dnsMs: 10, connectMs: 5_100, tlsMs: 5_150, firstByteMs: 5_200, totalMs: 5_210), ["the TCP connection"]),
        (Timings(dnsMs: 10, connectMs: 40, tlsMs: 5_200, firstByteMs: 5_300, totalMs: 5_310), ["the TLS handshake"]),
        (Timings(dnsMs: 10, connectMs: 40, tlsMs: 90, firstByteMs: 5_200, totalMs: 5_210), ["the wait for the response"]),
        (Timings(firstByteMs: 5_001, totalMs: 5_002, reusedConnection: true), ["the wait for the response"]),
        (Timings(firstByteMs: 4_999, totalMs: 9_000, reusedConnection: true), []),
    ])
    func eachPhaseIsHeldToAndroidsFiveSeconds(timings: Timings, slow: [String]) {
        #expect(VerifierTimeoutCheck.slowPhases(timings).map(\.phase) == slow)
        var response = F.response(body: "[" + Self.statement + "]", url: Self.url)
        response.timings = timings
        let findings = VerifierTimeoutCheck.findings(for: Self.location(response))
        #expect(findings.map(\.id) == (slow.isEmpty ? [] : ["assetlinks.verifier-timeout"]))
        #expect(findings.first.map { finding in slow.allSatisfy { finding.message.contains($0) } } ?? true)
        // An Apple location is not Android's to judge.
        #expect(VerifierTimeoutCheck.findings(for: FetchedLocation(path: AASAFile.wellKnownPath, fetch: LocationFetch(response: response),
                                                                    now: F.now, settings: AuditSettings())).isEmpty)
    }

    static func included(_ url: String, _ response: FetchResponse) -> IncludedList {
        IncludedList(url: url, fetch: LocationFetch(response: response))
    }

    /// The included lists: read ones count for the file, failed ones are the file's errors, their own
    /// includes are not read, and those past the fetched ones leave the expectations unchecked.
    @Test func includedListsCountForTheFileAndTheirFailuresAreItsOwn() throws {
        let one = "https://lists.example/one.json", two = "https://lists.example/two.json", three = "https://lists.example/three.json"
        let file = #"[{"include":""# + one + #""},{"include":""# + two + #""},{"include":""# + three + #""}]"#
        let notFound = F.response(status: 404, contentType: "text/html", body: "")
        var site = SiteFetch(domain: "example.com", wellKnown: LocationFetch(response: notFound), root: LocationFetch(response: notFound),
                             android: LocationFetch(response: F.response(body: file, url: Self.url)))
        site.androidIncludes = [
            Self.included(one, F.response(body: "[" + Self.statement + #",{"include":"https://deeper.example/x.json"}]"#, url: one)),
            Self.included(two, F.response(status: 404, contentType: "text/html", body: "", url: two)),
        ]
        let expectations = try DomainExpectations.parse(["platforms=android", "android=com.exemplo.app", "sha256=\(Self.release)"])
        let result = Auditor(now: F.now).audit(site, expectations: expectations)
        let android = try #require(result.android)
        #expect(android.findings.map(\.id) == ["assetlinks.include-read", "assetlinks.include-nested", "assetlinks.include-failed",
                                               "assetlinks.include-unchecked", "expect.android-met"], "\(android.findings.map(\.message))")
        #expect(android.findings[2].message.contains(two) && android.findings[2].message.contains("(http.not-found)"))
        #expect(android.findings[3].message.contains(three))
        #expect(android.includes?.map(\.url) == [one, two])
        #expect(android.verdict == .fail && result.verdict == .fail)
    }

    /// Without the included list the expectation is missing; without it fetched, unchecked.
    @Test func whatTheIncludedListsGiveDecidesTheExpectations() throws {
        let one = "https://lists.example/one.json"
        let file = #"[{"include":""# + one + #""}]"#
        let notFound = F.response(status: 404, contentType: "text/html", body: "")
        func audit(_ included: [IncludedList]) throws -> [String] {
            var site = SiteFetch(domain: "example.com", wellKnown: LocationFetch(response: notFound), root: LocationFetch(response: notFound),
                                 android: LocationFetch(response: F.response(body: file, url: Self.url)))
            site.androidIncludes = included
            let result = Auditor(now: F.now).audit(site, expectations: try DomainExpectations.parse(["platforms=android", "android=com.exemplo.app"]))
            return result.android?.findings.map(\.id) ?? []
        }
        #expect(try audit([Self.included(one, F.response(body: "[" + Self.statement + "]", url: one))]) == ["assetlinks.include-read", "expect.android-met"])
        #expect(try audit([Self.included(one, F.response(body: "[]", url: one))]) == ["assetlinks.include-read", "expect.android-missing"])
        #expect(try audit([]) == ["assetlinks.include-unchecked", "expect.android-unchecked"])
    }
}
