import Testing
@testable import AASA

struct ServiceKeysCase: Sendable, CustomTestStringConvertible {
    let text: String
    let expected: [ExpectedServiceFinding]
    var testDescription: String { text }
}

@Test(arguments: [
    ServiceKeysCase(text: #"{"applinks": {"details": []}}"#, expected: []),
    ServiceKeysCase(text: #"{"webcredentials": {"apps": []}, "appclips": {"apps": []}, "activitycontinuation": {"apps": []}}"#, expected: []),
    ServiceKeysCase(text: "{}", expected: [expect("schema.no-service", .error, "", "none of the service keys")]),
    ServiceKeysCase(text: #"{"applink": {"details": []}}"#, expected: [
        expect("schema.misspelled-service", .warning, "/applink", #"did you mean "applinks"?"#),
        expect("schema.no-service", .error, "", #""applink" looks like a misspelled service"#),
    ]),
    ServiceKeysCase(text: #"{"AppLinks": {}, "webcredentials": {"apps": []}}"#, expected: [
        expect("schema.misspelled-service", .warning, "/AppLinks", #""AppLinks" is not a service Apple knows; did you mean "applinks"?"#),
    ]),
    ServiceKeysCase(text: #"{"webcredential": {"apps": []}, "applinks": {"details": []}}"#, expected: [
        expect("schema.misspelled-service", .warning, "/webcredential", #"did you mean "webcredentials"?"#),
    ]),
    ServiceKeysCase(text: #"{"app-clips": {"apps": []}}"#, expected: [
        expect("schema.misspelled-service", .warning, "/app-clips", #"did you mean "appclips"?"#),
        expect("schema.no-service", .error, "", #""app-clips""#),
    ]),
    ServiceKeysCase(text: #"{"activityContinuation": {"apps": []}, "applinks": {"details": []}}"#, expected: [
        expect("schema.misspelled-service", .warning, "/activityContinuation", #"did you mean "activitycontinuation"?"#),
    ]),
    ServiceKeysCase(text: #"{"applinks": {"details": []}, "version": 1}"#, expected: [
        expect("schema.unknown-top-level-key", .info, "/version", #""version""#),
    ]),
    ServiceKeysCase(text: #"{"a/b~": 1, "applinks": {"details": []}}"#, expected: [
        expect("schema.unknown-top-level-key", .info, "/a~1b~0", #""a/b~""#),
    ]),
    // A repeated key is the JSON checks' finding; the schema reports the key once.
    ServiceKeysCase(text: #"{"foo": 1, "foo": 2, "applinks": {"details": []}}"#, expected: [
        expect("schema.unknown-top-level-key", .info, "/foo", #""foo""#),
    ]),
    ServiceKeysCase(text: #"{"applinks": []}"#, expected: [
        expect("schema.service-type", .error, "/applinks", #""applinks" is an array, not an object"#),
    ]),
    ServiceKeysCase(text: #"{"webcredentials": "ABQ7KM3X2P.com.exemplo.app", "applinks": {"details": []}}"#, expected: [
        expect("schema.service-type", .error, "/webcredentials", #""webcredentials" is a string"#),
    ]),
    ServiceKeysCase(text: #"{"appclips": null}"#, expected: [
        expect("schema.service-type", .error, "/appclips", #""appclips" is null"#),
    ]),
    // The last value counts, as for Apple: an object after a string is fine.
    ServiceKeysCase(text: #"{"applinks": "x", "applinks": {"details": []}}"#, expected: []),
])
func serviceKeysFindings(_ testCase: ServiceKeysCase) throws {
    let json = try JSONParser.parse(Array(testCase.text.utf8))
    let document = try #require(AASADocument(json: json))
    let findings = ServiceKeysCheck.findings(in: document)
    #expect(findings.map(\.id) == testCase.expected.map(\.id))
    for (finding, expected) in zip(findings, testCase.expected) {
        #expect(finding.severity == expected.severity, "\(finding.id)")
        #expect(finding.pointer == expected.pointer, "\(finding.id)")
        #expect(finding.message.contains(expected.mentions), "\(finding.message)")
        #expect(finding.fix?.isEmpty == false)
    }
}

@Test func serviceKeysRulesAreTheOnesReported() {
    #expect(ServiceKeysCheck.rules.map(\.id) == ["schema.no-service", "schema.unknown-top-level-key", "schema.misspelled-service", "schema.service-type"])
    #expect(ServiceKeysCheck.rules.map(\.severity) == [.error, .info, .warning, .error])
}
