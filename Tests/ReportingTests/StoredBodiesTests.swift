import Audit
import Foundation
import Testing
@testable import Reporting

/// report.json stores each distinct body once, in `bodies`, and reads back both that and the
/// version-1 layout (bodies inline).
struct StoredBodiesTests {
    static func report() -> AuditReport {
        var other = ReportFixtures.passing
        other.domain = "other.test"
        return AuditReport(tool: ReportFixtures.tool, generatedAt: ReportFixtures.generatedAt,
                           domains: [ReportFixtures.passing, other, ReportFixtures.fallback])
    }

    static func object(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func eachDistinctBodyIsStoredOnceAndReadBack() throws {
        let report = Self.report()
        let data = try JSONReporter.render(report)
        let top = try Self.object(data)
        let bodies = try #require(top["bodies"] as? [String: String])
        var distinct = Set<String>()
        for domain in report.domains { for location in domain.locations { if let body = location.body { distinct.insert(body) } } }
        #expect(bodies.count == distinct.count && Set(bodies.values) == distinct)
        for (key, text) in bodies { #expect(key == BodyDigest.sha256(of: text)) }
        let text = String(decoding: data, as: UTF8.self)
        #expect(!text.contains("\"body\" :"), "no body inline")
        #expect(try JSONReporter.decode(data) == report)
    }

    @Test func aVersion1ReportWithBodiesInlineIsRead() throws {
        let report = Self.report()
        // Version 1: the same report with each body in its location, no digest and no table.
        var top = try Self.object(try JSONReporter.render(report))
        let bodies = try #require(top.removeValue(forKey: "bodies") as? [String: String])
        top["schemaVersion"] = 1
        var domains = try #require(top["domains"] as? [[String: Any]])
        for d in domains.indices {
            var locations = try #require(domains[d]["locations"] as? [[String: Any]])
            for l in locations.indices {
                if let digest = locations[l].removeValue(forKey: "bodySHA256") as? String { locations[l]["body"] = bodies[digest] }
            }
            domains[d]["locations"] = locations
        }
        top["domains"] = domains
        let old = try JSONReporter.decode(try JSONSerialization.data(withJSONObject: top))
        #expect(old.schemaVersion == 1)
        var same = old
        same.schemaVersion = report.schemaVersion
        #expect(same == report, "bodies and their digests as written now")
    }

    @Test(arguments: [
        ("a reference to no body", { (text: String) in text.replacingOccurrences(of: "\"bodies\" : {", with: "\"bodiez\" : {") }),
        ("a key that is not the text's SHA-256", { (text: String) in
            text.replacingOccurrences(of: "\"bodies\" : {\n    \"", with: "\"bodies\" : {\n    \"0") }),
    ] as [(String, @Sendable (String) -> String)])
    func aBrokenTableIsRefused(_ what: String, _ change: @Sendable (String) -> String) throws {
        let text = String(decoding: try JSONReporter.render(Self.report()), as: UTF8.self)
        #expect(throws: (any Error).self, "\(what)") { try JSONReporter.decode(Data(change(text).utf8)) }
    }

    @Test func aBodyLeftOutIsSaidWithItsSizeAndDigest() {
        var domain = ReportFixtures.passing
        domain.keepBodies(.failing)
        let digest = BodyDigest.sha256(of: ReportFixtures.passing.locations[0].body ?? "")
        let page = HTMLReporter.render(AuditReport(tool: ReportFixtures.tool, generatedAt: ReportFixtures.generatedAt, domains: [domain]))
        #expect(page.contains("Body not stored (<code>--bodies failing</code>): \(domain.locations[0].bytes.decoded) bytes"))
        #expect(page.contains(digest))
        #expect(!page.contains("not UTF-8"))
    }
}
