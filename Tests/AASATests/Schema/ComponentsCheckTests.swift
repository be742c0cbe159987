import Testing
@testable import AASA

private typealias F = ComponentChecksFixture
private let base = "/applinks/details/0/components"

@Test(arguments: [
    ComponentCheckCase("every documented key, well typed",
        F.components(##"[{"/": "/a/*", "?": {"id": "?*"}, "#": "top", "exclude": false, "comment": "c", "caseSensitive": false, "percentEncoded": true}, {"?": "x=1"}]"##), []),
    ComponentCheckCase("no components", F.entry(#"{"appID": "ABQ7KM3X2P.com.exemplo.app", "paths": ["*"]}"#), []),
    ComponentCheckCase("no applinks", #"{"webcredentials": {"apps": []}}"#, []),
    ComponentCheckCase("components is an object",
        F.components(#"{"/": "/a"}"#),
        [ExpectedComponentFinding("schema.type", .error, base, mentions: ["\"components\"", "object", "array"])]),
    ComponentCheckCase("a component is a string",
        F.components(#"[{"/": "/a"}, "/b/*"]"#),
        [ExpectedComponentFinding("schema.type", .error, base + "/1", mentions: ["Component 1", "string", "object"])]),
    ComponentCheckCase("/ is a number",
        F.components(#"[{"/": 5}]"#),
        [ExpectedComponentFinding("schema.type", .error, base + "/0/~1", mentions: ["\"/\"", "number", "string"])]),
    ComponentCheckCase("# is an array",
        F.components(##"[{"/": "/a", "#": ["x"]}]"##),
        [ExpectedComponentFinding("schema.type", .error, base + "/0/#", mentions: ["\"#\"", "an array"])]),
    ComponentCheckCase("comment is a boolean",
        F.components(#"[{"/": "/a", "comment": true}]"#),
        [ExpectedComponentFinding("schema.type", .error, base + "/0/comment", mentions: ["\"comment\"", "boolean"])]),
    ComponentCheckCase("? is a number",
        F.components(#"[{"?": 1}]"#),
        [ExpectedComponentFinding("schema.type", .error, base + "/0/?", mentions: ["\"?\"", "number", "object"])]),
    ComponentCheckCase("a query value is a number",
        F.components(#"[{"?": {"id": 42, "ok": "?*"}}]"#),
        [ExpectedComponentFinding("schema.type", .error, base + "/0/?/id", mentions: ["\"id\"", "number", "swcutil", "whole"])]),
    ComponentCheckCase("exclude is the string true",
        F.components(#"[{"/": "/a", "exclude": "true"}]"#),
        [ExpectedComponentFinding("schema.type", .error, base + "/0/exclude", mentions: ["\"exclude\"", "the string \"true\"", "common mistake"])]),
    ComponentCheckCase("caseSensitive is the number 0",
        F.components(#"[{"/": "/a", "caseSensitive": 0}]"#),
        [ExpectedComponentFinding("schema.type", .error, base + "/0/caseSensitive", mentions: ["\"caseSensitive\"", "number 0"])]),
    ComponentCheckCase("percentEncoded is null",
        F.components(#"[{"/": "/a", "percentEncoded": null}]"#),
        [ExpectedComponentFinding("schema.type", .error, base + "/0/percentEncoded", mentions: ["\"percentEncoded\"", "null", "boolean"])]),
    ComponentCheckCase("a repeated key is judged once, by its last value",
        F.components(#"[{"/": 1, "/": 2}]"#),
        [ExpectedComponentFinding("schema.type", .error, base + "/0/~1")]),
    ComponentCheckCase("dictionary form of details",
        #"{"applinks": {"apps": [], "details": {"ABQ7KM3X2P.com.exemplo.app": {"components": [{"/": false}]}}}}"#,
        [ExpectedComponentFinding("schema.type", .error, "/applinks/details/ABQ7KM3X2P.com.exemplo.app/components/0/~1", mentions: ["\"/\"", "boolean"])]),
    ComponentCheckCase("Exclude with a capital E",
        F.components(#"[{"/": "/a", "Exclude": true}]"#),
        [ExpectedComponentFinding("schema.unknown-key", .warning, base + "/0/Exclude", mentions: ["\"Exclude\"", "did you mean \"exclude\""])]),
    ComponentCheckCase("excluded",
        F.components(#"[{"/": "/a", "excluded": true}]"#),
        [ExpectedComponentFinding("schema.unknown-key", .warning, base + "/0/excluded", mentions: ["\"excluded\"", "did you mean \"exclude\""])]),
    ComponentCheckCase("case_sensitive",
        F.components(#"[{"/": "/a", "case_sensitive": false}]"#),
        [ExpectedComponentFinding("schema.unknown-key", .warning, base + "/0/case_sensitive", mentions: ["did you mean \"caseSensitive\""])]),
    ComponentCheckCase("percentEncode",
        F.components(#"[{"/": "/a", "percentEncode": false}]"#),
        [ExpectedComponentFinding("schema.unknown-key", .warning, base + "/0/percentEncode", mentions: ["did you mean \"percentEncoded\""])]),
    ComponentCheckCase("query and fragment as words",
        F.components(#"[{"/": "/a", "query": {"id": "*"}, "fragment": "x"}]"#),
        [ExpectedComponentFinding("schema.unknown-key", .warning, base + "/0/query", mentions: ["\"query\"", "did you mean \"?\""]),
         ExpectedComponentFinding("schema.unknown-key", .warning, base + "/0/fragment", mentions: ["\"fragment\"", "did you mean \"#\""])]),
    ComponentCheckCase("path as a word, and nothing else: also empty",
        F.components(#"[{"path": "/a/*"}]"#),
        [ExpectedComponentFinding("schema.unknown-key", .warning, base + "/0/path", mentions: ["\"path\"", "did you mean \"/\""]),
         ExpectedComponentFinding("schema.empty-component", .warning, base + "/0", mentions: ["every URL"])]),
    ComponentCheckCase("an unrelated key gets no suggestion",
        F.components(#"[{"/": "/a", "target": "app"}]"#),
        [ExpectedComponentFinding("schema.unknown-key", .warning, base + "/0/target", mentions: ["\"target\"", "Component keys are"])]),
    ComponentCheckCase("a path used as a key (corpus 015)",
        F.components(#"[{"/": "/a"}, {"/sign": "", "exclude": true}]"#),
        [ExpectedComponentFinding("schema.unknown-key", .warning, base + "/1/~1sign", mentions: ["\"/sign\"", "path used as a key"]),
         ExpectedComponentFinding("schema.empty-component", .warning, base + "/1", mentions: ["exclude", "blocks every URL"])]),
    ComponentCheckCase("a comment-only component",
        F.components(#"[{"comment": "everything"}]"#),
        [ExpectedComponentFinding("schema.empty-component", .warning, base + "/0", mentions: ["none of", "matches every URL"])]),
    ComponentCheckCase("an empty object",
        F.components(#"[{"/": "/a"}, {}]"#),
        [ExpectedComponentFinding("schema.empty-component", .warning, base + "/1")]),
    ComponentCheckCase("exclude with only a fragment is not empty",
        F.components(##"[{"#": "no_universal_links", "exclude": true}, {"?": {"a": "b"}}]"##), []),
])
func componentsCheck(_ example: ComponentCheckCase) throws {
    try example.verify(ComponentsCheck.self)
}

@Test func emptyComponentWithoutExcludeSaysNothingAboutBlocking() throws {
    let findings = try F.findings(ComponentsCheck.self, F.components(#"[{"exclude": false}]"#))
    #expect(findings.map(\.id) == ["schema.empty-component"])
    #expect(findings.first?.message.contains("blocks") == false)
}

@Test func fixesNameTheCorrection() throws {
    let findings = try F.findings(ComponentsCheck.self, F.components(#"[{"/": "/a", "exclude": "true", "Exclude": true, "/sign": ""}]"#))
    let fixes = findings.compactMap(\.fix)
    #expect(fixes.contains("Remove the quotes: \"exclude\": true."))
    #expect(fixes.contains("Rename the key to \"exclude\": true."))
    #expect(fixes.contains("Write the path as the value of \"/\": { \"/\": \"/sign\" }."))
}

@Test(arguments: [
    ("Exclude", "exclude"), ("EXCLUDE", "exclude"), ("excluded", "exclude"), ("exclued", "exclude"),
    ("case_sensitive", "caseSensitive"), ("casesensitive", "caseSensitive"), ("caseSensitve", "caseSensitive"),
    ("percent-encoded", "percentEncoded"), ("PercentEncoded", "percentEncoded"),
    ("path", "/"), ("Path", "/"), ("paths", "/"), ("query", "?"), ("Query", "?"), ("fragment", "#"), ("comments", "comment"),
])
func keySuggestions(_ key: String, _ expected: String) {
    #expect(ComponentKeyNames.suggestion(for: key) == expected)
}

@Test(arguments: ["target", "page", "id", "name", "url", "x", "", "/", "exclude", "appID"])
func noSuggestionForUnrelatedOrKnownKeys(_ key: String) {
    #expect(ComponentKeyNames.suggestion(for: key) == nil)
}
