import Testing
@testable import AASA

private typealias F = ComponentChecksFixture
private let base = "/applinks/details/0/components"

/// A legacy document whose only entry has these `paths` (JSON array text).
private func legacy(_ paths: String) -> String {
    #"{"applinks": {"apps": [], "details": [{"appID": "ABQ7KM3X2P.com.exemplo.app", "paths": \#(paths)}]}}"#
}

@Test(arguments: [
    ("NOT/videos/*", "NOT /videos/*"), ("not /videos/*", "NOT /videos/*"), ("Not /videos/*", "NOT /videos/*"),
    ("NOT  /videos/*", "NOT /videos/*"), ("!/videos/*", "NOT /videos/*"), ("! /videos/*", "NOT /videos/*"),
    (" NOT /videos/*", "NOT /videos/*"), ("NOT\t/videos/*", "NOT /videos/*"), ("not*", "NOT *"),
])
func botchedExclusions(_ path: String, _ corrected: String) throws {
    let findings = try F.findings(PatternLintCheck.self, legacy(#"["/wwdc/news/", "\#(path.replacingOccurrences(of: "\t", with: "\\t"))"]"#))
    #expect(findings.count == 1)
    let finding = try #require(findings.first)
    #expect(finding.id == "schema.pattern-not")
    #expect(finding.severity == .warning)
    #expect(finding.pointer == "/applinks/details/0/paths/1")
    #expect(finding.message.contains("\"\(path)\""))
    #expect(finding.fix == "Write \"\(corrected)\".")
}

@Test(arguments: ["NOT /videos/*", "NOT *", "/notes/*", "notifications/*", "/not/x", "/!x", "NOT", "not", "!", "*"])
func notBotchedExclusions(_ path: String) throws {
    #expect(try F.findings(PatternLintCheck.self, legacy(#"["\#(path)"]"#)).isEmpty)
}

@Test(arguments: [
    ComponentCheckCase("wildcards in paths are fine",
        F.components(#"[{"/": "/videos/201?/*"}, {"/": "/id/????"}, {"/": "/a?*"}, {"/": "/a?/b=c"}]"#), []),
    ComponentCheckCase("query syntax in a / pattern",
        F.components(#"[{"/": "/search?q=*"}]"#),
        [ExpectedComponentFinding("schema.pattern-query-in-path", .warning, base + "/0/~1", mentions: ["\"/search?q=*\"", "?q=*"])]),
    ComponentCheckCase("a hash route in a / pattern (corpus 118)",
        F.components(#"[{"/": "/#/a*s*q*"}]"#),
        [ExpectedComponentFinding("schema.pattern-query-in-path", .warning, base + "/0/~1", mentions: ["\"/#/a*s*q*\"", "fragment"])]),
    ComponentCheckCase("query and fragment",
        F.components(#"[{"/": "/p?id=1&ref=*#top"}]"#),
        [ExpectedComponentFinding("schema.pattern-query-in-path", .warning, base + "/0/~1", mentions: ["?id=1&ref=*", "#top"])]),
    ComponentCheckCase("query syntax in a legacy path",
        legacy(#"["/product?id=*"]"#),
        [ExpectedComponentFinding("schema.pattern-query-in-path", .warning, "/applinks/details/0/paths/0", mentions: ["\"/product?id=*\"", "query and fragment are ignored"])]),
    ComponentCheckCase("a fragment in a legacy exclusion",
        legacy(##"["NOT /help#faq", "*"]"##),
        [ExpectedComponentFinding("schema.pattern-query-in-path", .warning, "/applinks/details/0/paths/0", mentions: ["\"NOT /help#faq\""])]),
    ComponentCheckCase("exclude with a * query item",
        F.components(#"[{"/": "/a/*", "?": {"no_universal_link": "*", "x": "?*"}, "exclude": true}, {"/": "*"}]"#),
        [ExpectedComponentFinding("schema.exclude-star-query", .warning, base + "/0/?/no_universal_link", mentions: ["\"no_universal_link\"", "no \"no_universal_link\" item"])]),
    ComponentCheckCase("a * query item without exclude is fine",
        F.components(#"[{"/": "/a/*", "?": {"id": "*"}}, {"?": {"id": "*"}, "exclude": false}]"#), []),
    // "?" and "#" patterns that start with their own delimiter (the matcher compares the query and
    // fragment without it, and "?" is the one-character wildcard).
    ComponentCheckCase("a ? pattern written with its own ?",
        F.components(#"[{"/": "/p/*", "?": "?id=1"}]"#),
        [ExpectedComponentFinding("schema.pattern-leading-delimiter", .warning, base + "/0/?",
                                  mentions: ["\"?id=1\"", "one-character wildcard", "such as ?xid=1", "never ?id=1"])]),
    ComponentCheckCase("a # pattern written with its own #",
        F.components(##"[{"/": "/p/*", "#": "#top"}, {"#": "#", "exclude": true}]"##),
        [ExpectedComponentFinding("schema.pattern-leading-delimiter", .warning, base + "/0/#", mentions: ["\"#top\"", "never matches …#top", "%23"]),
         ExpectedComponentFinding("schema.pattern-leading-delimiter", .warning, base + "/1/#", mentions: ["never blocks …#"])]),
    ComponentCheckCase("deliberate ? wildcards at the start are fine",
        F.components(##"[{"?": "?*"}, {"?": "??"}, {"?": "?"}, {"?": "*?id=1"}, {"#": "top#"}, {"?": {"id": "?1"}}]"##), []),
    ComponentCheckCase("exclude with ?* is fine",
        F.components(#"[{"?": {"id": "?*"}, "exclude": true}, {"?": "*", "exclude": true}]"#), []),
])
func patternLint(_ example: ComponentCheckCase) throws {
    // needs-ios is tested on its own below; leave it out here.
    let findings = try F.findings(PatternLintCheck.self, example.text).filter { $0.id != "schema.needs-ios" }
    #expect(findings.count == example.expected.count, "\(findings.map(\.message))")
    for expectation in example.expected {
        #expect(findings.contains(where: expectation.matches), "missing \(expectation.testDescription) in \(findings.map(\.message))")
    }
}

@Test(arguments: [
    ("/search?q=*", ##"{ "/": "/search", "?": { "q": "*" } }"##),
    ("/#/a*s*q*", ##"{ "/": "/", "#": "/a*s*q*" }"##),
    ("/p?id=1&ref=*#top", ##"{ "/": "/p", "?": { "id": "1", "ref": "*" }, "#": "top" }"##),
    ("/p?id=&x", ##"{ "/": "/p", "?": "id=&x" }"##),
    ("#x", ##"{ "#": "x" }"##),
])
func suggestedComponents(_ pattern: String, _ component: String) throws {
    let split = try #require(PatternLintCheck.querySyntax(in: pattern))
    #expect(split.component(exclude: false) == component)
}

@Test func suggestionKeepsExclusion() throws {
    let findings = try F.findings(PatternLintCheck.self, F.components(#"[{"/": "/a?x=1", "exclude": true}]"#))
    #expect(findings.first?.fix?.contains(#""?": { "x": "1" }, "exclude": true"#) == true)
}

// MARK: needs-ios

@Test(arguments: [
    ComponentCheckCase("legacy paths need nothing new", legacy(#"["/a/*"]"#), []),
    // Components alone are schema.components-only's to report; needs-ios names only later features.
    ComponentCheckCase("components",
        #"{"applinks": {"details": [{"appID": "ABQ7KM3X2P.com.exemplo.app", "paths": ["*"]}, {"appID": "ABQ7KM3X2P.com.exemplo.two", "components": [{"/": "/a", "caseSensitive": true, "percentEncoded": true}]}, {"appID": "ABQ7KM3X2P.com.exemplo.three", "components": []}]}}"#,
        []),
    ComponentCheckCase("caseSensitive false in a component",
        F.components(#"[{"/": "/a"}, {"/": "/b", "caseSensitive": false}, {"/": "/c", "caseSensitive": false}]"#),
        [ExpectedComponentFinding("schema.needs-ios", .info, base + "/1/caseSensitive", mentions: ["\"caseSensitive\": false", "iOS 13.5"])]),
    ComponentCheckCase("substitutionVariables",
        #"{"applinks": {"substitutionVariables": {"food": ["pizza"]}}}"#,
        [ExpectedComponentFinding("schema.needs-ios", .info, "/applinks/substitutionVariables", mentions: ["\"substitutionVariables\"", "iOS 13.5"])]),
    ComponentCheckCase("defaults, first use in document order, and percentEncoded false inside them",
        #"{"applinks": {"defaults": {"percentEncoded": false}, "details": [{"appID": "ABQ7KM3X2P.com.exemplo.app", "defaults": {"caseSensitive": false}}]}}"#,
        [ExpectedComponentFinding("schema.needs-ios", .info, "/applinks/defaults", mentions: ["\"defaults\"", "iOS 14"]),
         ExpectedComponentFinding("schema.needs-ios", .info, "/applinks/defaults/percentEncoded", mentions: ["\"percentEncoded\": false", "iOS 14"]),
         ExpectedComponentFinding("schema.needs-ios", .info, "/applinks/details/0/defaults/caseSensitive", mentions: ["iOS 13.5"])]),
    ComponentCheckCase("details before defaults",
        #"{"applinks": {"details": [{"appID": "ABQ7KM3X2P.com.exemplo.app", "defaults": {}}], "defaults": {}}}"#,
        [ExpectedComponentFinding("schema.needs-ios", .info, "/applinks/details/0/defaults", mentions: ["iOS 14"])]),
    ComponentCheckCase("percentEncoded false in a component of the dictionary form",
        #"{"applinks": {"details": {"ABQ7KM3X2P.com.exemplo.app": {"components": [{"/": "/ü", "percentEncoded": false}]}}}}"#,
        [ExpectedComponentFinding("schema.needs-ios", .info, "/applinks/details/ABQ7KM3X2P.com.exemplo.app/components/0/percentEncoded", mentions: ["iOS 14"])]),
])
func needsIOS(_ example: ComponentCheckCase) throws {
    try example.verify(PatternLintCheck.self)
}

/// A components document whose only entry has these components (JSON array text).
private func componentsDocument(_ components: String) -> String {
    #"{"applinks": {"details": [{"appIDs": ["ABQ7KM3X2P.com.exemplo.app"], "components": \#(components)}]}}"#
}

/// `NOT ` is a negation in legacy `paths` only: in a component's `"/"` it is part of a literal
/// pattern, so the rule excludes nothing, and the fix is `"exclude": true`.
@Test(arguments: [
    (#"{"/": "NOT /admin/*"}"#, "/admin/*", false), (#"{"/": "not /admin/*"}"#, "/admin/*", false),
    (#"{"/": "!/admin/*"}"#, "/admin/*", false), (#"{"/": "NOT  /admin/*", "exclude": true}"#, "/admin/*", true),
])
func notInComponentsIsALiteralPath(_ component: String, _ meant: String, _ alreadyExcludes: Bool) throws {
    let findings = try F.findings(PatternLintCheck.self, componentsDocument("[\(component), {\"/\": \"*\"}]"))
        .filter { $0.id == "schema.component-not" }
    let finding = try #require(findings.first, "\(component)")
    #expect(findings.count == 1)
    #expect(finding.severity == .warning)
    #expect(finding.pointer == "\(base)/0/~1")
    #expect(finding.message.contains("in components \"NOT \" is not a negation"), "\(finding.message)")
    #expect(finding.message.contains("already makes it an exclusion") == alreadyExcludes)
    #expect(finding.fix == "Write {\"/\": \"\(meant)\", \"exclude\": true} and place it before the rules it must take precedence over.")
}

@Test(arguments: [#"{"/": "/admin/*", "exclude": true}"#, #"{"/": "/notes/*"}"#, #"{"/": "/NOT/x"}"#, #"{"/": "NOT"}"#, #"{"/": "NOT "}"#])
func componentsThatAreNotLegacyExclusions(_ component: String) throws {
    #expect(try F.findings(PatternLintCheck.self, componentsDocument("[\(component)]")).filter { $0.id == "schema.component-not" }.isEmpty)
}
