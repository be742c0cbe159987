import AASA
@testable import Audit
import Fetching
import Foundation
import Testing

/// Apple's CDN copy against the file Apple takes from the origin, from plain values.
@Suite struct CDNCheckTests {
    typealias F = CheckFixtures
    static let cdnURL = "https://app-site-association.cdn-apple.com/a/v1/example.com"
    static let otherAppJSON = #"{"applinks":{"details":[{"appIDs":["ZYXWV98765.com.exemplo.old"],"components":[{"/":"/buy/*"}]}]}}"#
    static let otherRulesJSON = #"{"applinks":{"details":[{"appIDs":["ABQ7KM3X2P.com.exemplo.app"],"components":[{"/":"/sell/*"}]}]}}"#
    static let reorderedJSON = #"{"applinks":{"details":[{"components":[{"/":"/buy/*"}],"appIDs":["ABQ7KM3X2P.com.exemplo.app"]}]}}"#

    static func served(_ body: String, age: String? = nil) -> FetchResponse {
        var headers = [HTTPHeader(name: "Apple-Origin-Format", value: "json"), HTTPHeader(name: "Cache-Control", value: "max-age=21600")]
        if let age { headers.append(HTTPHeader(name: "Age", value: age)) }
        return F.response(body: body, headers: headers, url: cdnURL)
    }

