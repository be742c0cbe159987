import Foundation
import Testing
@testable import AASA

/// Compiling a hostile document's patterns: the audit compiles every fetched document that has
/// expectations, so an absurd pattern must cost time and memory in proportion to its size.
@Suite struct HostilePatternCompileTests {
    @Test func manyUnclosedVariablesAreOneTextPiece() {
        // Each "$(" used to search the rest of the pattern for ")": 30,000 of them took 22 s (release).
        let text = String(repeating: "$(", count: 30_000)
        let start = Date()
        let pieces = GlobPattern.pieces(of: text)
        let pattern = GlobPattern(text)
        #expect(Date().timeIntervalSince(start) < 5, "hang detection only; linear is milliseconds")
        #expect(pieces == [.text(text)])
        #expect(pattern.matches(Array(text.utf8)))
        #expect(!pattern.matches(Array(text.dropLast().utf8)))
    }

    @Test func unclosedVariableAfterClosedOnesIsText() {
        #expect(GlobPattern.pieces(of: "a$(x)b$(c") == [.text("a"), .variable("x"), .text("b$(c")])
        #expect(GlobPattern.pieces(of: "$(x$(y)") == [.variable("x$(y")])
        #expect(GlobPattern.pieces(of: "$$(x)$") == [.text("$"), .variable("x"), .text("$")])
    }

    @Test func aVariableUsedManyTimesIsCompiledOnce() {
        let values = (1..<40).map { String(repeating: "a", count: $0) + "*" }
        var lookups = 0
        let pattern = GlobPattern(String(repeating: "$(v)", count: 300) + "$(w)$(v)",
                                  variables: { name in lookups += 1; return name == "v" ? values : ["x"] })
        #expect(pattern.choices.count == 2)
        #expect(lookups == 2)
        #expect(pattern.elements.count == 302)
        #expect(pattern.matches(Array((String(repeating: "a", count: 300) + "xa").utf8)))
        #expect(!pattern.matches(Array((String(repeating: "a", count: 299) + "xa").utf8)))
    }

    @Test func predefinedListsAreSharedAcrossRules() throws {
        // 4,000 references to $(lang) and $(region) used to build 4,000 tries (1 s, 100 MB).
        let rules = (0..<2000).map { #"{"/":"/$(lang)_$(region)/\#($0)"}"# }.joined(separator: ",")
        let json = #"{"applinks":{"details":[{"appIDs":["ABQ7KM3X2P.com.exemplo.app"],"components":[\#(rules)]}]}}"#
        let matcher = try #require(URLMatcher(json: Array(json.utf8)))
        #expect(try matcher.decide("/fil_PH/1999").decision == .match)
        #expect(try matcher.decide("/fil_UK/1999").decision == .noMatch)
        let document = try #require(AASADocument(json: try JSONParser.parse(Array(json.utf8))))
        #expect(RuleCompiler(document).variableChoices.count == 2)
    }
}

/// A variable's wildcard values share their starts in an `ElementTrie`; deciding through it must give
/// what trying each value on its own gives.
@Suite struct ElementTrieTests {
    @Test func choiceWithWildcardValuesAgreesWithEachValueAlone() {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let alphabet = ["a", "b", "*", "?", "é", "ab"]
        func word(_ maximum: Int) -> String { (0..<next(maximum + 1)).map { _ in alphabet[next(alphabet.count)] }.joined() }
        for _ in 0..<300 {
            let values = (0..<(1 + next(6))).map { _ in word(4) }
            let (before, after) = (word(2), word(2))
            let combined = GlobPattern(before + "$(v)" + after, variables: { $0 == "v" ? values : nil })
            let separate = values.map { GlobPattern(before + $0 + after) }
            for _ in 0..<20 {
                let input = Array(word(7).replacingOccurrences(of: "*", with: "b").replacingOccurrences(of: "?", with: "a").utf8)
                #expect(combined.matches(input) == separate.contains { $0.matches(input) },
                        "\(before)$(v)\(after) with \(values) on \(String(decoding: input, as: UTF8.self))")
            }
        }
    }

    @Test func sharedStartsAreOneChain() {
        let values = (1..<400).map { [GlobPattern.Element](repeating: .byte(UInt8(ascii: "a")), count: $0) + [.star] }
        let trie = ElementTrie(values)
        #expect(trie.depth == 399)
        #expect(trie.edges.reduce(0) { $0 + $1.reduce(0) { $0 + $1.elements.count } } == 399 * 2)
    }
}
