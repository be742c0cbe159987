import Audit
import Foundation
import Testing
@testable import Reporting

@Suite struct JSONReporterTests {
    /// A domain's bytes indented into `domains`, against the rule written out byte by byte: each
    /// line four spaces deep but an empty one, and the separator after all but the last domain.
    @Test(arguments: ["", "{}", "{\n  \"a\" : 1\n}", "\n", "\n\n", "x\n", "\nx", "[\n\n]", "a\n\nb\n  c\n", "é\n\u{7F}"], [false, true])
    func indentedAsTheRule(text: String, separator: Bool) {
        var expected: [UInt8] = Array("    ".utf8)
        let bytes = Array(text.utf8)
        for (offset, byte) in bytes.enumerated() {
            expected.append(byte)
            if byte == 0x0A, offset + 1 < bytes.count, bytes[offset + 1] != 0x0A { expected += Array("    ".utf8) }
        }
        if separator { expected += [0x2C, 0x0A] }
        #expect(Array(JSONReporter.indented(Data(bytes), separator: separator)) == expected)
    }

    @Test func roundTripsTheFixtureReport() throws {
        let data = try JSONReporter.render(ReportFixtures.report)
        #expect(try JSONReporter.decode(data) == ReportFixtures.report)
    }

    @Test func hasTheDocumentedTopLevelShape() throws {
        let object = try JSONSerialization.jsonObject(with: JSONReporter.render(ReportFixtures.report))
        let top = try #require(object as? [String: Any])
        #expect(top["schemaVersion"] as? Int == AuditReport.currentSchemaVersion)
        let tool = try #require(top["tool"] as? [String: Any])
        #expect(tool["name"] as? String == "aasa-audit")
        #expect(tool["version"] as? String == "0.1.0")
        #expect(top["generatedAt"] as? String == "2026-11-29T19:00:00Z")
        let summary = try #require(top["summary"] as? [String: Int])
        #expect(summary == ["domains": 7, "pass": 2, "warn": 2, "fail": 3])

        let domains = try #require(top["domains"] as? [[String: Any]])
        #expect(domains.count == 7)
        let redirect = try #require(domains.first { $0["domain"] as? String == "redirect.example" })
        #expect(redirect["verdict"] as? String == "fail")
        #expect(redirect["findings"] is [Any])
        let location = try #require((redirect["locations"] as? [[String: Any]])?.first)
        for key in ["path", "url", "verdict", "httpStatus", "contentType", "bytes", "redirect", "tls", "timings", "findings"] {
            #expect(location[key] != nil, "location lacks \(key)")
        }
        let finding = try #require((location["findings"] as? [[String: Any]])?.first)
        #expect(finding["id"] as? String == "redirect.present")
        #expect(finding["severity"] as? String == "error")
        #expect(finding["message"] is String)
    }

    @Test func leavesOutNilOptionalsAndKeepsSlashes() throws {
        let text = String(decoding: try JSONReporter.render(ReportFixtures.report), as: UTF8.self)
        #expect(text.contains("\"url\" : \"https://nxdomain.example/.well-known/apple-app-site-association\""))
        #expect(!text.contains("\\/"))
        #expect(!text.contains("null"))
        #expect(text.hasSuffix("}\n"))
        let object = try JSONSerialization.jsonObject(with: JSONReporter.render(ReportFixtures.report)) as? [String: Any]
        let nx = (object?["domains"] as? [[String: Any]])?.first { $0["domain"] as? String == "nxdomain.example" }
        let location = (nx?["locations"] as? [[String: Any]])?.first
        #expect(location?["httpStatus"] == nil)
        #expect(location?["tls"] == nil)
        #expect(location?["error"] != nil)
    }

    @Test func refusesAnotherSchemaVersion() throws {
        var object = try #require(
            try JSONSerialization.jsonObject(with: JSONReporter.render(ReportFixtures.small)) as? [String: Any])
        object["schemaVersion"] = 99
        let data = try JSONSerialization.data(withJSONObject: object)
        #expect(throws: JSONReporter.UnsupportedSchemaVersion(found: 99, supported: AuditReport.currentSchemaVersion)) {
            try JSONReporter.decode(data)
        }
    }
}
