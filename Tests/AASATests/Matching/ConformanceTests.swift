import Testing
import AASA
import TestSupport

/// One case of Tests/Corpus/conformance/cases.json.
private struct ConformanceCase: CustomStringConvertible {
    var name: String
    var feature: String
    var status: String
    var document: AASADocument
    var domain: String
    var appID: String
    var url: String
    var expect: MatchDecision

    var description: String { name }
}

private func loadCases() throws -> [ConformanceCase] {
    let root = try JSONParser.parse(try ConformanceCorpus.bytes()).root
    let items = try #require(root.objectValue?["matching"]?.arrayValue)
    return try items.map { item in
        let object = try #require(item.objectValue)
        func text(_ key: String) throws -> String { try #require(object[key]?.stringValue, "\(key) missing") }
        let aasa = try #require(object["aasa"])
        return ConformanceCase(
            name: try text("name"), feature: try text("feature"), status: try text("status"),
            document: try #require(AASADocument(json: JSONDocument(root: aasa))),
            domain: try text("domain"), appID: try text("appId"), url: try text("url"),
            expect: try #require(MatchDecision(rawValue: try text("expect"))))
    }
}

@Test func conformanceCorpusHasTheDocumentedCases() throws {
    let cases = try loadCases()
    #expect(cases.count == 140)
    #expect(cases.filter { $0.status == "oracle" }.count == 139)
    #expect(cases.filter { $0.status == "decided" }.map(\.name) == ["host/empty-domain-skips-the-check"])
}

/// Every case whose answer comes from Apple (swcutil or documentation) passes. An empty `domain`
/// (the one `decided` case) means no host restriction, as for `aasa-audit match --file`.
@Test func oracleAndDocumentedCasesPass() throws {
    let cases = try loadCases()
    var passedByFeature: [String: (passed: Int, total: Int)] = [:]
    for testCase in cases where testCase.status == "oracle" || testCase.status == "documented" {
        let matcher = URLMatcher(testCase.document, host: testCase.domain)
        let result = try matcher.decide(testCase.url, appID: testCase.appID)
        #expect(result.decision == testCase.expect, "\(testCase.name): \(testCase.url) gave \(result.decision.rawValue), expected \(testCase.expect.rawValue)")
        var tally = passedByFeature[testCase.feature, default: (0, 0)]
        tally.total += 1
        if result.decision == testCase.expect { tally.passed += 1 }
        passedByFeature[testCase.feature] = tally
    }
    let passed = passedByFeature.values.reduce(0) { $0 + $1.passed }
    #expect(passed == 139)
    // Each positive case that matches names the rule that decided it.
    for testCase in cases where testCase.expect != .noMatch {
        let result = try URLMatcher(testCase.document, host: testCase.domain).decide(testCase.url, appID: testCase.appID)
        #expect(result.rule != nil, "\(testCase.name) has no deciding rule")
    }
}

@Test func decidedCaseIsReadAsNoHostRestriction() throws {
    let testCase = try #require(try loadCases().first { $0.status == "decided" })
    let result = try URLMatcher(testCase.document, host: testCase.domain).decide(testCase.url, appID: testCase.appID)
    #expect(result.decision == testCase.expect)
    // With the host given, the same URL on another host does not match (a file governs only its host).
    let restricted = try URLMatcher(testCase.document, host: "example.com").decide(testCase.url, appID: testCase.appID)
    #expect(restricted.decision == .noMatch)
}
