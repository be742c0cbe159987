import AASA
import Testing

/// Documentation and template values that no real app has: warnings, each naming its source.
@Suite struct PlaceholderTests {
    static func appIDFindings(_ appID: String) throws -> [Finding] {
        let json = #"{"applinks":{"details":[{"appIDs":["\#(appID)"],"components":[{"/":"/buy/*"}]}]},"webcredentials":{"apps":["\#(appID)"]}}"#
        let document = try #require(AASADocument(json: try JSONParser.parse(Array(json.utf8))))
        return AppIDCheck.findings(in: document).filter { $0.id == "schema.app-id-placeholder" }
    }

    @Test(arguments: [
        ("ABCED12345.com.exemplo.MyApp.Clip", "ABCED12345"), ("XXXXXXXXXX.com.partner.shop", "XXXXXXXXXX"),
    ])
    func placeholderTeamIDs(appID: String, team: String) throws {
        let findings = try Self.appIDFindings(appID)
        #expect(findings.map(\.pointer) == ["/applinks/details/0/appIDs/0", "/webcredentials/apps/0"], "every place it is listed")
        let finding = try #require(findings.first)
        #expect(finding.severity == .warning)
        #expect(finding.message.contains("has the Team ID \(team), a placeholder"), "\(finding.message)")
        #expect(AppIDCheck.placeholderTeamID(of: appID) == team)
    }

    @Test(arguments: ["9ZX8Y7W6V5.com.exemplo.app", "ABCDE12346.com.shop", "abcde12345.com.shop", "ABQ7KM3X2P"])
    func realOrMalformedTeamIDsAreNotPlaceholders(appID: String) throws {
        #expect(try Self.appIDFindings(appID).isEmpty, "a real Team ID, or one app-id-format reports")
    }

    static func statementList(package: String, fingerprint: String) -> [UInt8] {
        Array(#"[{"relation":["delegate_permission/common.handle_all_urls"],"target":{"namespace":"android_app","package_name":"\#(package)","sha256_cert_fingerprints":["\#(fingerprint)"]}}]"#.utf8)
    }

    static let real = "9F:3A:2B:10:77:C4:5E:01:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:0A:1B:2C:3D:4E:5F:60:71"

    @Test(arguments: [
        // (package, fingerprint, placeholder ids)
        ("com.example", real, ["assetlinks.placeholder-package"]),
        ("com.example.myapplication", real, ["assetlinks.placeholder-package"]),
        ("com.examples.app", real, [String]()),
        ("org.partner.shop", String(repeating: "00:", count: 31) + "00", ["assetlinks.placeholder-fingerprint"]),
        ("org.partner.shop", real, []),
    ])
    func assetLinksPlaceholders(package: String, fingerprint: String, ids: [String]) throws {
        let findings = AssetLinksValidator.validate(Self.statementList(package: package, fingerprint: fingerprint)).findings
        #expect(findings.map(\.id) == ids, "\(findings.map(\.message))")
        #expect(findings.allSatisfy { $0.severity == .warning })
    }

    @Test func placeholderRulesNameTheirSources() {
        #expect(AppIDCheck.placeholder.meaning.contains("developer.apple.com/documentation/xcode/supporting-associated-domains"))
        #expect(AssetLinksStatementCheck.placeholderPackage.meaning.contains("developer.android.com/training/app-links/verify-android-applinks"))
    }
}
