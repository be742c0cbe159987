import Testing
@testable import AASA

struct DetailsCase: Sendable, CustomTestStringConvertible {
    /// The value of `applinks`.
    let applinks: String
    let expected: [ExpectedServiceFinding]
    var testDescription: String { applinks }
}

private let app = #""ABQ7KM3X2P.com.exemplo.app""#
private let other = #""ABQ7KM3X2P.com.exemplo.other""#
private let third = #""ABQ7KM3X2P.com.exemplo.third""#

@Test(arguments: [
    // Well-formed legacy and mixed-but-separate files.
    DetailsCase(applinks: #"{"apps": [], "details": [{"appID": \#(app), "paths": ["/buy/*", "NOT /help"]}]}"#, expected: []),
    DetailsCase(applinks: #"{"apps": [], "details": [], "defaults": {"caseSensitive": false}, "substitutionVariables": {"x": ["a"]}}"#, expected: [
        expect("schema.details-empty", .warning, "/applinks/details", "empty array, so this file gives no app any link"),
    ]),
    // Modern: fine, but iOS 12 does not read it.
    DetailsCase(applinks: #"{"details": [{"appIDs": [\#(app)], "components": [{"/": "/*"}]}]}"#, expected: [
        expect("schema.components-only", .info, "/applinks/details", "iOS 12 and older do not read \"components\""),
    ]),
    DetailsCase(applinks: #"{"apps": [], "details": [{"appID": \#(app), "paths": ["*"]}, {"appIDs": [\#(app)], "components": []}]}"#, expected: [
        expect("schema.components-only", .info, "/applinks/details/1", "1 of 2 details entries uses only \"components\""),
    ]),
    // details missing, wrong type, or the dictionary form.
    DetailsCase(applinks: "{}", expected: [
        expect("schema.details-missing", .error, "/applinks", #""applinks" has no "details""#),
    ]),
    DetailsCase(applinks: #"{"details": "ABQ7KM3X2P.com.exemplo.app"}"#, expected: [
        expect("schema.details-missing", .error, "/applinks/details", #""applinks.details" is a string"#),
    ]),
    DetailsCase(applinks: #"{"apps": [], "details": {\#(app): {"paths": ["*"]}}}"#, expected: [
        expect("schema.details-dictionary", .warning, "/applinks/details", #"keyed by app ID (e.g. "ABQ7KM3X2P.com.exemplo.app")"#),
    ]),
    // Legacy paths need "apps": [].
    DetailsCase(applinks: #"{"details": [{"appID": \#(app), "paths": ["*"]}]}"#, expected: [
        expect("schema.legacy-apps", .warning, "/applinks", #"no "apps""#),
    ]),
    DetailsCase(applinks: #"{"apps": [\#(app)], "details": [{"appID": \#(app), "paths": ["*"]}]}"#, expected: [
        expect("schema.legacy-apps", .warning, "/applinks/apps", #""applinks.apps" has 1 item"#),
    ]),
    DetailsCase(applinks: #"{"apps": "", "details": [{"appID": \#(app), "paths": ["*"]}]}"#, expected: [
        expect("schema.type", .error, "/applinks/apps", #""applinks.apps" is a string, not an array"#),
    ]),
    // No app ID.
    DetailsCase(applinks: #"{"apps": [], "details": [{"paths": ["*"]}]}"#, expected: [
        expect("schema.no-app-id", .error, "/applinks/details/0", #"neither "appID" nor "appIDs""#),
    ]),
    DetailsCase(applinks: #"{"apps": [], "details": [{"appId": \#(app), "paths": ["*"]}]}"#, expected: [
        expect("schema.unknown-key", .warning, "/applinks/details/0/appId", #""appId" is not one Apple defines, so it is ignored; did you mean "appID"?"#),
        expect("schema.no-app-id", .error, "/applinks/details/0", #""appId" is not "appID" or "appIDs""#),
    ]),
    DetailsCase(applinks: #"{"details": [{"appIDs": [], "components": [{"/": "/*"}]}]}"#, expected: [
        expect("schema.no-app-id", .error, "/applinks/details/0/appIDs", #""appIDs" is an empty array"#),
        expect("schema.components-only", .info, "/applinks/details", "iOS 13"),
    ]),
    // details present but empty: no app gets anything; a details entry that is an empty object is no-app-id's.
    DetailsCase(applinks: #"{"details": []}"#, expected: [
        expect("schema.details-empty", .warning, "/applinks/details", #""applinks.details" is an empty array"#),
    ]),
    DetailsCase(applinks: #"{"details": [{}]}"#, expected: [
        expect("schema.no-app-id", .error, "/applinks/details/0", #"neither "appID" nor "appIDs""#),
    ]),
    // appID and appIDs: iOS 12 and earlier read appID (with paths), iOS 13 and later appIDs.
    DetailsCase(applinks: #"{"apps": [], "details": [{"appID": \#(app), "appIDs": [\#(app)], "paths": ["*"], "components": [{"/": "*"}]}]}"#, expected: [
        expect("schema.app-id-and-app-ids", .info, "/applinks/details/0/appID", #"iOS 12 and earlier read only "appID" (with "paths"), iOS 13 and later read "appIDs""#),
        expect("schema.mixed-formats", .warning, "/applinks/details/0/paths", "iOS 13"),
    ]),
    DetailsCase(applinks: #"{"apps": [], "details": [{"appID": \#(app), "appIDs": [\#(other), \#(third)], "paths": ["*"]}]}"#, expected: [
        expect("schema.app-id-not-in-app-ids", .warning, "/applinks/details/0/appID",
               #"iOS 12 and earlier read only "appID", so their links go to "ABQ7KM3X2P.com.exemplo.app"; iOS 13 and later read "appIDs", so theirs go to "ABQ7KM3X2P.com.exemplo.other", "ABQ7KM3X2P.com.exemplo.third""#),
    ]),
    // Apple does not say which key wins when appIDs is empty: that is no-app-id's, not these rules'.
    DetailsCase(applinks: #"{"apps": [], "details": [{"appID": \#(app), "appIDs": [], "paths": ["*"]}]}"#, expected: [
        expect("schema.no-app-id", .error, "/applinks/details/0/appIDs", #"Apple does not document which of "appID""#),
    ]),
    // A repeat inside one appIDs array, reported at the repeat.
    DetailsCase(applinks: #"{"details": [{"appIDs": [\#(app), \#(other), \#(app), \#(other)], "components": []}]}"#, expected: [
        expect("schema.app-ids-repeat", .warning, "/applinks/details/0/appIDs/2", #""ABQ7KM3X2P.com.exemplo.app" is listed again in "appIDs" (first as item 0)"#),
        expect("schema.app-ids-repeat", .warning, "/applinks/details/0/appIDs/3", "(first as item 1)"),
        expect("schema.components-only", .info, "/applinks/details", "iOS 13"),
    ]),
    DetailsCase(applinks: #"{"details": [{"appIDs": [\#(app), \#(other)], "components": []}]}"#, expected: [
        expect("schema.components-only", .info, "/applinks/details", "iOS 13"),
    ]),
    // appIDs beside legacy paths: iOS 12, which needs paths, reads the app from appID.
    DetailsCase(applinks: #"{"apps": [], "details": [{"appIDs": [\#(app)], "paths": ["/buy/*"]}]}"#, expected: [
        expect("schema.app-ids-with-paths", .warning, "/applinks/details/0/paths", "on iOS 12 and earlier these links open no app"),
    ]),
    DetailsCase(applinks: #"{"apps": [], "details": [{"appIDs": [\#(app)], "paths": ["/buy/*"], "components": [{"/": "/buy/*"}]}]}"#, expected: [
        expect("schema.app-ids-with-paths", .warning, "/applinks/details/0/paths", #"so these "paths" apply on no system"#),
        expect("schema.mixed-formats", .warning, "/applinks/details/0/paths", "iOS 13"),
    ]),
    // Mixed formats in one entry.
    DetailsCase(applinks: #"{"apps": [], "details": [{"appID": \#(app), "paths": ["*"], "components": [{"/": "*"}]}]}"#, expected: [
        expect("schema.mixed-formats", .warning, "/applinks/details/0/paths", #"iOS 13 and later ignore its "paths""#),
    ]),
    // Types.
    DetailsCase(applinks: #"{"details": ["ABQ7KM3X2P.com.exemplo.app"]}"#, expected: [
        expect("schema.type", .error, "/applinks/details/0", "Details entry 0 is a string, not an object"),
    ]),
    DetailsCase(applinks: #"{"apps": [], "details": {\#(app): ["*"]}}"#, expected: [
        expect("schema.details-dictionary", .warning, "/applinks/details", "oldest format"),
        expect("schema.type", .error, "/applinks/details/ABQ7KM3X2P.com.exemplo.app", #"Details entry "ABQ7KM3X2P.com.exemplo.app" is an array"#),
    ]),
    DetailsCase(applinks: #"{"details": [{"appID": [\#(app)], "components": []}]}"#, expected: [
        expect("schema.type", .error, "/applinks/details/0/appID", #""appID" is an array, not a string"#),
        expect("schema.components-only", .info, "/applinks/details", "iOS 13"),
    ]),
    DetailsCase(applinks: #"{"details": [{"appIDs": \#(app), "components": []}]}"#, expected: [
        expect("schema.type", .error, "/applinks/details/0/appIDs", #""appIDs" is a string, not an array of strings"#),
        expect("schema.components-only", .info, "/applinks/details", "iOS 13"),
    ]),
    DetailsCase(applinks: #"{"details": [{"appIDs": [\#(app), 7], "components": []}]}"#, expected: [
        expect("schema.type", .error, "/applinks/details/0/appIDs/1", #"Item 1 of "appIDs" is a number"#),
        expect("schema.components-only", .info, "/applinks/details", "iOS 13"),
    ]),
    DetailsCase(applinks: #"{"apps": [], "details": [{"appID": \#(app), "paths": "/*"}]}"#, expected: [
        expect("schema.type", .error, "/applinks/details/0/paths", #""paths" is a string, not an array of strings"#),
    ]),
    DetailsCase(applinks: #"{"apps": [], "details": [{"appID": \#(app), "paths": ["/*", {"/": "*"}]}]}"#, expected: [
        expect("schema.type", .error, "/applinks/details/0/paths/1", #"Item 1 of "paths" is an object"#),
    ]),
    DetailsCase(applinks: #"{"details": [], "defaults": [], "substitutionVariables": "x"}"#, expected: [
        expect("schema.type", .error, "/applinks/defaults", #""applinks.defaults" is an array, not an object"#),
        expect("schema.type", .error, "/applinks/substitutionVariables", #""applinks.substitutionVariables" is a string"#),
        expect("schema.details-empty", .warning, "/applinks/details", "every URL stays in the browser"),
    ]),
    // Inside components, defaults and substitutionVariables is another check's business.
    DetailsCase(applinks: #"{"details": [{"appIDs": [\#(app)], "components": "x", "defaults": 3}], "defaults": {"bogus": 1}, "substitutionVariables": {"x": 1}}"#, expected: [
        expect("schema.components-only", .info, "/applinks/details", "iOS 13"),
    ]),
    // Unknown keys in applinks and in entries, with near misses.
    DetailsCase(applinks: #"{"detail": []}"#, expected: [
        expect("schema.unknown-key", .warning, "/applinks/detail", #"did you mean "details"?"#),
        expect("schema.details-missing", .error, "/applinks", "no \"details\""),
    ]),
    DetailsCase(applinks: #"{"details": [], "components": [], "version": 2}"#, expected: [
        expect("schema.unknown-key", .warning, "/applinks/components", "belongs inside a details entry"),
        expect("schema.unknown-key", .warning, "/applinks/version", #""version", which Apple does not define"#),
        expect("schema.details-empty", .warning, "/applinks/details", "empty array"),
    ]),
    DetailsCase(applinks: #"{"details": [{"appIds": [\#(app)], "component": [], "comment": "hi"}]}"#, expected: [
        expect("schema.unknown-key", .warning, "/applinks/details/0/appIds", #"did you mean "appIDs"?"#),
        expect("schema.unknown-key", .warning, "/applinks/details/0/component", #"did you mean "components"?"#),
        expect("schema.unknown-key", .warning, "/applinks/details/0/comment", #""comment" is not one Apple defines"#),
        expect("schema.no-app-id", .error, "/applinks/details/0", #""appIds""#),
    ]),
    DetailsCase(applinks: #"{"apps": [], "details": [{"appID": \#(app), "path": ["*"]}]}"#, expected: [
        expect("schema.unknown-key", .warning, "/applinks/details/0/path", #"did you mean "paths"?"#),
    ]),
    // A service nested in applinks or in an entry belongs at the top level.
    DetailsCase(applinks: #"{"details": [{"appIDs": [\#(app)], "components": [], "webcredentials": {"apps": []}}], "appclips": {"apps": []}}"#, expected: [
        expect("schema.unknown-key", .warning, "/applinks/appclips",
               #""applinks" has the key "appclips", a service, which belongs at the top level of the file"#),
        expect("schema.unknown-key", .warning, "/applinks/details/0/webcredentials",
               #"A details entry has the key "webcredentials", a service, which belongs at the top level"#),
        expect("schema.components-only", .info, "/applinks/details", "iOS 13"),
    ]),
])
func detailsFindings(_ testCase: DetailsCase) throws {
    let text = #"{"applinks": \#(testCase.applinks)}"#
    let json = try JSONParser.parse(Array(text.utf8))
    let document = try #require(AASADocument(json: json))
    let findings = DetailsCheck.findings(in: document)
    #expect(findings.map(\.id) == testCase.expected.map(\.id))
    for (finding, expected) in zip(findings, testCase.expected) {
        #expect(finding.severity == expected.severity, "\(finding.id)")
        #expect(finding.pointer == expected.pointer, "\(finding.id)")
        #expect(finding.message.contains(expected.mentions), "\(finding.message)")
    }
}

@Test(arguments: [#"{"webcredentials": {"apps": []}}"#, #"{"applinks": []}"#, #"{"applinks": null}"#])
func detailsIgnoresMissingOrNonObjectApplinks(_ text: String) throws {
    let document = try #require(AASADocument(json: try JSONParser.parse(Array(text.utf8))))
    #expect(DetailsCheck.findings(in: document).isEmpty)
}
