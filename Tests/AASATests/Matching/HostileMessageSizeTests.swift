import Testing
import AASA

/// A finding quotes the text it is about; a hostile 128 KB file must not turn that into hundreds of
/// megabytes of report (a 90 KB comment quoted by each of 3,000 unreachable-rule findings, a 35 KB
/// pattern quoted once per each of its 5,000 references).
@Suite struct HostileMessageSizeTests {
    private let app = "ABQ7KM3X2P.com.exemplo.app"

    private func findings(components: String, extra: String = "") throws -> [Finding] {
        let json = #"{"applinks":{\#(extra)"details":[{"appIDs":["\#(app)"],"components":[\#(components)]}]}}"#
        let validation = DocumentValidator.validate(json: Array(json.utf8))
        _ = try #require(validation.document)
        return validation.findings
    }

    private func size(_ findings: [Finding]) -> Int {
        findings.reduce(0) { $0 + $1.message.utf8.count + ($1.fix?.utf8.count ?? 0) }
    }

    @Test func unreachableRulesDoNotQuoteAHugeEarlierRuleEachTime() throws {
        let comment = String(repeating: "x", count: 90_000)
        let later = (0..<3000).map { #"{"/":"/a/b\#($0)"}"# }.joined(separator: ",")
        for first in [#"{"/":"/a*","comment":"\#(comment)"}"#, #"{"/":"*","comment":"\#(comment)"}"#] {
            let found = try findings(components: first + "," + later)
            let reach = found.filter { $0.id.hasPrefix("match.") }
            #expect(reach.count == 3000)
            // Each finding quotes both rules, cut to a readable length.
            #expect(size(reach) < 3000 * 1000, "\(size(reach)) bytes of messages")
            #expect(reach.first?.message.contains("xxxx…") == true)
        }
    }

    @Test func undefinedVariableRepeatedInOnePatternIsOneShortFinding() throws {
        let pattern = String(repeating: "$(nope)", count: 5000)
        let found = try findings(components: #"{"/":"\#(pattern)"}"#).filter { $0.id == "schema.variable-undefined" }
        #expect(found.count == 1)
        #expect(size(found) < 2000)
        #expect(found.first?.message.contains("$(nope)") == true)
    }

    @Test func manyDistinctUndefinedVariablesStayLinear() throws {
        let pattern = (0..<4000).map { "$(v\($0))" }.joined()
        let found = try findings(components: #"{"/":"\#(pattern)"}"#).filter { $0.id == "schema.variable-undefined" }
        #expect(found.count == 4000)
        #expect(size(found) < 4000 * 1000, "\(size(found)) bytes of messages")
    }

    @Test func matchRuleDescriptionIsShortButTextIsWhole() throws {
        let comment = String(repeating: "y", count: 10_000)
        let json = #"{"applinks":{"details":[{"appIDs":["\#(app)"],"components":[{"/":"/a","comment":"\#(comment)"}]}]}}"#
        let matcher = try #require(URLMatcher(json: Array(json.utf8)))
        let rule = try #require(try matcher.decide("/a").rule)
        #expect(rule.text.utf8.count > 10_000)
        #expect(rule.description.utf8.count < 400)
        #expect(rule.description.hasPrefix("details 0, component 0 { \"/\": \"/a\""))
    }

    @Test func excerptKeepsShortTextAndCutsLongText() {
        #expect(Excerpt.of("abc") == "abc")
        #expect(Excerpt.of(String(repeating: "a", count: Excerpt.limit)) == String(repeating: "a", count: Excerpt.limit))
        let long = String(repeating: "é", count: 1000)
        let cut = Excerpt.of(long)
        #expect(cut.hasPrefix(String(repeating: "é", count: Excerpt.limit) + "…"))
        #expect(cut.hasSuffix("(1000 characters)"))
    }
}
