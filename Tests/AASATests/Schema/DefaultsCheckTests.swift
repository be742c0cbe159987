import Testing
@testable import AASA

private typealias F = ComponentChecksFixture

@Test(arguments: [
    ComponentCheckCase("both levels, documented keys",
        #"{"applinks": {"defaults": {"caseSensitive": false, "percentEncoded": true}, "details": [{"appID": "ABQ7KM3X2P.com.exemplo.app", "defaults": {"percentEncoded": false}, "components": []}]}}"#, []),
    ComponentCheckCase("empty defaults", #"{"applinks": {"defaults": {}}}"#, []),
    ComponentCheckCase("no defaults", F.components(#"[{"/": "/a"}]"#), []),
    ComponentCheckCase("applinks.defaults is an array",
        #"{"applinks": {"defaults": [{"caseSensitive": false}]}}"#,
        [ExpectedComponentFinding("schema.type", .error, "/applinks/defaults", mentions: ["\"defaults\"", "an array", "object"])]),
    ComponentCheckCase("an entry's defaults is a string",
        F.entry(#"{"appID": "ABQ7KM3X2P.com.exemplo.app", "defaults": "caseSensitive"}"#),
        [ExpectedComponentFinding("schema.type", .error, "/applinks/details/0/defaults", mentions: ["\"defaults\"", "a string"])]),
    ComponentCheckCase("caseSensitive is the string false",
        #"{"applinks": {"defaults": {"caseSensitive": "false"}}}"#,
        [ExpectedComponentFinding("schema.type", .error, "/applinks/defaults/caseSensitive", mentions: ["\"caseSensitive\" in \"defaults\"", "the string \"false\""])]),
    ComponentCheckCase("percentEncoded is the number 1",
        F.entry(#"{"appID": "ABQ7KM3X2P.com.exemplo.app", "defaults": {"percentEncoded": 1}}"#),
        [ExpectedComponentFinding("schema.type", .error, "/applinks/details/0/defaults/percentEncoded", mentions: ["\"percentEncoded\"", "number 1"])]),
    ComponentCheckCase("exclude in defaults",
        #"{"applinks": {"defaults": {"exclude": true}}}"#,
        [ExpectedComponentFinding("schema.defaults-key", .warning, "/applinks/defaults/exclude", mentions: ["\"exclude\"", "component key", "unspecified"])]),
    ComponentCheckCase("a path pattern in defaults",
        #"{"applinks": {"defaults": {"/": "/a/*"}}}"#,
        [ExpectedComponentFinding("schema.defaults-key", .warning, "/applinks/defaults/~1", mentions: ["\"/\""])]),
    ComponentCheckCase("a misspelled key",
        #"{"applinks": {"defaults": {"casesensitive": false}}}"#,
        [ExpectedComponentFinding("schema.defaults-key", .warning, "/applinks/defaults/casesensitive", mentions: ["\"casesensitive\"", "did you mean \"caseSensitive\""])]),
    ComponentCheckCase("an unrelated key",
        #"{"applinks": {"defaults": {"matchAll": true}}}"#,
        [ExpectedComponentFinding("schema.defaults-key", .warning, "/applinks/defaults/matchAll", mentions: ["\"matchAll\"", "only \"caseSensitive\" and \"percentEncoded\""])]),
    ComponentCheckCase("dictionary form of details",
        #"{"applinks": {"details": {"ABQ7KM3X2P.com.exemplo.app": {"defaults": {"caseSensitive": null, "extra": 1}}}}}"#,
        [ExpectedComponentFinding("schema.type", .error, "/applinks/details/ABQ7KM3X2P.com.exemplo.app/defaults/caseSensitive", mentions: ["null"]),
         ExpectedComponentFinding("schema.defaults-key", .warning, "/applinks/details/ABQ7KM3X2P.com.exemplo.app/defaults/extra", mentions: ["\"extra\""])]),
])
func defaultsCheck(_ example: ComponentCheckCase) throws {
    try example.verify(DefaultsCheck.self)
}

@Test func defaultsFindingsAreNotComponentFindings() throws {
    // Keys inside defaults are this check's business; ComponentsCheck must not also report them.
    let text = #"{"applinks": {"defaults": {"exclude": true}, "details": [{"appID": "ABQ7KM3X2P.com.exemplo.app", "defaults": {"Exclude": 1}, "components": [{"/": "/a"}]}]}}"#
    #expect(try F.findings(ComponentsCheck.self, text).isEmpty)
    #expect(try F.findings(DefaultsCheck.self, text).map(\.id) == ["schema.defaults-key", "schema.defaults-key"])
}
