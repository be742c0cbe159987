import Testing
@testable import AASA

struct AppListCase: Sendable, CustomTestStringConvertible {
    /// (id, severity, pointer, text the message must contain)
    let text: String
    let expected: [ExpectedServiceFinding]
    var testDescription: String { text }
}

@Test(arguments: [
    AppListCase(text: #"{"webcredentials": {"apps": ["ABCDE12345.com.example.app"]}}"#, expected: []),
    AppListCase(text: #"{"appclips": {"apps": ["ABCDE12345.com.example.app.Clip"]}, "activitycontinuation": {"apps": []}}"#, expected: []),
    // applinks is DetailsCheck's, and a service that is not an object is ServiceKeysCheck's.
    AppListCase(text: #"{"applinks": {"apps": ["x"], "foo": 1}, "webcredentials": [], "appclips": "x"}"#, expected: []),
    AppListCase(text: #"{"webcredentials": {}}"#, expected: [
        expect("schema.apps-shape", .error, "/webcredentials", #""webcredentials" has no "apps""#),
    ]),
    AppListCase(text: #"{"webcredentials": {"apps": "ABCDE12345.com.example.app"}}"#, expected: [
        expect("schema.apps-shape", .error, "/webcredentials/apps", #""webcredentials.apps" is a string"#),
    ]),
    AppListCase(text: #"{"activitycontinuation": {"apps": ["ABCDE12345.com.example.app", 5, null]}}"#, expected: [
        expect("schema.apps-shape", .error, "/activitycontinuation/apps/1", #"Item 1 of "activitycontinuation.apps" is a number"#),
        expect("schema.apps-shape", .error, "/activitycontinuation/apps/2", "is null"),
    ]),
    AppListCase(text: #"{"appclips": {"apps": {"ABCDE12345.com.example.app.Clip": true}}}"#, expected: [
        expect("schema.apps-shape", .error, "/appclips/apps", "is an object"),
    ]),
    AppListCase(text: #"{"appclips": {"apps": ["ABCDE12345.com.example.app.Clip"], "details": []}}"#, expected: [
        expect("schema.appclips-extra-key", .warning, "/appclips/details", #""appclips" has the key "details""#),
    ]),
    AppListCase(text: #"{"appclips": {"app": ["ABCDE12345.com.example.app.Clip"]}}"#, expected: [
        expect("schema.apps-shape", .error, "/appclips", #""appclips" has no "apps""#),
        expect("schema.appclips-extra-key", .warning, "/appclips/app", #"Did you mean "apps"?"#),
    ]),
    AppListCase(text: #"{"webcredentials": {"apps": ["ABCDE12345.com.example.app"], "comment": "x"}}"#, expected: [
        expect("schema.unknown-key", .warning, "/webcredentials/comment", #""webcredentials" has the key "comment""#),
    ]),
    AppListCase(text: #"{"activitycontinuation": {"Apps": ["ABCDE12345.com.example.app"]}}"#, expected: [
        expect("schema.apps-shape", .error, "/activitycontinuation", "no \"apps\""),
        expect("schema.unknown-key", .warning, "/activitycontinuation/Apps", #"Did you mean "apps"?"#),
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
