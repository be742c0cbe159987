import Audit
import Foundation
import Testing
import TestSupport

/// A Cloudflare-style challenge to Apple's crawler on loopback nginx (`cf-challenge.test`: 403,
/// `cf-mitigated: challenge`, a `CF-RAY`, the "Just a moment..." page), audited by the real binary:
/// the report names the vendor, the headers that prove it, and who acts.
@Suite struct BotWallEndToEndTests {
    @Test func cloudflareChallengeToTheCrawlerIsNamedWithItsHeaders() throws {
        let sites = try LocalSites.shared.get()
        let out = try AuditBinary.temporaryDirectory()
        let outcome = try AuditBinary.run(
            ["--cacert", sites.certificateAuthority.certificatePath, "--timeout", "3", "--connect-timeout", "3",
             "--out", out.path, "--format", "json"] + sites.connectToArguments + sites.appleCDNArguments + ["cf-challenge.test"])
        #expect(outcome.status == 1, "\(outcome.stderr)")
        let json = try String(contentsOf: out.appendingPathComponent("report.json"), encoding: .utf8)
        let report = try AuditBinary.readReport(at: out.appendingPathComponent("report.json"))
        let domain = try #require(report.domains.first)
        let crawler = try #require(domain.crawler)
        #expect(crawler.httpStatus == 403 && crawler.toolHTTPStatus == 200)
        let wall = try #require(crawler.botWall, "\(json)")
        #expect(wall.vendor == .cloudflare && wall.kind == .challenge)
        #expect(wall.evidence == [HeaderField(name: "cf-mitigated", value: "challenge"),
                                  HeaderField(name: "cf-ray", value: "8f1c2d3e4a5b6c7d-AMS")], "only the headers that prove it")
        #expect(wall.page == "Just a moment...")
        #expect(crawler.toolBotWall == nil, "this tool got the file")
        let finding = try #require(domain.findings.first)
        #expect(finding.id == "access.blocks-apple" && finding.severity == .error)
        #expect(finding.message.contains("with HTTP 403 and Cloudflare's challenge (cf-mitigated: challenge, cf-ray: 8f1c2d3e4a5b6c7d-AMS, a page reading \"Just a moment...\")"), "\(finding.message)")
        #expect(finding.fix?.hasPrefix("The site's CDN/WAF team, in Cloudflare's bot-management and WAF rules: allow the User-Agent AASA-Bot") == true, "\(finding.fix ?? "")")
        #expect(json.contains(#""botWall""#) && json.contains(#""cloudflare""#), "the wall is in report.json")
    }
}
