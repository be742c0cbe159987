import AASA
import Audit
import Testing

private func document(_ json: String) throws -> AASADocument {
    try #require(AASADocument(json: try JSONParser.parse(Array(json.utf8))))
}

private let app = "ABQ7KM3X2P.com.exemplo.app"
private let file = """
    {"applinks": {"details": [{"appIDs": ["\(app)"], "components": [
        {"/": "/buy/*"}, {"/": "/help/website/*", "exclude": true}, {"/": "/help/*"}]}]},
     "webcredentials": {"apps": ["\(app)"]}}
    """

@Suite struct ExpectationCheckTests {
    @Test func everyKindOfBrokenExpectationIsNamed() throws {
        let expectations = DomainExpectations(apps: [app, "ZZZZZ99999.com.other"], opens: ["/help/website/faq", "/sell"],
                                              stays: ["/buy/1"], webcredentials: ["ZZZZZ99999.com.other"], appclips: ["\(app).Clip"])
        let findings = ExpectationCheck.findings(expectations, domain: "example.com", document: try document(file))
        #expect(findings.map(\.id) == ["expect.app-missing", "expect.not-opened", "expect.not-opened", "expect.not-opened", "expect.not-opened",
                                       "expect.opened", "expect.webcredentials-missing", "expect.appclip-missing"])
        #expect(findings.allSatisfy { $0.severity == .error })
        let excluded = try #require(findings.first { $0.message.contains("/help/website/faq") && $0.message.contains(app) })
        #expect(excluded.message.contains(#"details 0, component 1 { "/": "/help/website/*", "exclude": true } excludes it"#))
        #expect(excluded.pointer == "/applinks/details/0/components/1")
        let unmatched = try #require(findings.first { $0.message.contains("/sell") && $0.message.contains(app) })
        #expect(unmatched.message.contains("no rule for \(app) matches it"))
        let other = try #require(findings.first { $0.message.contains("/sell") && $0.message.contains("ZZZZZ") })
        #expect(other.message.contains("has no applinks details entry"))
        let opened = try #require(findings.first { $0.id == "expect.opened" })
        #expect(opened.message.contains("https://example.com/buy/1 should stay in the browser but opens \(app)"))
    }

    @Test func withoutAppOpensMeansAnyApp() throws {
        let findings = ExpectationCheck.findings(DomainExpectations(opens: ["/help/x"], stays: ["/help/website/a", "/other"]),
                                                 domain: "example.com", document: try document(file))
        #expect(findings.map(\.id) == ["expect.met"])
        #expect(findings.first?.severity == .info)
    }

    @Test func nothingExpectedNothingReported() throws {
        #expect(ExpectationCheck.findings(DomainExpectations(), domain: "example.com", document: nil).isEmpty)
    }

    @Test func noDocumentIsOneWarning() {
        let findings = ExpectationCheck.findings(DomainExpectations(apps: [app], opens: ["/a", "/b"]), domain: "example.com", document: nil)
        #expect(findings.map(\.id) == ["expect.unchecked"])
        #expect(findings.first?.message.contains("3 expectations") == true)
    }
}
