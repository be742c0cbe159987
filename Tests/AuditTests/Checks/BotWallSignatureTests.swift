import Audit
import Fetching
import Foundation
import Testing

/// Each vendor's wall from its headers and page, and the look-alikes that are not walls: a header a
/// vendor adds to every response proves only that the vendor is there.
@Suite struct BotWallSignatureTests {
    typealias F = CheckFixtures

    static func answer(_ status: Int, _ headers: [(String, String)], page: String = "<html>Forbidden</html>") -> FetchResponse {
        F.response(status: status, contentType: "text/html", body: page, headers: headers.map { HTTPHeader(name: $0.0, value: $0.1) })
    }

    static let cases: [(String, FetchResponse, BotWall.Vendor?, BotWall.Kind?, [String])] = [
        ("Cloudflare's challenge header", answer(403, [("cf-mitigated", "challenge"), ("CF-RAY", "8f1c-AMS"), ("Server", "cloudflare")],
                                                 page: "<!DOCTYPE html><html><head><title>Just a moment...</title>"),
         .cloudflare, .challenge, ["cf-mitigated", "cf-ray", "server"]),
        ("Cloudflare's challenge page without the header", answer(503, [("server", "cloudflare"), ("cf-ray", "8f1c-AMS")],
                                                                  page: "<script src=\"/cdn-cgi/challenge-platform/h/b/orchestrate\"></script>"),
         .cloudflare, .challenge, ["cf-ray", "server"]),
        ("Cloudflare's block page", answer(403, [("server", "cloudflare"), ("cf-ray", "8f1c-AMS")],
                                           page: "<title>Attention Required! | Cloudflare</title>"),
         .cloudflare, .block, ["cf-ray", "server"]),
        ("the origin's own 403 passed on by Cloudflare", answer(403, [("server", "cloudflare"), ("cf-ray", "8f1c-AMS")]), nil, nil, []),
        ("AWS WAF's challenge", answer(202, [("x-amzn-waf-action", "challenge")]), .awsWAF, .challenge, ["x-amzn-waf-action"]),
        ("AWS WAF's CAPTCHA", answer(405, [("x-amzn-waf-action", "captcha"), ("server", "awselb/2.0")]), .awsWAF, .challenge,
         ["x-amzn-waf-action"]),
        ("Cloudflare's challenge header behind another server name", answer(403, [("cf-mitigated", "challenge"), ("server", "nginx")]),
         .cloudflare, .challenge, ["cf-mitigated"]),
        ("DataDome's block", answer(403, [("x-datadome", "protected")], page: "<iframe src=\"https://geo.captcha-delivery.com/captcha/\">"),
         .datadome, .challenge, ["x-datadome"]),
        ("DataDome in front of a 404", answer(404, [("x-datadome", "protected")]), nil, nil, []),
        ("Akamai's denial", answer(403, [("Server", "AkamaiGHost")],
                                   page: "<HTML><HEAD><TITLE>Access Denied</TITLE></HEAD><BODY>Reference&#32;&#35;18.1 Reference #18.7a1d2c17.1718409600.3f9b21e"),
         .akamai, .block, ["server"]),
        ("Akamai passing on the origin's 403", answer(403, [("Server", "AkamaiGHost")]), nil, nil, []),
        ("Imperva's incident page", answer(403, [("X-Iinfo", "13-1234567-0 0NNN RT(1700000000000 0)"), ("Set-Cookie", "incap_ses_123_456=abcdef; path=/")],
                                          page: "<html>Request unsuccessful. Incapsula incident ID: 123000450123456789-12345678901234567</html>"),
         .imperva, .block, ["x-iinfo", "set-cookie"]),
        ("Imperva's header on the origin's 403", answer(403, [("X-Iinfo", "13-1234567-0 0NNN")]), nil, nil, []),
        ("Sucuri's block", answer(403, [("X-Sucuri-ID", "17001"), ("X-Sucuri-Block", "BB022"), ("Server", "Sucuri/Cloudproxy")]),
         .sucuri, .block, ["x-sucuri-id", "x-sucuri-block", "server"]),
        ("Sucuri's id on the origin's 403", answer(403, [("X-Sucuri-ID", "17001")]), nil, nil, []),
        ("a plain 403", answer(403, []), nil, nil, []),
    ]

