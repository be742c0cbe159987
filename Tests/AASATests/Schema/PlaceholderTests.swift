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
        ("ABCDE12345.com.exemplo.app", "ABCDE12345", "the example Team ID of Apple's documentation"),
        ("ABCED12345.com.exemplo.MyApp.Clip", "ABCED12345", "the App Clip in Apple's example file"),
        ("XXXXXXXXXX.com.partner.shop", "XXXXXXXXXX", "one character ten times"),
        ("AAAAAAAAAA.com.partner.shop", "AAAAAAAAAA", "one character ten times"),
        // All digits, but a template's blank, not an App Store ID.
        ("0000000000.com.partner.shop", "0000000000", "one character ten times"),
    ])
    func placeholderTeamIDs(appID: String, team: String, source: String) throws {
        let findings = try Self.appIDFindings(appID)
        #expect(findings.map(\.pointer) == ["/applinks/details/0/appIDs/0", "/webcredentials/apps/0"], "every place it is listed")
        let finding = try #require(findings.first)
        #expect(finding.severity == .warning)
        #expect(finding.message.contains("has the Team ID \(team), a placeholder"), "\(finding.message)")
        #expect(finding.message.contains(source), "\(finding.message)")
        #expect(finding.fix?.contains("real Team ID in place of \(team)") == true, "\(finding.fix ?? "")")
        #expect(AppIDCheck.placeholderTeamID(of: appID) == team)
    }

    /// Apple's documentation app ID itself: one warning, naming the Team ID and the bundle ID both.
    @Test func documentationAppID() throws {
        let findings = try Self.appIDFindings("ABCDE12345.com.example.app")
        #expect(findings.count == 2)
        let finding = try #require(findings.first)
        #expect(finding.message.contains("has the Team ID ABCDE12345"), "\(finding.message)")
        #expect(finding.fix == "Put the app's real Team ID in place of ABCDE12345 (developer account › Membership, or the prefix of its application-identifier entitlement), and its real bundle ID in place of com.example.app.")
    }

    @Test(arguments: [
        ("ABQ7KM3X2P.com.example.app", "com.example.app"), ("ABQ7KM3X2P.com.example", "com.example"),
        ("ABQ7KM3X2P.com.Example.Shop", "com.Example.Shop"),
    ])
    func bundleIDsUnderComExample(appID: String, bundle: String) throws {
        let findings = try Self.appIDFindings(appID)
        #expect(findings.count == 2, "every place it is listed")
        let finding = try #require(findings.first)
        #expect(finding.severity == .warning)
        #expect(finding.message.contains("has the bundle ID \(bundle), under com.example"), "\(finding.message)")
        #expect(finding.fix == "Put the app's real bundle ID (its PRODUCT_BUNDLE_IDENTIFIER) in place of \(bundle).")
        #expect(AppIDCheck.placeholderBundleID(of: appID) == bundle)
    }

    @Test(arguments: ["9ZX8Y7W6V5.com.exemplo.app", "ABCDE12346.com.shop", "abcde12345.com.shop", "ABQ7KM3X2P",
                      "ABQ7KM3X2P.com.examples.app", "ABQ7KM3X2P.org.example.app", "AAAAAAAAAB.com.shop", "ABQ7KM3X2P.com.exampleco.app"])
    func realOrMalformedTeamIDsAreNotPlaceholders(appID: String) throws {
        #expect(try Self.appIDFindings(appID).isEmpty, "a real app ID, or one app-id-format reports")
    }

    /// A placeholder is a warning, and the file's other findings are what they were: a digits-only
    /// prefix that is not all one character is still an App Store ID (an error).
    @Test func anAppStoreIDIsNotAPlaceholder() throws {
        let json = #"{"applinks":{"details":[{"appIDs":["1593741764.com.exemplo.app"],"components":[{"/":"/*"}]}]}}"#
        let document = try #require(AASADocument(json: try JSONParser.parse(Array(json.utf8))))
        #expect(AppIDCheck.findings(in: document).map(\.id) == ["schema.app-id-store-id"])
    }

    static func statementList(package: String, fingerprint: String) -> [UInt8] {
        Array(#"[{"relation":["delegate_permission/common.handle_all_urls"],"target":{"namespace":"android_app","package_name":"\#(package)","sha256_cert_fingerprints":["\#(fingerprint)"]}}]"#.utf8)
    }

    static let real = "9F:3A:2B:10:77:C4:5E:01:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:0A:1B:2C:3D:4E:5F:60:71"

    static let google = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
    static let zeros = String(repeating: "00:", count: 31) + "00"

    @Test(arguments: [
        // (package, fingerprint, ids in order)
        ("com.example", real, ["assetlinks.placeholder-package"]),
        ("com.example.myapplication", real, ["assetlinks.placeholder-package"]),
        ("com.example.app", real, ["assetlinks.placeholder-package"]),
        ("com.example.shop.debug", real, ["assetlinks.placeholder-package"]),
        ("com.Example.App", real, ["assetlinks.placeholder-package"]),
        ("com.examples.app", real, [String]()),
        ("com.exemplo.app", real, []),
        ("org.example.app", real, []),
        ("org.partner.shop", zeros, ["assetlinks.placeholder-fingerprint"]),
        ("org.partner.shop", google, ["assetlinks.placeholder-fingerprint"]),
        ("com.example", google, ["assetlinks.placeholder-package", "assetlinks.placeholder-fingerprint"]),
        // Other forms of the same fingerprint: the form's error, then the placeholder.
        ("org.partner.shop", google.lowercased(), ["assetlinks.fingerprint-lowercase", "assetlinks.placeholder-fingerprint"]),
        ("org.partner.shop", google.replacingOccurrences(of: ":", with: ""), ["assetlinks.fingerprint-no-colons", "assetlinks.placeholder-fingerprint"]),
        ("org.partner.shop", zeros.replacingOccurrences(of: ":", with: ""), ["assetlinks.fingerprint-no-colons", "assetlinks.placeholder-fingerprint"]),
        ("org.partner.shop", real, []),
    ])
    func assetLinksPlaceholders(package: String, fingerprint: String, ids: [String]) throws {
        let findings = AssetLinksValidator.validate(Self.statementList(package: package, fingerprint: fingerprint)).findings
        #expect(findings.map(\.id) == ids, "\(findings.map(\.message))")
        let placeholders = findings.filter { $0.id.contains("placeholder") }
        #expect(placeholders.allSatisfy { $0.severity == .warning })
        // The tool never recommends the value it warns about.
        #expect(findings.allSatisfy { $0.fix?.contains(Self.google) != true && $0.fix?.contains(Self.zeros) != true }, "\(findings.map(\.fix))")
        if let package = placeholders.first(where: { $0.id == "assetlinks.placeholder-package" }) {
            #expect(package.message.contains(package.message.contains("\"com.example\"") ? "Google's example" : "com.example"))
            #expect(package.fix == "Put the app's real applicationId (from its build.gradle) in place of \"\(Self.packageName(package.message))\".")
        }
    }

    static func packageName(_ message: String) -> String {
        guard let start = message.firstIndex(of: "\"") else { return "" }
        let rest = message[message.index(after: start)...]
        return String(rest.prefix { $0 != "\"" })
    }

    /// No fix of the core's rules shows a value a placeholder rule warns about as the one to write.
    @Test func noFixRecommendsAPlaceholder() {
        let rules = SchemaRegistry.rules + AssetLinksValidator.rules
        for rule in rules {
            #expect(!rule.fix.contains("ABCDE12345") && !rule.fix.contains("com.example") && !rule.fix.contains("14:6D:E9"), "\(rule.id): \(rule.fix)")
        }
    }

    @Test func placeholderRulesNameTheirSources() {
        #expect(AppIDCheck.placeholder.meaning.contains("developer.apple.com/documentation/xcode/supporting-associated-domains"))
        #expect(AppIDCheck.placeholder.meaning.contains("RFC 2606"))
        #expect(AssetLinksStatementCheck.placeholderPackage.meaning.contains("developer.android.com/training/app-links/verify-android-applinks"))
        #expect(AssetLinksStatementCheck.placeholderFingerprint.meaning.contains(Self.google))
        #expect(AssetLinksStatementCheck.placeholderFingerprint.meaning.contains("developer.android.com/training/app-links/verify-android-applinks"))
    }
}
