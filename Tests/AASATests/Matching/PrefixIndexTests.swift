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
