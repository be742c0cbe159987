import Audit
import Fetching
import Foundation
import Testing

/// The origin's answer to Apple's crawler against its answer to this tool, from plain values.
@Suite struct CrawlerAccessCheckTests {
    typealias F = CheckFixtures
    static let rootURL = "https://example.com/apple-app-site-association"

    static let good = F.response()
    static let forbidden = F.response(status: 403, contentType: "text/html", body: "<html>Forbidden</html>")
    static let challenge = F.response(contentType: "text/html", body: "<!doctype html><title>Just a moment...</title>")
    static let otherFile = F.response(body: #"{"webcredentials":{"apps":["ABQ7KM3X2P.com.exemplo.app"]}}"#)
    static let notFound = F.response(status: 404, contentType: "text/html", body: "not found")
    static let reset = F.response(status: nil, contentType: nil, body: "", error: F.failure(.reset, 56, "Connection reset by peer"), tls: nil)

    @Test(arguments: [
        // (tool's .well-known, crawler's .well-known, domain verdict, ids, crawler status, sameBody)
        (good, good, Verdict.pass, [String](), 200 as Int?, true as Bool?),
        (good, forbidden, .fail, ["access.blocks-apple"], 403, nil),
        (good, challenge, .fail, ["access.blocks-apple"], 200, false),
        (good, otherFile, .fail, ["access.blocks-apple"], 200, false),
        (good, reset, .fail, ["access.blocks-apple"], nil, nil),
        (notFound, notFound, .fail, [], 404, nil),
        (forbidden, good, .fail, ["access.blocks-tool"], 200, nil),
    ])
    func wellKnown(tool: FetchResponse, crawler: FetchResponse, verdict: Verdict, ids: [String], status: Int?, same: Bool?) throws {
        let notFoundRoot = F.response(status: 404, body: "", url: Self.rootURL)
        let site = SiteFetch(domain: "example.com", wellKnown: LocationFetch(response: tool), root: LocationFetch(response: notFoundRoot),
                             crawlerWellKnown: crawler)
        let result = Auditor(settings: AuditSettings(userAgent: "aasa-audit/test"), now: F.now).audit(site)
        #expect(result.verdict == verdict)
        #expect(result.findings.map(\.id) == ids)
        let crawled = try #require(result.crawler)
        #expect(crawled.userAgent == "AASA-Bot/1.0.0")
        #expect(crawled.path == AASAFile.wellKnownPath)
        #expect(crawled.httpStatus == status)
        #expect(crawled.toolHTTPStatus == tool.status)
        #expect(crawled.sameBody == same)
    }

    @Test func blockedMessageNamesBothUserAgentsAndStatuses() throws {
        let (_, findings) = CrawlerAccessCheck.check(
            usedLocation: AASAFile.wellKnownPath, tool: [AASAFile.wellKnownPath: F.located(Self.good)],
            crawler: [AASAFile.wellKnownPath: Self.forbidden], crawlerUserAgent: "AASA-Bot/1.0.0", toolUserAgent: "aasa-audit/test")
        let message = try #require(findings.first?.message)
        for text in ["User-Agent AASA-Bot/1.0.0) with HTTP 403", "User-Agent aasa-audit/test) with HTTP 200", "Apple's CDN"] {
            #expect(message.contains(text), "\(text) missing from: \(message)")
        }
        #expect(findings.first?.severity == .error)
    }

    @Test func rootLocationIsComparedWhenAppleFallsBackToIt() throws {
        let site = SiteFetch(domain: "example.com",
                             wellKnown: LocationFetch(response: Self.notFound),
                             root: LocationFetch(response: F.response(url: Self.rootURL)),
                             crawlerWellKnown: Self.notFound,
                             crawlerRoot: F.response(status: 403, body: "", url: Self.rootURL))
        let result = Auditor(now: F.now).audit(site)
        #expect(result.usedLocation == AASAFile.rootPath)
        #expect(result.findings.map(\.id) == ["http.root-only", "access.blocks-apple"])
        #expect(result.crawler?.path == AASAFile.rootPath)
        #expect(result.verdict == .fail)
    }

    @Test func withoutACrawlerFetchThereIsNoCrawlerResult() {
        let site = SiteFetch(domain: "example.com", wellKnown: LocationFetch(response: Self.good), root: LocationFetch(response: Self.good))
        let result = Auditor(now: F.now).audit(site)
        #expect(result.crawler == nil)
        #expect(result.findings.isEmpty)
    }
}
