import Audit
import Foundation
import Testing
import TestSupport

/// `--google-dal` against a fake of Google's Digital Asset Links API served by the test nginx
/// (`Scenarios.googleDAL`, reached through `--google-dal-base` and `--connect-to` like any host): its
/// answer for each site compared with the site's assetlinks.json, its failures a warning.
@Suite struct GoogleDALEndToEndTests {
    static let domains = ["android-good.test", "android-debug-only.test", "android-html-type.test", "android-invalid.test",
                          "android-lowercase.test", "android-missing.test"]

    static let run: Result<AndroidEndToEndTests.Run, Error> = Result {
        let sites = try LocalSites.shared.get()
        let folder = try AuditBinary.temporaryDirectory()
        let outcome = try AuditBinary.run(
            ["--cacert", sites.certificateAuthority.certificatePath, "--timeout", "2", "--connect-timeout", "2", "--no-cdn",
             "--out", "out", "--format", "json,html,md,junit", "--android", "--google-dal", "--google-dal-base", Scenarios.googleDALBase]
                + sites.connectToArguments + domains, in: folder)
        return AndroidEndToEndTests.Run(outcome: outcome, report: try AuditBinary.readReport(at: folder.appendingPathComponent("out/report.json")), folder: folder)
    }

    func android(_ domain: String) throws -> AndroidResult {
        let result = try #require(try Self.run.get().report.domains.first { $0.domain == domain })
        return try #require(result.android, "\(domain) has no Android part")
    }

    @Test(arguments: [
        // (site, the dal.* findings, Google's answer matches the origin)
        ("android-good.test", ["dal.ok"], true as Bool?),
        ("android-debug-only.test", ["dal.differs"], false),
        ("android-html-type.test", ["dal.error", "dal.differs"], false),
        ("android-invalid.test", ["dal.unreachable"], nil),
        ("android-lowercase.test", ["dal.unreachable"], nil),
        ("android-missing.test", ["dal.unreachable"], nil),
    ] as [(String, [String], Bool?)])
    func googlesViewOfEachSite(_ domain: String, _ ids: [String], _ matches: Bool?) throws {
        let android = try android(domain)
        #expect(android.findings.filter { $0.check == "dal" }.map(\.id) == ids, "\(android.findings.map(\.message))")
        let dal = try #require(android.googleDAL)
        #expect(dal.url == "https://dal.test/v1/statements:list?source.web.site=https://\(domain)&relation=delegate_permission/common.handle_all_urls")
        #expect(dal.matchesOrigin == matches)
    }

    @Test func theFindingsNameTheKeysTheErrorCodesAndTheCacheTime() throws {
        let good = try android("android-good.test")
        #expect(good.googleDAL?.maxAgeSeconds == 86400 && good.googleDAL?.grants?.count == 1)
        #expect(good.findings.first { $0.id == "dal.ok" }?.message.contains("holds for another 24 h (maxAge 86400s)") == true)
        #expect(good.verdict == .pass, "dal.ok is information")

        let differs = try #require(try android("android-debug-only.test").findings.first { $0.id == "dal.differs" })
        #expect(differs.message.contains("Google has \(ScenarioFiles.androidPackage) with \(ScenarioFiles.releaseFingerprint)"), "\(differs.message)")
        #expect(differs.message.contains("the origin lists \(ScenarioFiles.androidPackage) with \(ScenarioFiles.debugFingerprint)"), "\(differs.message)")

        let wrongType = try android("android-html-type.test")
        let error = try #require(wrongType.findings.first { $0.id == "dal.error" })
        #expect(error.message.contains("ERROR_CODE_WRONG_CONTENT_TYPE (the file's Content-Type is not application/json)"), "\(error.message)")
        #expect(error.message.contains("\"Content type was text/html\"") && error.message.contains("maxAge 600s"))
        #expect(wrongType.googleDAL?.errorCodes == ["ERROR_CODE_WRONG_CONTENT_TYPE"])

        let unreachable = try #require(try android("android-invalid.test").findings.first { $0.id == "dal.unreachable" })
        #expect(unreachable.severity == .warning && unreachable.message.contains("answered HTTP 503"))
    }

    @Test func everyReportShowsGooglesView() throws {
        let out = try Self.run.get().folder.appendingPathComponent("out")
        for name in ["report.html", "report.md", "report.junit.xml"] {
            let text = try String(contentsOf: out.appendingPathComponent(name), encoding: .utf8)
            #expect(text.contains("dal.differs") && text.contains("dal.error"), "\(name)")
            // Under a heading (HTML), place (Markdown) or case (JUnit) of its own, not the expectations'.
            #expect(text.contains("Digital Asset Links API</h4>") || name != "report.html")
            #expect(text.contains("(Google") || name != "report.md")
            #expect(text.contains("Android: Google&apos;s Digital Asset Links API") || text.contains("Android: Google's Digital Asset Links API") || name != "report.junit.xml")
        }
        let json = try String(contentsOf: out.appendingPathComponent("report.json"), encoding: .utf8)
        #expect(json.contains("\"googleDAL\""))
    }
}
