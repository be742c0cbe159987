import Foundation
import Testing
@testable import AASA

/// The shared corpus of real AASA files: the package root is four levels above this file.
private enum RealFiles {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("../shared/corpus/real-aasa").standardizedFileURL

    struct Row {
        var file: String
        var shape: String
        var notes: String
    }

    /// MANIFEST.tsv columns: file, repo, commit, path, bytes, shape, services, notes.
    static func manifest() throws -> [Row] {
        let text = try String(contentsOf: directory.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8)
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count >= 8 else { return nil }
            return Row(file: columns[0], shape: columns[5], notes: columns[7])
        }
    }

    static func bytes(of file: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent("files").appendingPathComponent(file)))
    }
}

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
    let rows = try RealFiles.manifest()
    #expect(rows.count == 153)
    let rules = ComponentChecksFixture.checks.flatMap { $0.rules } + SchemaRules.rules
    var counts: [String: Int] = [:]
    var warnings: [String: [String]] = [:]
    var parsed = 0
    for row in rows {
        guard let json = try? JSONParser.parse(RealFiles.bytes(of: row.file)), let document = AASADocument(json: json) else { continue }
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
