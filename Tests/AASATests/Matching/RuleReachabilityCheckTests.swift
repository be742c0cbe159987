import Testing
import AASA
import TestSupport

private func findings(_ json: String) throws -> [Finding] {
    let document = try #require(AASADocument(json: try JSONParser.parse(Array(json.utf8))))
    return RuleReachabilityCheck.findings(in: document)
}

private func components(_ rules: String, defaults: String = "") -> String {
    #"{"applinks":{\#(defaults)"details":[{"appIDs":["ABQ7KM3X2P.com.exemplo.app"],"components":[\#(rules)]}]}}"#
}

@Suite struct RuleReachabilityCheckTests {
    @Test func excludeAfterABroaderRuleIsUnreachable() throws {
        let result = try findings(components(#"{"/":"/buy/*"},{"/":"/buy/gift/*","exclude":true}"#))
        #expect(result.map(\.id) == ["match.unreachable"])
        #expect(result.first?.pointer == "/applinks/details/0/components/1")
        #expect(result.first?.message.contains("the URLs it excludes open the app anyway") == true)
    }

    @Test func universalExcludeShadowsEverythingOnce() throws {
        let result = try findings(components(##"{"/":"*","?":{"a":"*"},"#":"*","exclude":true},{"/":"/a"},{"/":"/b"}"##))
        #expect(result.map(\.id) == ["match.exclude-shadows-all"])
        #expect(result.first?.message.contains("the 2 rules after it") == true)
        // As the last rule it shadows nothing.
        #expect(try findings(components(#"{"/":"/a"},{"/":"/*","exclude":true}"#)).isEmpty)
    }

    @Test func thousandsOfRulesAreComparedWithBoundedCandidates() throws {
        // 20,000 exact paths after one broad rule, then 200 broad rules of their own: every exact path
        // is redundant under the first rule, and the check stays linear (a pairwise check would make
        // 200 million comparisons here, and stalled the audit of such a file for seconds).
        let exact = (0..<20_000).map { #"{"/":"/p/\#($0)"}"# }
        let broad = (0..<200).map { #"{"/":"/q\#($0)/*"}"# }
        let result = try findings(components(([#"{"/":"/p/*"}"#] + exact + broad).joined(separator: ",")))
        #expect(result.count == 20_000)
        #expect(result.allSatisfy { $0.id == "match.redundant" })
        #expect(result.last?.pointer == "/applinks/details/0/components/20000")
    }

    @Test func broadRulesAreFoundByTheirPrefixWhereverTheyAre() throws {
        // 300 broad rules, then a rule under the last of them, one under its `prefix/` alone, and one
        // under none: broad rules are looked up by the beginning of the later path, so the 300th is
        // found (trying the first 64 broad rules in turn missed it), and the third is not reported.
        let broad = (0..<300).map { #"{"/":"/shop/\#($0)/*"}"# }
        let later = [#"{"/":"/shop/299/item"}"#, #"{"/":"/shop/299","exclude":true}"#, #"{"/":"/shop/300/item"}"#]
        let result = try findings(components((broad + later).joined(separator: ",")))
        #expect(result.map(\.id) == ["match.redundant", "match.unreachable"])
        #expect(result.map(\.pointer) == ["/applinks/details/0/components/300", "/applinks/details/0/components/301"])
        #expect(result.first?.message.contains("component 299 ") == true)
    }

    @Test func sameEffectIsRedundantInfo() throws {
        let result = try findings(components(#"{"/":"/i/*"},{"/":"/i"},{"/":"/x"},{"/":"/x/"}"#))
        #expect(result.map(\.id) == ["match.redundant", "match.redundant"])
        #expect(result.map(\.pointer) == ["/applinks/details/0/components/1", "/applinks/details/0/components/3"])
        #expect(result.allSatisfy { $0.severity == .info })
    }

    @Test(arguments: [
        #"{"/":"/buy/*"},{"/":"/buyer"}"#,                                    // "buy/" is not a prefix of "buyer"
        #"{"/":"/buy/*","?":{"id":"?*"}},{"/":"/buy/1"}"#,                    // the earlier rule needs a query item
        ##"{"/":"/buy/*","#":"x"},{"/":"/buy/1"}"##,                          // ... or a fragment
        #"{"/":"/b?y/*"},{"/":"/buy/1","exclude":true}"#,                     // wildcards inside the prefix: not provable here
        #"{"/":"/buy/*"},{"/":"/BUY/1","caseSensitive":false,"exclude":true}"#, // other settings
        #"{"/":"/$(lang)/*"},{"/":"/en/x","exclude":true}"#,                  // variables are not expanded by the lint
        #"{"/":"/a/*/c"},{"/":"/a/c","exclude":true}"#,
        #"{"/":5},{"/":"/a"}"#,
    ])
    func nothingIsReportedWithoutProof(rules: String) throws {
        #expect(try findings(components(rules)).isEmpty, "\(rules)")
    }

    @Test func caseInsensitiveRulesCompareFolded() throws {
        let result = try findings(components(#"{"/":"/Buy/*"},{"/":"/buy/x","exclude":true}"#, defaults: #""defaults":{"caseSensitive":false},"#))
        #expect(result.map(\.id) == ["match.unreachable"])
    }

    @Test func legacyPaths() throws {
        let json = #"{"applinks":{"apps":[],"details":[{"appID":"ABQ7KM3X2P.com.exemplo.app","paths":["/videos/*","NOT /videos/private/*","NOT *","/x"]}]}}"#
        let result = try findings(json)
        // "NOT *" excludes everything, so "/x" after it is covered by that one finding.
        #expect(result.map(\.id) == ["match.unreachable", "match.exclude-shadows-all"])
        #expect(result.first?.pointer == "/applinks/details/0/paths/1")
    }

    /// Every rule the lint calls unreachable or redundant in the real corpus is, by the engine, decided by
    /// an earlier rule: a URL built from the rule's own pattern (wildcards filled in) never reaches it.
    @Test func corpusFindingsAgreeWithTheEngine() throws {
        var checked = 0
        for entry in try RealAASACorpus.entries() {
            let bytes = try RealAASACorpus.bytes(of: entry.file)
            guard let parsed = try? JSONParser.parse(bytes),
                  let document = AASADocument(json: parsed) else { continue }
            let matcher = URLMatcher(document)
            for finding in RuleReachabilityCheck.findings(in: document) where finding.id != "match.exclude-shadows-all" {
                let pointer = try #require(finding.pointer)
                let (sample, app) = try #require(samplePath(document, pointer: pointer), "\(entry.file) \(pointer)")
                var result = try matcher.decide(sample, appID: app)
                // A few corpus files name their app without a Team ID ("TEAMID.…", "com.…"): no app has such
                // an ID, so the engine opens nothing for it. Reachability is about the rules, so that app is
                // given a Team ID's shape and asked about again.
                if AppIDCheck.unusableRuleID(app) != nil {
                    let text = String(decoding: bytes, as: UTF8.self)
                        .replacingOccurrences(of: "\"\(app)\"", with: "\"ABQ7KM3X2P.\(app)\"")
                    let fixed = try #require(AASADocument(json: try JSONParser.parse(Array(text.utf8))))
                    result = try URLMatcher(fixed).decide(sample, appID: "ABQ7KM3X2P.\(app)")
                }
                let parts = pointer.split(separator: "/")
                let index = try #require(Int(parts.last ?? ""))
                let decidedBy = try #require(result.rule, "\(entry.file) \(sample)")
                #expect(decidedBy.pointer != pointer && decidedBy.index < index, "\(entry.file) \(sample) decided by \(decidedBy)")
                checked += 1
            }
        }
        #expect(checked == 22)
    }

    /// A path the rule at `pointer` matches (its path pattern with `*` removed and `?` as "x"), and an app of its entry.
    private func samplePath(_ document: AASADocument, pointer: String) -> (String, String)? {
        let parts = pointer.split(separator: "/").map(String.init)  // applinks, details, N, components|paths, M
        guard parts.count == 5, let details = Int(parts[2]), let index = Int(parts[4]),
              let entry = document.applinks?["details"]?.arrayValue?[details].objectValue,
              let rule = entry[parts[3]]?.arrayValue?[index] else { return nil }
        var pattern = rule.stringValue ?? rule.objectValue?["/"]?.stringValue ?? "/"
        if pattern.hasPrefix("NOT ") { pattern = String(pattern.dropFirst(4)) }
        let filled = pattern.replacingOccurrences(of: "*", with: "").replacingOccurrences(of: "?", with: "x")
        var query = ""
        if let items = rule.objectValue?["?"]?.objectValue {
            query = "?" + items.members.map { "\($0.key)=v" }.joined(separator: "&")
        }
        guard let app = entry["appIDs"]?.arrayValue?.first?.stringValue ?? entry["appID"]?.stringValue else { return nil }
        return ((filled.hasPrefix("/") ? "" : "/") + filled + query, app)
    }
}
