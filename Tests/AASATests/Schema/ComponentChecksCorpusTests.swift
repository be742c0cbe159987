import Foundation
import Testing
@testable import AASA
import TestSupport


/// Errors these checks report on applinks files, and why each is right. Empty: no applinks file gets one.
private let justifiedErrors: [String: String] = [:]

/// Every warning the checks report on the corpus, by file; each is one the manifest notes describe.
private let expectedWarnings: [String: [String]] = [
    // "component has unknown keys: /sign; component has none of the "/", "?", "#" keys"
    "015.aasa": ["schema.unknown-key", "schema.empty-component"],
    // "component "/" pattern contains a fragment/query character: '/#/a*s*q*'"
    "118.aasa": ["schema.pattern-query-in-path"],
]

/// Findings per id over the whole corpus. No real file uses caseSensitive, defaults, percentEncoded
/// or substitutionVariables, so needs-ios has none.
private let expectedCounts: [String: Int] = [
    "schema.empty-component": 1,
    "schema.pattern-query-in-path": 1,
    "schema.unknown-key": 1,
]

@Test func componentChecksOnRealFiles() throws {
    let rows = try RealAASACorpus.entries()
    #expect(rows.count == 153)
    let rules = ComponentChecksFixture.checks.flatMap { $0.rules } + SchemaRules.rules
    var counts: [String: Int] = [:]
    var warnings: [String: [String]] = [:]
    var parsed = 0
    for row in rows {
        guard let json = try? JSONParser.parse(RealAASACorpus.bytes(of: row.file)), let document = AASADocument(json: json) else { continue }
        parsed += 1
        let findings = ComponentChecksFixture.checks.flatMap { $0.findings(in: document) }
        for finding in findings {
            counts[finding.id, default: 0] += 1
            if finding.severity == .warning { warnings[row.file, default: []].append(finding.id) }
            #expect(finding.pointer != nil, "\(row.file): \(finding.id) has no pointer")
            #expect(rules.contains { $0.id == finding.id && $0.severity == finding.severity }, "\(row.file): \(finding.id) is not a declared rule")
        }
        if row.shape == "legacy-applinks" || row.shape == "modern-applinks" {
            for finding in findings where finding.severity == .error {
                #expect(justifiedErrors[row.file] != nil, "\(row.file): \(finding.id) at \(finding.pointer ?? "-"): \(finding.message)")
            }
        }
    }
    #expect(parsed == 145)
    #expect(counts == expectedCounts)
    #expect(warnings == expectedWarnings)
}
