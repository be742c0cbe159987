import Testing
@testable import AASA

private typealias F = ComponentChecksFixture
private let base = "/applinks/details/0/components"

/// A legacy document whose only entry has these `paths` (JSON array text).
private func legacy(_ paths: String) -> String {
    #"{"applinks": {"apps": [], "details": [{"appID": "ABCDE12345.com.example.app", "paths": \#(paths)}]}}"#
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
    CheckCase("wildcards in paths are fine",
        F.components(#"[{"/": "/videos/201?/*"}, {"/": "/id/????"}, {"/": "/a?*"}, {"/": "/a?/b=c"}]"#), []),
    CheckCase("query syntax in a / pattern",
        F.components(#"[{"/": "/search?q=*"}]"#),
        [ExpectedFinding("schema.pattern-query-in-path", .warning, base + "/0/~1", mentions: ["\"/search?q=*\"", "?q=*"])]),
    CheckCase("a hash route in a / pattern (corpus 118)",
        F.components(#"[{"/": "/#/a*s*q*"}]"#),
        [ExpectedFinding("schema.pattern-query-in-path", .warning, base + "/0/~1", mentions: ["\"/#/a*s*q*\"", "fragment"])]),
    CheckCase("query and fragment",
        F.components(#"[{"/": "/p?id=1&ref=*#top"}]"#),
        [ExpectedFinding("schema.pattern-query-in-path", .warning, base + "/0/~1", mentions: ["?id=1&ref=*", "#top"])]),
    CheckCase("query syntax in a legacy path",
        legacy(#"["/product?id=*"]"#),
        [ExpectedFinding("schema.pattern-query-in-path", .warning, "/applinks/details/0/paths/0", mentions: ["\"/product?id=*\"", "query and fragment are ignored"])]),
    CheckCase("a fragment in a legacy exclusion",
        legacy(##"["NOT /help#faq", "*"]"##),
        [ExpectedFinding("schema.pattern-query-in-path", .warning, "/applinks/details/0/paths/0", mentions: ["\"NOT /help#faq\""])]),
    CheckCase("exclude with a * query item",
        F.components(#"[{"/": "/a/*", "?": {"no_universal_link": "*", "x": "?*"}, "exclude": true}, {"/": "*"}]"#),
        [ExpectedFinding("schema.exclude-star-query", .warning, base + "/0/?/no_universal_link", mentions: ["\"no_universal_link\"", "no \"no_universal_link\" item"])]),
    CheckCase("a * query item without exclude is fine",
        F.components(#"[{"/": "/a/*", "?": {"id": "*"}}, {"?": {"id": "*"}, "exclude": false}]"#), []),
    CheckCase("exclude with ?* is fine",
        F.components(#"[{"?": {"id": "?*"}, "exclude": true}, {"?": "*", "exclude": true}]"#), []),
])
func patternLint(_ example: CheckCase) throws {
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
    CheckCase("legacy paths need nothing new", legacy(#"["/a/*"]"#), []),
    CheckCase("components",
        #"{"applinks": {"details": [{"appID": "ABCDE12345.com.example.app", "paths": ["*"]}, {"appID": "ABCDE12345.com.example.two", "components": [{"/": "/a", "caseSensitive": true, "percentEncoded": true}]}, {"appID": "ABCDE12345.com.example.three", "components": []}]}}"#,
        [ExpectedFinding("schema.needs-ios", .info, "/applinks/details/1/components", mentions: ["\"components\"", "iOS 13"])]),
    CheckCase("caseSensitive false in a component",
        F.components(#"[{"/": "/a"}, {"/": "/b", "caseSensitive": false}, {"/": "/c", "caseSensitive": false}]"#),
        [ExpectedFinding("schema.needs-ios", .info, base, mentions: ["iOS 13"]),
         ExpectedFinding("schema.needs-ios", .info, base + "/1/caseSensitive", mentions: ["\"caseSensitive\": false", "iOS 13.5"])]),
    CheckCase("substitutionVariables",
        #"{"applinks": {"substitutionVariables": {"food": ["pizza"]}}}"#,
        [ExpectedFinding("schema.needs-ios", .info, "/applinks/substitutionVariables", mentions: ["\"substitutionVariables\"", "iOS 13.5"])]),
    CheckCase("defaults, first use in document order, and percentEncoded false inside them",
        #"{"applinks": {"defaults": {"percentEncoded": false}, "details": [{"appID": "ABCDE12345.com.example.app", "defaults": {"caseSensitive": false}}]}}"#,
        [ExpectedFinding("schema.needs-ios", .info, "/applinks/defaults", mentions: ["\"defaults\"", "iOS 14"]),
         ExpectedFinding("schema.needs-ios", .info, "/applinks/defaults/percentEncoded", mentions: ["\"percentEncoded\": false", "iOS 14"]),
         ExpectedFinding("schema.needs-ios", .info, "/applinks/details/0/defaults/caseSensitive", mentions: ["iOS 13.5"])]),
    CheckCase("details before defaults",
        #"{"applinks": {"details": [{"appID": "ABCDE12345.com.example.app", "defaults": {}}], "defaults": {}}}"#,
        [ExpectedFinding("schema.needs-ios", .info, "/applinks/details/0/defaults", mentions: ["iOS 14"])]),
    CheckCase("percentEncoded false in a component of the dictionary form",
        #"{"applinks": {"details": {"ABCDE12345.com.example.app": {"components": [{"/": "/ü", "percentEncoded": false}]}}}}"#,
        [ExpectedFinding("schema.needs-ios", .info, "/applinks/details/ABCDE12345.com.example.app/components", mentions: ["iOS 13"]),
         ExpectedFinding("schema.needs-ios", .info, "/applinks/details/ABCDE12345.com.example.app/components/0/percentEncoded", mentions: ["iOS 14"])]),
])
func needsIOS(_ example: CheckCase) throws {
    try example.verify(PatternLintCheck.self)
}