    @Test(arguments: cases)
    func recognises(label: String, response: FetchResponse, vendor: BotWall.Vendor?, kind: BotWall.Kind?, names: [String]) {
        let wall = BotWallSignature.recognise(response)
        #expect(wall?.vendor == vendor, "\(label)")
        #expect(wall?.kind == kind, "\(label)")
        #expect((wall?.evidence ?? []).map(\.name) == names, "\(label): only the headers that prove it")
    }

    @Test func evidenceIsPrintableBoundedAndCookieValuesAreLeftOut() throws {
        let hostile = "challenge\u{1B}]8;;https://evil\u{07}\u{202E}" + String(repeating: "x", count: 300)
        let response = Self.answer(403, [("cf-mitigated", hostile), ("set-cookie", "incap_ses_1=secret")])
        let wall = try #require(BotWallSignature.recognise(response))
        let value = try #require(wall.evidence.first?.value)
        #expect(value.unicodeScalars.allSatisfy { (0x20..<0x7F).contains($0.value) }, "\(value)")
        #expect(value.hasPrefix("challenge?]8;;https://evil??") && value.hasSuffix("..."))
        #expect(value.count <= 123)

        let imperva = Self.answer(403, [("Set-Cookie", "visid_incap_99=topsecret; HttpOnly")], page: "Incapsula incident ID: 1")
        let cookie = try #require(BotWallSignature.recognise(imperva)?.evidence.first)
        #expect(cookie == HeaderField(name: "set-cookie", value: "visid_incap_99=..."))
    }

    /// The crawler check names the wall, its proof and who acts; a wall on both clients with no
    /// readable file anywhere is `access.bot-wall`.
    @Test func crawlerFindingsNameTheWall() throws {
        let wall = Self.answer(403, [("cf-mitigated", "challenge"), ("cf-ray", "8f1c-AMS")], page: "<title>Just a moment...</title>")
        let path = "/.well-known/apple-app-site-association"
        let walled = CrawlerAccessCheck.check(usedLocation: path, tool: [path: F.located(F.response())], crawler: [path: wall],
                                              crawlerUserAgent: "AASA-Bot/1.0.0", toolUserAgent: "aasa-audit/test")
        let blocked = try #require(walled.findings.first)
        #expect(blocked.id == "access.blocks-apple")
        #expect(blocked.message.contains("with HTTP 403 and Cloudflare's challenge (cf-mitigated: challenge, cf-ray: 8f1c-AMS, a page reading \"Just a moment...\")"), "\(blocked.message)")
        #expect(blocked.fix?.contains("The site's CDN/WAF team, in Cloudflare's bot-management and WAF rules") == true)
        #expect(walled.result?.botWall?.vendor == .cloudflare && walled.result?.toolBotWall == nil)

        let both = CrawlerAccessCheck.check(usedLocation: nil, tool: [path: F.located(wall)], crawler: [path: wall],
                                            crawlerUserAgent: "AASA-Bot/1.0.0", toolUserAgent: "aasa-audit/test")
        let finding = try #require(both.findings.first)
        #expect(finding.id == "access.bot-wall" && finding.severity == .error)
        #expect(finding.message.contains("this tool (User-Agent aasa-audit/test) gets the same wall (HTTP 403)"), "\(finding.message)")
        #expect(both.result?.toolBotWall?.vendor == .cloudflare)

        let plain = CrawlerAccessCheck.check(usedLocation: nil, tool: [path: F.located(Self.answer(404, []))], crawler: [path: Self.answer(404, [])],
                                             crawlerUserAgent: "AASA-Bot/1.0.0", toolUserAgent: "aasa-audit/test")
        #expect(plain.findings.isEmpty && plain.result?.botWall == nil, "a 404 to both is the location's finding alone")
    }
}
