import AASA
import Testing

/// `diff`'s engine: what changed between two files, and which URLs' decisions change.
@Suite struct DocumentDiffTests {
    static let app = "ABQ7KM3X2P.com.exemplo.app"

    static func document(_ components: String, extra: String = "") throws -> AASADocument {
        let text = #"{"applinks":{\#(extra)"details":[{"appIDs":["\#(app)"],"components":[\#(components)]}]}}"#
        return try #require(AASADocument(json: try JSONParser.parse(Array(text.utf8))))
    }

    static func compare(_ old: String, _ new: String, urls: [String]? = nil, extra: String = "") throws -> DocumentDiff {
        DocumentDiff.compare(try document(old, extra: extra), try document(new, extra: extra), urls: urls).diff
    }

    @Test func anAddedExclusionNamesTheURLItSendsToTheBrowser() throws {
        let diff = try Self.compare(#"{"/":"/buy/*"}"#, #"{"/":"/buy/checkout/*","exclude":true},{"/":"/buy/*"}"#)
        #expect(diff.changes.map(\.kind) == [.added])
        #expect(diff.changes.first?.summary == #"details 0 (ABQ7KM3X2P.com.exemplo.app): component 0 added { "/": "/buy/checkout/*", "exclude": true }"#)
        #expect(diff.sampled)
        let change = try #require(diff.decisionChanges.first)
        #expect(diff.decisionChanges.count == 1)
        #expect(change.url == "/buy/checkout/x")
        #expect(change.description.hasPrefix("/buy/checkout/x opened ABQ7KM3X2P.com.exemplo.app (details 0, component 0"))
        #expect(change.description.contains(#", now stays in the browser (excluded by details 0, component 0 { "/": "/buy/checkout/*", "exclude": true })"#))
    }

    @Test func aReorderedComponentIsAMoveAndNamesTheURLWhoseDecisionChanges() throws {
        let old = #"{"/":"/help/*","exclude":true},{"/":"*"}"#
        let new = #"{"/":"*"},{"/":"/help/*","exclude":true}"#
        let diff = try Self.compare(old, new)
        #expect(diff.changes.map(\.kind) == [.moved])
        #expect(diff.changes.first?.subject == "rule")
        #expect(diff.decisionChanges.map(\.url) == ["/help/x"])
        #expect(diff.decisionChanges.first?.description.hasPrefix("/help/x stayed in the browser (excluded by details 0, component 0") == true)
        #expect(diff.decisionChanges.first?.description.contains("now opens ABQ7KM3X2P.com.exemplo.app") == true)
    }

    @Test func givenURLsAreDecidedInsteadOfSamples() throws {
        let diff = try Self.compare(#"{"/":"/buy/*"}"#, #"{"/":"/buy/*","exclude":true}"#, urls: ["/buy/42", "/about", "https://example.com/buy/1"])
        #expect(!diff.sampled && diff.urlsDecided == 3)
        #expect(diff.decisionChanges.map(\.url) == ["/buy/42", "https://example.com/buy/1"])
    }

    @Test func keyOrderAndEqualFilesAreNoChange() throws {
        let diff = try Self.compare(#"{"/":"/a","exclude":true}"#, #"{"exclude":true,"/":"/a"}"#)
        #expect(diff.changes.isEmpty && diff.decisionChanges.isEmpty)
    }

    @Test func anInvalidURLIsReturnedNotDecided() throws {
        let result = DocumentDiff.compare(try Self.document(#"{"/":"/a"}"#), try Self.document(#"{"/":"/b"}"#), urls: ["ftp://x/a", "/a"])
        #expect(result.invalidURLs == ["ftp://x/a"])
        #expect(result.diff.urlsDecided == 1 && result.diff.decisionChanges.map(\.url) == ["/a"])
    }

    @Test func servicesAppsEntriesAndVariablesInApplesOrder() throws {
        let old = #"{"applinks":{"substitutionVariables":{"food":["pizza"]},"details":[{"appIDs":["ABQ7KM3X2P.com.a"],"components":[{"/":"/a/*"}]}]},"webcredentials":{"apps":["ABQ7KM3X2P.com.a"]}}"#
        let new = #"{"applinks":{"substitutionVariables":{"food":["pizza","taco"]},"details":[{"appIDs":["ABQ7KM3X2P.com.b"],"components":[{"/":"/b/*"}]},{"appIDs":["ABQ7KM3X2P.com.a"],"components":[{"/":"/a/*"},{"/":"/$(food)"}]}]},"webcredentials":{"apps":["ABQ7KM3X2P.com.b"]},"appclips":{"apps":["ABQ7KM3X2P.com.a.Clip"]}}"#
        let parse = { (text: String) throws -> AASADocument in try #require(AASADocument(json: try JSONParser.parse(Array(text.utf8)))) }
        let diff = DocumentDiff.compare(try parse(old), try parse(new), urls: nil).diff
        #expect(diff.changes.map(\.summary) == [
            "applinks: app ABQ7KM3X2P.com.b added",
            #"variable $(food) changed: [ "pizza" ] → [ "pizza", "taco" ]"#,
            "details 0 (ABQ7KM3X2P.com.b) added, components 1",
            "details 1 (ABQ7KM3X2P.com.a) moved from details 0",
            #"details 1 (ABQ7KM3X2P.com.a): component 1 added { "/": "/$(food)" }"#,
            "webcredentials: app ABQ7KM3X2P.com.b added",
            "webcredentials: app ABQ7KM3X2P.com.a removed",
            "appclips added",
        ])
        // /b/x now opens the new app; /pizza (the variable's first value) now opens com.a.
        #expect(diff.decisionChanges.map(\.url) == ["/b/x", "/pizza"])
    }

    /// What the detailed comparison does not cover is still named, so "no change" is never said of files that differ.
    @Test func otherChangesInAServiceAreNamed() throws {
        let entry = #"{"appIDs":["ABQ7KM3X2P.com.a"],"components":[{"/":"/a"}]}"#
        let old = #"{"applinks":{"apps":[],"details":[\#(entry)]},"webcredentials":{"apps":["ABQ7KM3X2P.com.a"],"x":1}}"#
        let new = #"{"applinks":{"details":[\#(entry)]},"webcredentials":{"apps":["ABQ7KM3X2P.com.a"],"x":2}}"#
        let parse = { (text: String) throws -> AASADocument in try #require(AASADocument(json: try JSONParser.parse(Array(text.utf8)))) }
        let diff = DocumentDiff.compare(try parse(old), try parse(new), urls: nil).diff
        #expect(diff.changes.map(\.summary) == ["applinks.apps removed (was [])", "webcredentials changed"])
        #expect(diff.changes.map(\.pointer) == ["/applinks/apps", "/webcredentials"])
        #expect(diff.decisionChanges.isEmpty)
    }

    @Test func aRemovedRuleIsListedWhereItStood() throws {
        let diff = try Self.compare(#"{"/":"/a"},{"/":"/b"},{"/":"/c"}"#, #"{"/":"/a"},{"/":"/c"}"#)
        #expect(diff.changes.map(\.summary) == [#"details 0 (ABQ7KM3X2P.com.exemplo.app): component 1 removed { "/": "/b" }"#])
        #expect(diff.changes.first?.pointer == "/applinks/details/0/components/1")
        #expect(diff.decisionChanges.map(\.url) == ["/b"])
    }
}

/// Sample URLs written from patterns: each matches the rule it came from.
@Suite struct SampleURLTests {
    @Test(arguments: [
        (#"{"/":"/buy/*"}"#, "/buy/x"),
        (#"{"/":"/item/?"}"#, "/item/x"),
        (#"{"/":"/item/?*/edit"}"#, "/item/xx/edit"),
        (#"{"/":"docs/*.html"}"#, "/docs/x.html"),
        (#"{"/":"/$(lang)_$(region)/*"}"#, "/en_US/x"),
        (#"{"/":"/$(food)/*"}"#, "/pixza/x"),
        (#"{"/":"/$(nope)"}"#, "/nope"),
        (#"{"?":{"id":"?*","ref":"*"}}"#, "/?id=xx&ref=x"),
        (##"{"/":"/s","?":"q=*","#":"top*"}"##, "/s?q=x#topx"),
        (##"{"#":"nav"}"##, "/#nav"),
    ])
    func componentSample(component: String, expected: String) throws {
        let value = try JSONParser.parse(Array(component.utf8)).root
        let sample = try #require(SampleURL.forComponent(value, variables: ["food": ["pi?za", "taco"]]))
        #expect(sample == expected)
        // The sample matches its rule, unless the rule names an undefined variable (which never matches).
        let document = #"{"applinks":{"substitutionVariables":{"food":["pi?za","taco"]},"details":[{"appIDs":["ABQ7KM3X2P.com.a"],"components":[\#(component)]}]}}"#
        let matcher = try #require(URLMatcher(json: Array(document.utf8)))
        let decision = try matcher.decide(sample).decision
        #expect(decision == (component.contains("nope") ? .noMatch : .match), "\(sample)")
    }

    @Test(arguments: [("/buy/*", "/buy/x"), ("NOT /help/*", "/help/x"), ("legacy?", "/legacyx"), ("/$(lang)", "/$(lang)")])
    func legacyPathSample(path: String, expected: String) {
        #expect(SampleURL.forPath(path) == expected)
    }
}
