import Testing
@testable import AASA

/// The per-entry prefix index must never change a decision: random rules and URLs from a small
/// alphabet, decided with and without it.
@Test func prefixIndexDecidesLikeTryingEveryRuleInOrder() throws {
    var state: UInt64 = 42
    func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }
    let pieces = ["a", "b", "A", "/", "*", "?", "ab", "%2F", "$(digit)", "1", "é"]
    let urlPieces = ["a", "b", "A", "B", "/", "1", "ab", "%2F", "%C3%A9", "x"]
    func pattern() -> String { (0..<next(5)).map { _ in pieces[next(pieces.count)] }.joined() }
    for _ in 0..<150 {
        var components: [String] = []
        for _ in 0..<(1 + next(12)) {
            var keys = [#""/":"/\#(pattern())""#]
            if next(4) == 0 { keys.append(#""caseSensitive":false"#) }
            if next(4) == 0 { keys.append(#""percentEncoded":false"#) }
            if next(3) == 0 { keys.append(#""exclude":true"#) }
            if next(6) == 0 { keys = [#""?":{"q":"\#(pattern())"}"#] }
            components.append("{" + keys.joined(separator: ",") + "}")
        }
        let json = #"{"applinks":{"details":[{"appIDs":["A.b"],"components":[\#(components.joined(separator: ","))]}]}}"#
        let matcher = try #require(URLMatcher(json: Array(json.utf8)))
        let entry = try #require(matcher.entries.first)
        for _ in 0..<40 {
            let path = "/" + (0..<next(6)).map { _ in urlPieces[next(urlPieces.count)] }.joined()
            let url = try MatchURL.parse(path + (next(3) == 0 ? "?q=" + urlPieces[next(urlPieces.count)] : ""))
            let views = matcher.views(of: url)
            let indexed = entry.evaluate(views), plain = entry.evaluateWithoutIndex(views)
            #expect(indexed.rule == plain.rule && indexed.exclude == plain.exclude, "\(json) \(path)")
        }
    }
}

/// Hostile documents and URLs: odd types, unclosed variables, stray bytes, huge repeats. Deciding
/// must return a decision for every one (a crash fails the test run).
@Test func matcherDecidesOddDocumentsAndURLs() throws {
    var state: UInt64 = 7
    func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }
    let values = [#""*""#, #""?""#, #""$(""#, #""$()""#, #""$(x""#, #""$(lang)$(lang)$(region)*""#, "5", "null", "[]", "{}",
                  #"{"a":"$(v)"}"#, #"{"a":true}"#, #""%""#, #""%zz""#, #""\u0000""#, #""é*?""#, "\"" + String(repeating: "*?", count: 300) + "\""]
    let keys = [#""/""#, #""?""#, "\"#\"", #""exclude""#, #""caseSensitive""#, #""percentEncoded""#]
    let urls = ["https://", "https://[::1", "http://a@", "/", "//", "/%", "/%e9", "/?&&=&=", "/#", "https://x.test:99999/é?a=%ZZ#%",
                "/" + String(repeating: "a/", count: 2000), "/" + String(repeating: "%2F", count: 500)]
    var compiled = 0, decided = 0, refused = 0
    for _ in 0..<300 {
        let components = (0..<(1 + next(4))).map { _ in
            "{" + (0..<next(4)).map { _ in keys[next(keys.count)] + ":" + values[next(values.count)] }.joined(separator: ",") + "}"
        }
        let variables = next(2) == 0 ? #""substitutionVariables":{"v":["a*", 1, "$(w)"], "lang":"x"},"# : ""
        let defaults = next(2) == 0 ? #""defaults":{"caseSensitive":false,"percentEncoded":false},"# : ""
        let json = #"{"applinks":{\#(variables)\#(defaults)"details":[{"appIDs":["A.b"],"paths":["NOT ","*",5],"components":[\#(components.joined(separator: ","))]},{"appID":"A.c","paths":[\#(values[next(values.count)])]}]}}"#
        guard let matcher = URLMatcher(json: Array(json.utf8), host: next(2) == 0 ? nil : "x.test") else { continue }
        compiled += 1
        for url in urls {
            let appID = next(2) == 0 ? nil : "A.b"
            let result: MatchResult
            do {
                result = try matcher.decide(url, appID: appID)
            } catch {
                // Only a URL with a scheme can be refused (no host); a path always gets a decision.
                #expect(!url.hasPrefix("/"), "\(url) was refused: \(error)")
                #expect(error.description.contains(url), "the refusal names the URL: \(error)")
                refused += 1
                continue
            }
            decided += 1
            // The answer is coherent: it echoes the question, and a rule decided exactly when it is not no_match.
            #expect(result.url == url && result.appID == appID)
            #expect((result.decision == .noMatch) == (result.rule == nil), "\(url): \(result.decision) by \(String(describing: result.rule))")
            if let rule = result.rule { #expect(rule.pointer.hasPrefix("/applinks/details/"), "\(rule.pointer)") }
            if appID == nil && result.decision == .match { #expect(!result.appIDs.isEmpty, "\(url): a match opens some app") }
        }
    }
    // Most generated documents are JSON objects, and most URLs parse: the loop did exercise the engine.
    #expect(compiled > 200)
    #expect(decided > compiled * 8)
    #expect(refused > 0 && decided + refused == compiled * urls.count)
}