    static func failed(_ reason: String) -> FetchResponse {
        F.response(status: 404, contentType: nil, body: "", headers: [
            HTTPHeader(name: "Apple-Failure-Reason", value: reason),
            HTTPHeader(name: "Apple-Failure-Details", value: #"{"cause":"x"}"#),
            HTTPHeader(name: "Apple-From", value: "https://example.com/.well-known/apple-app-site-association"),
            HTTPHeader(name: "Apple-Try-Direct", value: "false"),
            HTTPHeader(name: "Cache-Control", value: "max-age=3600"),
        ], url: cdnURL)
    }

    static let unreachable = F.response(status: nil, contentType: nil, body: "", error: F.failure(.dns, 6, "Could not resolve host: app-site-association.cdn-apple.com"), tls: nil, url: cdnURL)

    static var goodOrigin: FetchedLocation { F.located(F.response()) }

    @Test(arguments: [
        // (CDN answer, origin has a usable file, id, matchesOrigin, text the message must contain)
        (served(F.goodJSON), true, "cdn.ok", true as Bool?, "same file"),
        (served(reorderedJSON), true, "cdn.ok", true, "same file"),
        (served(otherAppJSON, age: "7200"), true, "cdn.stale",  false, "app IDs on your server but not on the CDN: ABQ7KM3X2P.com.exemplo.app (applinks); app IDs on the CDN but no longer on your server: ZYXWV98765.com.exemplo.old (applinks)"),
        (served(otherRulesJSON), true, "cdn.stale", false, "applinks rules"),
        (served("<html>cached</html>"), true, "cdn.stale", false, "not a JSON object"),
        (served(F.goodJSON), false, "cdn.stale", false, "fix the origin first"),
        (failed("SWCERR00101 Bad HTTP Response: 403 Forbidden"), true, "cdn.missing", nil, "the CDN's last fetch got HTTP 403 Forbidden from your server"),
        (failed("SWCERR00301 Timeout"), true, "cdn.missing", nil, "timed out waiting for your server"),
        (failed("SWCERR00101 Bad HTTP Response: 404 Not Found"), false, "cdn.missing", nil, "Apple cannot read a file at either location of your server"),
        (F.response(status: 404, contentType: nil, body: "", url: cdnURL), true, "cdn.missing", nil, "without a failure reason"),
        (unreachable, true, "cdn.unreachable", nil, "could not be reached from here, so its copy"),
    ])
    func outcome(cdn: FetchResponse, originUsable: Bool, id: String, matches: Bool?, text: String) throws {
        let (result, findings) = CDNCheck.check(cdn: cdn, domain: "example.com", origin: originUsable ? Self.goodOrigin : nil)
        #expect(findings.map(\.id) == [id])
        #expect(result.matchesOrigin == matches)
        let message = try #require(findings.first?.message)
        #expect(message.contains(text), "\(message)")
        #expect(result.url == Self.cdnURL)
        // curl's words are the technical detail of a failed transfer only, never the sentence's.
        #expect(!message.contains("curl"), "\(message)")
        #expect(findings.first?.detail == (id == "cdn.unreachable" ? "curl error 6: Could not resolve host: app-site-association.cdn-apple.com" : nil))
    }

    @Test func failureHeadersAreKeptAndQuotedWithWhatTheUserCanDo() throws {
        let (result, findings) = CDNCheck.check(cdn: Self.failed("SWCERR00101 Bad HTTP Response: 403 Forbidden"), domain: "example.com", origin: Self.goodOrigin)
        #expect(result.httpStatus == 404)
        #expect(result.appleFailureReason == "SWCERR00101 Bad HTTP Response: 403 Forbidden")
        #expect(result.appleFailureDetails == #"{"cause":"x"}"#)
        #expect(result.appleFrom == "https://example.com/.well-known/apple-app-site-association")
        #expect(result.appleTryDirect == "false")
        #expect(result.cacheControl == "max-age=3600")
        let finding = try #require(findings.first)
        #expect(finding.severity == .error)
        for text in ["Apple-Failure-Reason \"SWCERR00101", "Apple-From https://example.com/", "Apple-Try-Direct false",
                     "up to 1 h"] {
            #expect(finding.message.contains(text), "\(text) missing from: \(finding.message)")
        }
        // The same for every domain, said once in the reports' summary (`CDNCheck.refreshFact`).
        #expect(!finding.message.contains("nobody outside Apple"), "\(finding.message)")
        #expect(finding.fix?.contains("applinks:example.com?mode=developer") == true)
        #expect(finding.fix?.contains("AASA-Bot") == true)
    }

    @Test func staleCopySaysWhenItIsDueToRefresh() throws {
        let (result, findings) = CDNCheck.check(cdn: Self.served(Self.otherAppJSON, age: "7200"), domain: "example.com", origin: Self.goodOrigin)
        #expect(result.age == "7200")
        #expect(result.appleOriginFormat == "json")
        #expect(result.differences.count == 2)
        let finding = try #require(findings.first)
        #expect(finding.severity == .warning)
        #expect(finding.message.contains("max-age=21600, Age 7200: this answer is due to expire in about 4 h"), "\(finding.message)")
        #expect(finding.fix?.contains("applinks:example.com?mode=developer") == true)
    }

    @Test(arguments: [
        ("max-age=21600", "30", "about 5 h 59 min"),
        ("public, max-age=\"1800\"", nil, "up to 30 min"),
        ("no-store", nil, "no max-age"),
        (nil, nil, "No Cache-Control header"),
    ] as [(String?, String?, String)])
    func cacheSentence(cacheControl: String?, age: String?, text: String) {
        var response = Self.served(F.goodJSON)
        response.headers.removeAll { $0.name == "cache-control" }
        if let cacheControl { response.headers.append(HTTPHeader(name: "Cache-Control", value: cacheControl)) }
        if let age { response.headers.append(HTTPHeader(name: "Age", value: age)) }
        let message = CDNCheck.check(cdn: response, domain: "example.com", origin: Self.goodOrigin).findings.first?.message ?? ""
        #expect(message.contains(text), "\(message)")
    }

    @Test(arguments: [
        // (CDN answer, domain verdict, domain finding ids): CDN errors fail the domain, warnings warn.
        (served(F.goodJSON), Verdict.pass, ["cdn.ok"]),
        (served(otherAppJSON), .warn, ["cdn.stale"]),
        (failed("SWCERR00301 Timeout"), .fail, ["cdn.missing"]),
        (unreachable, .warn, ["cdn.unreachable"]),
    ])
    func verdictImpact(cdn: FetchResponse, verdict: Verdict, ids: [String]) {
        let site = SiteFetch(domain: "example.com", wellKnown: LocationFetch(response: F.response()),
                             root: LocationFetch(response: F.response(status: 404, body: "", url: "https://example.com/apple-app-site-association")),
                             cdn: cdn)
        let result = Auditor(now: F.now).audit(site)
        #expect(result.verdict == verdict)
        #expect(result.findings.map(\.id) == ids)
        #expect(result.cdn?.url == Self.cdnURL)
        #expect(result.locations[0].verdict == .pass, "the CDN never changes a location's own verdict")
    }

    @Test func theOriginsErrorHeadsTheDomainBeforeTheCDNsEcho() {
        let notFound = F.response(status: 404, contentType: "text/html", body: "")
        let broken = SiteFetch(domain: "example.com", wellKnown: LocationFetch(response: notFound),
                               root: LocationFetch(response: notFound), cdn: Self.failed("SWCERR00101 Bad HTTP Response: 404 Not Found"))
        #expect(Auditor(now: F.now).audit(broken).firstError?.id == "http.not-found")
        let cached = SiteFetch(domain: "example.com", wellKnown: LocationFetch(response: F.response()),
                               root: LocationFetch(response: notFound), cdn: Self.failed("SWCERR00301 Timeout"))
        #expect(Auditor(now: F.now).audit(cached).firstError?.id == "cdn.missing")
    }

    @Test func withoutACDNFetchThereIsNoCDNResult() {
        let site = SiteFetch(domain: "example.com", wellKnown: LocationFetch(response: F.response()),
                             root: LocationFetch(response: F.response()))
        #expect(Auditor(now: F.now).audit(site).cdn == nil)
    }

    /// A copy that lacks the app in applinks names it there, though webcredentials still lists it
    /// (once only "other keys differ: applinks").
    @Test func aCopyLackingTheAppInOneServiceNamesThatService() throws {
        let origin = try #require(try JSONParser.parse(Array(#"{"applinks":{"details":[{"appIDs":["A1B2C3D4E5.com.shop"],"components":[{"/":"/*"}]}]},"webcredentials":{"apps":["A1B2C3D4E5.com.shop"]}}"#.utf8)).root.objectValue)
        let cdn = try #require(try JSONParser.parse(Array(#"{"applinks":{"details":[{"appIDs":["A1B2C3D4E5.com.other"],"components":[{"/":"/*"}]}]},"webcredentials":{"apps":["A1B2C3D4E5.com.shop"]}}"#.utf8)).root.objectValue)
        #expect(CDNCheck.differences(origin: origin, cdn: cdn) == [
            "app IDs on your server but not on the CDN: A1B2C3D4E5.com.shop (applinks)",
            "app IDs on the CDN but no longer on your server: A1B2C3D4E5.com.other (applinks)",
        ])
    }
}
