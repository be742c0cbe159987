import Testing
@testable import AASA

struct AppIDFormatCase: Sendable, CustomTestStringConvertible {
    let appID: String
    /// Texts the message must contain; empty for a valid app ID.
    let mentions: [String]
    var testDescription: String { appID.debugDescription }
}

private func document(_ text: String) throws -> AASADocument {
    try #require(AASADocument(json: try JSONParser.parse(Array(text.utf8))))
}

/// JSON string literal for `text` (quotes and backslashes escaped).
private func quoted(_ text: String) -> String {
    var output: [UInt8] = []
    JSONValue.writeString(text, to: &output)
    return String(decoding: output, as: UTF8.self)
}

@Test(arguments: [
    AppIDFormatCase(appID: "ABQ7KM3X2P.com.exemplo.app", mentions: []),
    AppIDFormatCase(appID: "284882215.com.facebook.Facebook", mentions: [#"has 9 characters, but a Team ID has 10 (all digits: it looks like an App Store ID"#]),
    AppIDFormatCase(appID: "ABQ7KM3X2P.com.example-app.v2", mentions: []),
    AppIDFormatCase(appID: "TEAMID.com.exemplo.app", mentions: [#"the prefix "TEAMID" has 6 characters, but a Team ID has 10"#]),
    AppIDFormatCase(appID: "abcde12345.com.exemplo.app", mentions: [#"the prefix "abcde12345" has lower-case letters"#]),
    AppIDFormatCase(appID: "com.purchaseplan.ios", mentions: [#""com" has 3 characters"#, "bundle ID with the Team ID missing"]),
    AppIDFormatCase(appID: "AF29P2AX2D", mentions: ["no dot and no bundle ID", "looks like a Team ID"]),
    AppIDFormatCase(appID: "appid_placeholder", mentions: ["there is no dot"]),
    AppIDFormatCase(appID: "ABQ7KM3X2P.com.my_app", mentions: [#"the bundle ID "com.my_app" contains "_", which a bundle ID may not"#]),
    AppIDFormatCase(appID: "ABQ7KM3X2P.com.*", mentions: [#"contains "*""#]),
    AppIDFormatCase(appID: "ABQ7KM3X2P.com.café", mentions: ["contains U+00E9"]),
    AppIDFormatCase(appID: "DEVELOPMENT_TEAM.PRODUCT_BUNDLE_IDENTIFIER",
                    mentions: ["has 16 characters", #"the prefix "DEVELOPMENT_TEAM" contains "_""#, #"the bundle ID "PRODUCT_BUNDLE_IDENTIFIER" contains "_""#]),
    AppIDFormatCase(appID: "$(TeamIdentifierPrefix)com.exemplo.app", mentions: ["placeholder or build variable"]),
    AppIDFormatCase(appID: "<TeamID>.com.exemplo.app", mentions: ["placeholder", #"contains "<", ">""#]),
    AppIDFormatCase(appID: " ABQ7KM3X2P.com.exemplo.app", mentions: ["leading or trailing whitespace"]),
    AppIDFormatCase(appID: "ABQ7KM3X2P.com.exemplo.app\n", mentions: ["leading or trailing whitespace"]),
    AppIDFormatCase(appID: "ABQ7KM3X2P.com.example app", mentions: ["contains whitespace"]),
    AppIDFormatCase(appID: "ABQ7KM3X2P.", mentions: ["nothing follows the dot, so the bundle ID is missing"]),
    AppIDFormatCase(appID: "", mentions: ["it is empty"]),
])
func appIDFormat(_ testCase: AppIDFormatCase) throws {
    let text = #"{"applinks": {"details": [{"appIDs": [\#(quoted(testCase.appID))], "components": []}]}}"#
    let findings = AppIDCheck.findings(in: try document(text))
    if testCase.mentions.isEmpty {
        #expect(findings.isEmpty)
        return
    }
    let finding = try #require(findings.first)
    #expect(findings.count == 1)
    #expect(finding.id == "schema.app-id-format")
    #expect(finding.severity == .error)
    #expect(finding.pointer == "/applinks/details/0/appIDs/0")
    #expect(finding.message.contains("App ID \(quoted(testCase.appID))"), "\(finding.message)")
    for mention in testCase.mentions {
        #expect(finding.message.contains(mention), "\(finding.message)")
    }
}

/// App IDs are read from every place they appear.
@Test(arguments: [
    (#"{"applinks": {"details": [{"appID": "bad", "paths": []}]}}"#, "/applinks/details/0/appID"),
    (#"{"applinks": {"details": [{"appID": "ABQ7KM3X2P.com.a", "appIDs": ["ABQ7KM3X2P.com.b", "bad"]}]}}"#, "/applinks/details/0/appIDs/1"),
    (#"{"applinks": {"details": {"bad/id": {"paths": []}}}}"#, "/applinks/details/bad~1id"),
    (#"{"webcredentials": {"apps": ["ABQ7KM3X2P.com.a", "bad"]}}"#, "/webcredentials/apps/1"),
    (#"{"appclips": {"apps": ["bad"]}}"#, "/appclips/apps/0"),
    (#"{"activitycontinuation": {"apps": [3, "bad"]}}"#, "/activitycontinuation/apps/1"),
])
func appIDFormatEverywhere(_ text: String, _ pointer: String) throws {
    let findings = AppIDCheck.findings(in: try document(text))
    #expect(findings.map(\.id) == ["schema.app-id-format"])
    #expect(findings.first?.pointer == pointer)
}

/// Values that are not strings are the shape checks' findings, not format findings.
@Test func appIDIgnoresNonStrings() throws {
    let text = #"{"applinks": {"details": [{"appID": ["x"], "appIDs": "y"}, 5]}, "webcredentials": {"apps": "z"}}"#
    #expect(AppIDCheck.findings(in: try document(text)).isEmpty)
}

struct DuplicateAppIDCase: Sendable, CustomTestStringConvertible {
    let details: String
    /// (pointer of the later occurrence, pointer of the earlier one the message names)
    let expected: [Pair]
    struct Pair: Sendable {
        let later: String
        let earlier: String
    }
    var testDescription: String { details }
}

private func pair(_ later: String, _ earlier: String) -> DuplicateAppIDCase.Pair { .init(later: later, earlier: earlier) }

@Test(arguments: [
    DuplicateAppIDCase(details: #"[{"appID": "ABQ7KM3X2P.com.a"}, {"appID": "ABQ7KM3X2P.com.b"}]"#, expected: []),
    // Both keys of one entry naming the same app is not a duplicate across entries.
    DuplicateAppIDCase(details: #"[{"appID": "ABQ7KM3X2P.com.a", "appIDs": ["ABQ7KM3X2P.com.a"]}]"#, expected: []),
    DuplicateAppIDCase(details: #"[{"appID": "ABQ7KM3X2P.com.a"}, {"appID": "ABQ7KM3X2P.com.a"}]"#,
                       expected: [pair("/applinks/details/1/appID", "/applinks/details/0/appID")]),
    DuplicateAppIDCase(details: #"[{"appIDs": ["ABQ7KM3X2P.com.b", "ABQ7KM3X2P.com.a"]}, {"appID": "ABQ7KM3X2P.com.c"}, {"appIDs": ["ABQ7KM3X2P.com.c", "ABQ7KM3X2P.com.a"]}]"#,
                       expected: [pair("/applinks/details/2/appIDs/0", "/applinks/details/1/appID"),
                                  pair("/applinks/details/2/appIDs/1", "/applinks/details/0/appIDs/1")]),
    // Reported once per later entry, at its first occurrence.
    DuplicateAppIDCase(details: #"[{"appID": "ABQ7KM3X2P.com.a"}, {"appID": "ABQ7KM3X2P.com.a", "appIDs": ["ABQ7KM3X2P.com.a"]}, {"appIDs": ["ABQ7KM3X2P.com.a"]}]"#,
                       expected: [pair("/applinks/details/1/appID", "/applinks/details/0/appID"),
                                  pair("/applinks/details/2/appIDs/0", "/applinks/details/0/appID")]),
])
func duplicateAppIDs(_ testCase: DuplicateAppIDCase) throws {
    let findings = AppIDCheck.findings(in: try document(#"{"applinks": {"details": \#(testCase.details)}}"#))
    #expect(findings.map(\.pointer) == testCase.expected.map(\.later))
    for (finding, expected) in zip(findings, testCase.expected) {
        #expect(finding.id == "schema.duplicate-app-id")
        #expect(finding.severity == .warning)
        #expect(finding.message.contains("App ID \"ABQ7KM3X2P.com."), "\(finding.message)")
        #expect(finding.message.contains("(at \(expected.earlier))"), "\(finding.message)")
    }
}

/// One entry per pattern format for the same app is a known compatibility split; the message says so.
@Test func duplicateAcrossFormatsSaysSo() throws {
    let text = #"{"applinks": {"apps": [], "details": [{"appIDs": ["ABQ7KM3X2P.com.a"], "components": []}, {"appID": "ABQ7KM3X2P.com.a", "paths": ["*"]}]}}"#
    let finding = try #require(AppIDCheck.findings(in: try document(text)).first)
    #expect(finding.id == "schema.duplicate-app-id")
    #expect(finding.pointer == "/applinks/details/1/appID")
    #expect(finding.message.contains(#"uses only "components" and this one only "paths""#), "\(finding.message)")
}

@Test func registryRunsTheChecksInOrder() {
    let names = SchemaRegistry.checks.map { String(describing: $0) }
    let mine = names.filter { ["ServiceKeysCheck", "AppListCheck", "DetailsCheck", "AppIDCheck"].contains($0) }
    #expect(mine == ["ServiceKeysCheck", "AppListCheck", "DetailsCheck", "AppIDCheck"])
}

struct StoreIDCase: Sendable, CustomTestStringConvertible {
    let text: String
    /// The expected finding's pointer and a text its message must contain; nil when there is none.
    let pointer: String?
    let mentions: String
    var testDescription: String { text }
}

/// A ten-digit prefix is an App Store ID where the Team ID belongs (`schema.app-id-store-id`), wherever an
/// app ID appears, with the consequence for that service; Team IDs with digits and letters are left alone.
@Test(arguments: [
    StoreIDCase(text: #"{"applinks": {"details": [{"appIDs": ["1593741764.com.DaAppLab.daKanji"], "components": []}]}}"#,
                pointer: "/applinks/details/0/appIDs/0", mentions: "links for com.DaAppLab.daKanji do not open it"),
    StoreIDCase(text: #"{"applinks": {"apps": [], "details": [{"appID": "1436773096.com.westudents.WeStudents", "paths": ["*"]}]}}"#,
                pointer: "/applinks/details/0/appID", mentions: "starts with 1436773096, ten digits: the form of an App Store ID"),
    StoreIDCase(text: #"{"webcredentials": {"apps": ["ABQ7KM3X2P.com.a", "6744744763.io.pcf.app"]}}"#,
                pointer: "/webcredentials/apps/1", mentions: "io.pcf.app gets no shared passwords"),
    StoreIDCase(text: #"{"appclips": {"apps": ["6744744763.io.pcf.app.Clip"]}}"#,
                pointer: "/appclips/apps/0", mentions: "gets nothing from this service"),
    StoreIDCase(text: #"{"applinks": {"details": [{"appIDs": ["1234567890.com.a"], "components": []}]}}"#,
                pointer: "/applinks/details/0/appIDs/0", mentions: "(apps.apple.com/app/id1234567890)"),
    // Digits and letters: a Team ID. Nine or eleven digits: app-id-format's (wrong length), not this rule's.
    StoreIDCase(text: #"{"applinks": {"details": [{"appIDs": ["1234567890A.com.a", "123456789A.com.a", "A123456789.com.a"], "components": []}]}}"#,
                pointer: nil, mentions: ""),
])
func appStoreIDPrefix(_ testCase: StoreIDCase) throws {
    let findings = AppIDCheck.findings(in: try document(testCase.text)).filter { $0.id == "schema.app-id-store-id" }
    guard let pointer = testCase.pointer else {
        #expect(findings.isEmpty, "\(findings.map(\.message))")
        return
    }
    let finding = try #require(findings.first)
    #expect(findings.count == 1)
    #expect(finding.severity == .error)
    #expect(finding.pointer == pointer)
    #expect(finding.message.contains(testCase.mentions), "\(finding.message)")
    #expect(finding.fix?.contains("Team ID") == true)
}

@Test func appStoreIDPrefixIsTenDigitsThenADotAndMore() {
    #expect(AppIDCheck.appStoreIDPrefix(of: "1593741764.com.DaAppLab.daKanji") == "1593741764")
    #expect(AppIDCheck.appStoreIDPrefix(of: "1593741764.") == nil)
    #expect(AppIDCheck.appStoreIDPrefix(of: "159374176.com.a") == nil)
    #expect(AppIDCheck.appStoreIDPrefix(of: "15937417640.com.a") == nil)
    #expect(AppIDCheck.appStoreIDPrefix(of: "159374176X.com.a") == nil)
    #expect(AppIDCheck.unusableReason("1593741764.com.a")?.contains("App Store ID, not a Team ID") == true)
    #expect(AppIDCheck.unusableReason("ABQ7KM3X2P.com.a") == nil)
}
