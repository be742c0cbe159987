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

/// Errors these checks report on applinks files, and why each is right (the manifest notes agree).
private let justifiedErrors: [String: String] = [:]

@Test func componentChecksOnRealFiles() throws {
    let rows = try RealFiles.manifest()
    #expect(rows.count == 153)
    var counts: [String: Int] = [:]
    var parsed = 0
    for row in rows {
        guard let json = try? JSONParser.parse(RealFiles.bytes(of: row.file)), let document = AASADocument(json: json) else { continue }
        parsed += 1
        let findings = ComponentChecksFixture.checks.flatMap { $0.findings(in: document) }
        for finding in findings {
            counts[finding.id, default: 0] += 1
            #expect(finding.pointer != nil, "\(row.file): \(finding.id) has no pointer")
            print("CORPUS \(row.file) [\(row.shape)] \(finding.id) \(finding.pointer ?? "-"): \(finding.message)")
        }
        if row.shape == "legacy-applinks" || row.shape == "modern-applinks" {
            for finding in findings where finding.severity == .error {
                #expect(justifiedErrors[row.file] != nil, "\(row.file): \(finding.id) at \(finding.pointer ?? "-"): \(finding.message)")
            }
        }
    }
    #expect(parsed == 145)
    print("CORPUS COUNTS \(counts.sorted { $0.key < $1.key })")
}
