import AASA
import Audit
import Foundation
import Testing
import TestSupport
@testable import Reporting

/// docs/report.schema.json against the reports the fixtures make, by a validator that is not the
/// tool (python3-jsonschema). The end-to-end tests validate every report.json the binary writes
/// (`AuditBinary.readReport`).
@Suite struct ReportSchemaTests {
    static func validate(_ json: Data) throws {
        let folder = try AuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("report.json")
        try json.write(to: file)
        try PublishedFormatChecks.validateReport(at: file)
    }

    static let fixtures: [(String, AuditReport)] = [
        ("everything, with changes", ReportFixtures.report),
        ("the documented example", ReportFixtures.small),
        ("with history", HistoryRenderingTests.report),
        ("hostile, sharded, interrupted, with changes", {
            var report = HostileReport.report(shard: Shard(index: 1, count: 2))
            report.changes = HostileReport.changes()
            report.complete = false
            report.inputErrorsOmitted = 5
            return report
        }()),
    ]

    @Test(arguments: 0..<fixtures.count)
    func fixtureReportsValidate(index: Int) throws {
        try Self.validate(JSONReporter.render(Self.fixtures[index].1))
    }

    @Test func theSchemaIsVersionedWithTheReport() throws {
        let schema = try JSONSerialization.jsonObject(with: Data(contentsOf: PublishedFormatChecks.reportSchema)) as? [String: Any]
        #expect(schema?["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
        #expect(schema?["$id"] as? String == "urn:aasa-audit:report.json:schemaVersion:\(AuditReport.currentSchemaVersion)")
        let version = (schema?["properties"] as? [String: Any])?["schemaVersion"] as? [String: Any]
        #expect(version?["const"] as? Int == AuditReport.currentSchemaVersion)
    }

    /// The schema is closed where the model is: a key it does not know, in the report or deep in
    /// a location, is refused, so a field added to the model without the schema fails the tests.
    @Test(arguments: ["", "/domains/0", "/domains/0/locations/0", "/domains/0/locations/0/tls/certificate"])
    func anUndocumentedFieldIsCaught(at pointer: String) throws {
        let json = try JSONReporter.render(ReportFixtures.small)
        var root = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        func insert(_ object: Any, _ path: ArraySlice<Substring>) -> Any {
            guard let first = path.first else {
                var dictionary = object as? [String: Any] ?? [:]
                dictionary["undocumented"] = true
                return dictionary
            }
            if var array = object as? [Any], let index = Int(first) {
                array[index] = insert(array[index], path.dropFirst())
                return array
            }
            var dictionary = object as? [String: Any] ?? [:]
            dictionary[String(first)] = insert(dictionary[String(first)] as Any, path.dropFirst())
            return dictionary
        }
        root = try #require(insert(root, pointer.split(separator: "/")[...]) as? [String: Any])
        let changed = try JSONSerialization.data(withJSONObject: root)
        #expect(throws: PublishedFormatChecks.Refused.self) { try Self.validate(changed) }
    }
}
