import Testing
import AASA

/// Compiles a JSON text into a matcher (the text must be a JSON object).
private func matcher(_ json: String, host: String? = "example.com") throws -> URLMatcher {
    try #require(URLMatcher(json: Array(json.utf8), host: host))
}

private func decision(_ matcher: URLMatcher, _ url: String, app: String? = nil) throws -> MatchDecision {
    try matcher.decide(url, appID: app).decision
}

private let app = "ABQ7KM3X2P.com.exemplo.app"

@Suite struct URLMatcherTests {
    /// An app ID with an App Store ID for its Team ID opens nothing (no app has it): a URL its rules admit
    /// is not a match, and the reason names the rule and the defect; a good app beside it is unaffected.
    @Test(arguments: [
        // (URL, app asked about, decision, apps that get the link, text the reason contains or nil)
        ("https://example.com/app/1", nil as String?, MatchDecision.noMatch, [] as [String], "details 0, component 0" as String?),
        ("https://example.com/app/1", "1593741764.com.DaAppLab.daKanji", .noMatch, [], "is an App Store ID, not a Team ID"),
        ("https://example.com/both/1", nil, .match, [app], nil),
        ("https://example.com/both/1", "1593741764.com.DaAppLab.daKanji", .noMatch, [app], "links for that app do not work"),
        ("https://example.com/both/1", app, .match, [app], nil),
        ("https://example.com/other", nil, .noMatch, [], nil),
    ])
    func appStoreIDPrefixOpensNothing(_ url: String, _ asked: String?, _ expected: MatchDecision, _ winners: [String], _ reason: String?) throws {
        let m = try matcher(#"""
            {"applinks":{"details":[{"appIDs":["1593741764.com.DaAppLab.daKanji"],"components":[{"/":"/app/*"},{"/":"/both/*"}]},
                                    {"appIDs":["\#(app)"],"components":[{"/":"/both/*"}]}]}}
            """#)
        #expect(m.unusableAppIDs.keys.sorted() == ["1593741764.com.DaAppLab.daKanji"])
        let result = try m.decide(url, appID: asked)
        #expect(result.decision == expected)
        #expect(result.appIDs == winners)
        if let reason {
            #expect(result.reason?.contains(reason) == true, "\(result.reason ?? "no reason")")
        } else {
            #expect(result.reason == nil, "\(result.reason ?? "")")
        }
    }

    /// The partner case of issue 13: an app ID with no Team ID (schema.app-id-format: "No app has this
    /// app ID") opens nothing, so `match` names only the good app, and asked about the bad one says why.
    @Test func appIDWithoutTeamIDOpensNothing() throws {
        let m = try matcher(#"""
            {"applinks":{"details":[{"appIDs":["ZXCVB12345.com.partner.app","com.partner.app2"],"components":[{"/":"/account/*"}]}]}}
            """#)
        #expect(m.unusableAppIDs.keys.sorted() == ["com.partner.app2"])
        let opened = try m.decide("https://example.com/account/settings")
        #expect(opened.decision == .match)
        #expect(opened.appIDs == ["ZXCVB12345.com.partner.app"])
        let asked = try m.decide("https://example.com/account/settings", appID: "com.partner.app2")
        #expect(asked.decision == .noMatch)
        #expect(asked.reason?.contains("(schema.app-id-format)") == true, "\(asked.reason ?? "no reason")")
        let alone = try matcher(#"{"applinks":{"details":[{"appIDs":["ABC.com.x"],"components":[{"/":"/*"}]}]}}"#)
        #expect(try alone.decide("/a").decision == .noMatch)
        #expect(AppIDCheck.unusableRuleID("ZXCVB12345.com.partner.app") == nil)
        #expect(AppIDCheck.unusableRuleID("ZXCVB12345.") == AppIDCheck.format.id)
    }

    @Test func customSubstitutionVariablesExpandToTheirValues() throws {
        let m = try matcher(#"""
            {"applinks":{"substitutionVariables":{"food":["pizza","sushi"],"size":["s?","xl"]},
             "details":[{"appIDs":["\#(app)"],"components":[{"/":"/$(food)/$(size)/*"}]}]}}
            """#)
        #expect(try decision(m, "https://example.com/pizza/xl/1") == .match)
        #expect(try decision(m, "https://example.com/sushi/sm") == .match)  // "s?" is a wildcard value
        #expect(try decision(m, "https://example.com/tacos/xl/1") == .noMatch)
        #expect(try decision(m, "https://example.com/pizza/m/1") == .noMatch)
    }

    @Test func customVariableReplacesAPredefinedOne() throws {
        let m = try matcher(#"""
            {"applinks":{"substitutionVariables":{"digit":["x"]},
             "details":[{"appIDs":["\#(app)"],"components":[{"/":"/id/$(digit)"}]}]}}
            """#)
        #expect(try decision(m, "https://example.com/id/x") == .match)
        #expect(try decision(m, "https://example.com/id/7") == .noMatch)
    }

    @Test func undefinedVariableNeverMatches() throws {
        let m = try matcher(#"{"applinks":{"details":[{"appIDs":["\#(app)"],"components":[{"/":"/$(nope)/*"},{"/":"/a"}]}]}}"#)
        #expect(try decision(m, "https://example.com/x/1") == .noMatch)
        #expect(try decision(m, "https://example.com/a") == .match)
    }

    @Test func manyVariablesDoNotBlowUp() throws {
        // 631 × 257 × 631 × 257 expansions if expanded naively; the position-set matcher stays linear.
        let m = try matcher(#"{"applinks":{"details":[{"appIDs":["\#(app)"],"components":[{"/":"/$(lang)-$(region)/$(lang)-$(region)/$(alnum)$(alnum)*$(digit)"}]}]}}"#)
        #expect(try decision(m, "https://example.com/en-GB/fr-FR/ab-long-tail-7") == .match)
        #expect(try decision(m, "https://example.com/en-GB/fr-UK/ab7") == .noMatch)
        let long = "https://example.com/en-GB/fr-FR/" + String(repeating: "a", count: 5000) + "x"
        #expect(try decision(m, long) == .noMatch)
    }

    @Test func defaultsInheritDomainThenEntryThenComponent() throws {
        let m = try matcher(#"""
            {"applinks":{"defaults":{"caseSensitive":false,"percentEncoded":false},
             "details":[
               {"appIDs":["ABQ7KM3X2P.one"],"components":[{"/":"/a b/*"},{"/":"/Exact","caseSensitive":true}]},
               {"appIDs":["ABQ7KM3X2P.two"],"defaults":{"caseSensitive":true},"components":[{"/":"/Two"},{"/":"/caf%C3%A9","percentEncoded":true}]}
             ]}}
            """#)
        // Domain level: case-insensitive and decoded.
        #expect(try decision(m, "https://example.com/A%20B/x", app: "ABQ7KM3X2P.one") == .match)
        // Component level beats the domain.
        #expect(try decision(m, "https://example.com/exact", app: "ABQ7KM3X2P.one") == .noMatch)
        #expect(try decision(m, "https://example.com/Exact", app: "ABQ7KM3X2P.one") == .match)
        // Entry level beats the domain; the domain's percentEncoded false still applies.
        #expect(try decision(m, "https://example.com/two", app: "ABQ7KM3X2P.two") == .noMatch)
        #expect(try decision(m, "https://example.com/Two", app: "ABQ7KM3X2P.two") == .match)
        #expect(try decision(m, "https://example.com/caf%C3%A9", app: "ABQ7KM3X2P.two") == .match)
    }

    @Test func legacyNotExcludesAndFirstMatchWins() throws {
        let m = try matcher(#"{"applinks":{"apps":[],"details":[{"appID":"\#(app)","paths":["/wwdc/news/","NOT /videos/wwdc/2010/*","/videos/wwdc/201?/*"]}]}}"#)
        let blocked = try m.decide("https://example.com/videos/wwdc/2010/a")
        #expect(blocked.decision == .exclude)
        #expect(blocked.rule == MatchRule(details: 0, kind: .path, index: 1, pointer: "/applinks/details/0/paths/1", text: "NOT /videos/wwdc/2010/*"))
        #expect(try decision(m, "https://example.com/videos/wwdc/2015/a") == .match)
        #expect(try decision(m, "https://example.com/wwdc/news/?x=1#y") == .match)  // query and fragment ignored
        #expect(try decision(m, "https://example.com/WWDC/news/") == .noMatch)  // always case-sensitive
        // "not " in lower case is an ordinary pattern, not an exclusion.
        let lower = try matcher(#"{"applinks":{"details":[{"appID":"\#(app)","paths":["not /a","*"]}]}}"#)
        #expect(try decision(lower, "https://example.com/a") == .match)
    }

    @Test func legacyPathsAreIgnoredWhenComponentsArePresent() throws {
        let m = try matcher(#"{"applinks":{"details":[{"appIDs":["\#(app)"],"paths":["*"],"components":[{"/":"/only"}]}]}}"#)
        #expect(try decision(m, "https://example.com/only") == .match)
        #expect(try decision(m, "https://example.com/other") == .noMatch)
    }

    @Test func eachAppIsDecidedByItsOwnEntriesInOrder() throws {
        let m = try matcher(#"""
            {"applinks":{"details":[
              {"appIDs":["ABQ7KM3X2P.one"],"components":[{"/":"/x/*","exclude":true}]},
              {"appIDs":["ABQ7KM3X2P.one","ABQ7KM3X2P.two"],"components":[{"/":"/x/*"},{"/":"/y"}]}
            ]}}
            """#)
        let result = try m.decide("https://example.com/x/1")
        #expect(result.appIDs == ["ABQ7KM3X2P.two"])
        #expect(result.decision == .match)
        #expect(result.rule?.details == 1)
        let forOne = try m.decide("https://example.com/x/1", appID: "ABQ7KM3X2P.one")
        #expect(forOne.decision == .exclude)
        #expect(forOne.rule?.pointer == "/applinks/details/0/components/0")
        #expect(forOne.rule?.text == #"{ "/": "/x/*", "exclude": true }"#)
        #expect(try m.decide("https://example.com/y").appIDs == ["ABQ7KM3X2P.one", "ABQ7KM3X2P.two"])
        let unknown = try m.decide("https://example.com/y", appID: "A.three")
        #expect(unknown.decision == .noMatch)
        #expect(unknown.reason != nil)
    }

    @Test func queryItemsAreComparedAsWrittenOrDecoded() throws {
        let m = try matcher(#"""
            {"applinks":{"details":[{"appIDs":["\#(app)"],"components":[
              {"/":"/enc","?":{"q":"a%20b"}},
              {"/":"/dec","?":{"q":"a b"},"percentEncoded":false},
              {"/":"/fold","?":{"Name":"VALUE"},"caseSensitive":false}
            ]}]}}
            """#)
        #expect(try decision(m, "https://example.com/enc?q=a%20b") == .match)
        #expect(try decision(m, "https://example.com/enc?q=a+b") == .noMatch)
        #expect(try decision(m, "https://example.com/dec?q=a%20b") == .match)
        #expect(try decision(m, "https://example.com/dec?q%3D=x&q=a%20b") == .match)  // an encoded "=" stays in the name
        #expect(try decision(m, "https://example.com/fold?name=value") == .match)
    }

    @Test func valuesOfTheWrongTypeNeverMatch() throws {
        let m = try matcher(##"{"applinks":{"details":[{"appIDs":["\##(app)"],"components":[{"/":5},{"#":["x"]},{"?":7},"/a",{"/":"/b"}]}]}}"##)
        #expect(try decision(m, "https://example.com/a") == .noMatch)
        #expect(try decision(m, "https://example.com/b") == .match)
    }

    @Test func hostIsCheckedUnlessNoneIsGiven() throws {
        let json = #"{"applinks":{"details":[{"appIDs":["\#(app)"],"components":[{"/":"*"}]}]}}"#
        #expect(try decision(try matcher(json, host: "Example.COM."), "https://example.com./x") == .match)
        #expect(try decision(try matcher(json), "https://user@example.com:8443/x") == .match)
        #expect(try decision(try matcher(json), "https://www.example.com/x") == .noMatch)
        #expect(try decision(try matcher(json, host: nil), "https://anything.test/x") == .match)
        #expect(try decision(try matcher(json), "/bare/path") == .match)
        #expect(throws: MatchURL.ParseError.self) { try matcher(json).decide("ftp://example.com/x") }
        #expect(throws: MatchURL.ParseError.self) { try matcher(json).decide("https:///x") }
    }

    @Test func firstSegmentIndexKeepsDocumentOrder() throws {
        let m = try matcher(#"""
            {"applinks":{"details":[{"appIDs":["\#(app)"],"components":[
              {"/":"*x","exclude":true},{"/":"/a/*"},{"/":"/A/B","caseSensitive":false,"exclude":true},{"/":"/$(digit)/*"},{"/":"*"}
            ]}]}}
            """#)
        #expect(try m.decide("https://example.com/a/x").rule?.index == 0)
        #expect(try m.decide("https://example.com/a/b").rule?.index == 1)
        #expect(try m.decide("https://example.com/A/b").rule?.index == 2)
        #expect(try m.decide("https://example.com/7/q").rule?.index == 3)
        #expect(try m.decide("https://example.com/zz").rule?.index == 4)
        #expect(try m.decide("https://example.com/").rule?.index == 4)
    }

    @Test func documentWithoutApplinksMatchesNothing() throws {
        let m = try matcher(#"{"webcredentials":{"apps":["\#(app)"]}}"#)
        let result = try m.decide("https://example.com/x")
        #expect(result.decision == .noMatch)
        #expect(result.reason == "the file has no applinks details")
    }
}

@Suite struct GlobPatternTests {
    @Test func questionMarkIsOneCharacterNotOneByte() {
        #expect(GlobPattern("caf?").matches(Array("café".utf8)))
        #expect(!GlobPattern("caf??").matches(Array("café".utf8)))
        #expect(GlobPattern("*é").matches(Array("xé".utf8)))
    }

    @Test func starAndQuestionMark() {
        #expect(GlobPattern("a*b*c").matches(Array("axxbyyc".utf8)))
        #expect(!GlobPattern("a*b*c").matches(Array("axxbyy".utf8)))
        #expect(GlobPattern("?*").matches(Array("x".utf8)))
        #expect(!GlobPattern("?*").matches([]))
        #expect(GlobPattern("").matches([]))
        #expect(GlobPattern("**").matches([]))
    }

    @Test func foldingLowersPatternAndVariablesButNotVariableNames() {
        let pattern = GlobPattern("ID-$(Kind)", variables: { $0 == "Kind" ? ["AB"] : nil }, foldCase: true)
        #expect(pattern.matches(Array("id-ab".utf8)))
        #expect(GlobPattern.folded("ÉCOLE") == "école")
    }

    @Test func unclosedVariableIsLiteralText() {
        #expect(GlobPattern("a$(b").matches(Array("a$(b".utf8)))
    }
}
