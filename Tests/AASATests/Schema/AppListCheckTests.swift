import Testing
@testable import AASA

struct AppListCase: Sendable, CustomTestStringConvertible {
    /// (id, severity, pointer, text the message must contain)
    let text: String
    let expected: [ExpectedServiceFinding]
    var testDescription: String { text }
}

@Test(arguments: [
    AppListCase(text: #"{"webcredentials": {"apps": ["ABQ7KM3X2P.com.exemplo.app"]}}"#, expected: []),
    AppListCase(text: #"{"appclips": {"apps": ["ABQ7KM3X2P.com.exemplo.app.Clip"]}, "activitycontinuation": {"apps": []}}"#, expected: []),
    // applinks is DetailsCheck's, and a service that is not an object is ServiceKeysCheck's.
    AppListCase(text: #"{"applinks": {"apps": ["x"], "foo": 1}, "webcredentials": [], "appclips": "x"}"#, expected: []),
    AppListCase(text: #"{"webcredentials": {}}"#, expected: [
        expect("schema.apps-shape", .error, "/webcredentials", #""webcredentials" has no "apps""#),
    ]),
    AppListCase(text: #"{"webcredentials": {"apps": "ABQ7KM3X2P.com.exemplo.app"}}"#, expected: [
        expect("schema.apps-shape", .error, "/webcredentials/apps", #""webcredentials.apps" is a string"#),
    ]),
    AppListCase(text: #"{"activitycontinuation": {"apps": ["ABQ7KM3X2P.com.exemplo.app", 5, null]}}"#, expected: [
        expect("schema.apps-shape", .error, "/activitycontinuation/apps/1", #"Item 1 of "activitycontinuation.apps" is a number"#),
        expect("schema.apps-shape", .error, "/activitycontinuation/apps/2", "is null"),
    ]),
    AppListCase(text: #"{"appclips": {"apps": {"ABQ7KM3X2P.com.exemplo.app.Clip": true}}}"#, expected: [
        expect("schema.apps-shape", .error, "/appclips/apps", "is an object"),
    ]),
    AppListCase(text: #"{"appclips": {"apps": ["ABQ7KM3X2P.com.exemplo.app.Clip"], "details": []}}"#, expected: [
        expect("schema.appclips-extra-key", .warning, "/appclips/details", #""appclips" has the key "details""#),
    ]),
    AppListCase(text: #"{"appclips": {"app": ["ABQ7KM3X2P.com.exemplo.app.Clip"]}}"#, expected: [
        expect("schema.apps-shape", .error, "/appclips", #""appclips" has no "apps""#),
        expect("schema.appclips-extra-key", .warning, "/appclips/app", #"Did you mean "apps"?"#),
    ]),
    AppListCase(text: #"{"webcredentials": {"apps": ["ABQ7KM3X2P.com.exemplo.app"], "comment": "x"}}"#, expected: [
        expect("schema.unknown-key", .warning, "/webcredentials/comment", #""webcredentials" has the key "comment""#),
    ]),
    AppListCase(text: #"{"activitycontinuation": {"Apps": ["ABQ7KM3X2P.com.exemplo.app"]}}"#, expected: [
        expect("schema.apps-shape", .error, "/activitycontinuation", "no \"apps\""),
        expect("schema.unknown-key", .warning, "/activitycontinuation/Apps", #"Did you mean "apps"?"#),
    ]),
    // A service nested in another is said to belong at the top level, not only to be ignored.
    AppListCase(text: #"{"webcredentials": {"apps": ["ABQ7KM3X2P.com.exemplo.app"], "applinks": {"details": []}}}"#, expected: [
        expect("schema.unknown-key", .warning, "/webcredentials/applinks",
               #""webcredentials" has the key "applinks", a service, which belongs at the top level of the file"#),
    ]),
    AppListCase(text: #"{"appclips": {"apps": ["ABQ7KM3X2P.com.exemplo.app.Clip"], "webcredentials": {"apps": []}}}"#, expected: [
        expect("schema.unknown-key", .warning, "/appclips/webcredentials", "belongs at the top level"),
    ]),
])
func appListFindings(_ testCase: AppListCase) throws {
    let json = try JSONParser.parse(Array(testCase.text.utf8))
    let document = try #require(AASADocument(json: json))
    let findings = AppListCheck.findings(in: document)
    #expect(findings.map(\.id) == testCase.expected.map(\.id))
    for (finding, expected) in zip(findings, testCase.expected) {
        #expect(finding.severity == expected.severity, "\(finding.id)")
        #expect(finding.pointer == expected.pointer, "\(finding.id)")
        #expect(finding.message.contains(expected.mentions), "\(finding.message)")
    }
}

/// The fix of a nested service says where to move it, and to merge it when the top level has it already.
@Test(arguments: [
    (#"{"webcredentials": {"apps": [], "activitycontinuation": {"apps": []}}}"#, "out of \"webcredentials\" to the top level"),
    (#"{"webcredentials": {"apps": [], "activitycontinuation": {"apps": []}}, "activitycontinuation": {"apps": []}}"#,
     "into the top-level \"activitycontinuation\""),
])
func nestedServiceFixSaysWhereItGoes(_ text: String, _ fix: String) throws {
    let document = try #require(AASADocument(json: try JSONParser.parse(Array(text.utf8))))
    let finding = try #require(AppListCheck.findings(in: document).first { $0.pointer == "/webcredentials/activitycontinuation" })
    #expect(finding.fix?.contains(fix) == true, "\(finding.fix ?? "")")
}
