import Audit
import Foundation
import Reporting
import Testing
import TestSupport

/// `aasa-audit validate` over the 153 real AASA files in Tests/Corpus/real-aasa (MANIFEST.tsv
/// classifies each): nothing crashes, broken JSON gets a json.* error, well-formed legacy and modern
/// files get no error the spec does not justify, and the counts per finding id are a reviewed snapshot.
@Suite struct CorpusValidationTests {
    static let snapshot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots/corpus-finding-counts.txt")

    /// Errors in files the manifest calls well-formed that are real mistakes in those files, each
    /// with the reason (the manifest's notes name it too).
    static let justifiedErrors: [String: (ids: Set<String>, reason: String)] = [
        "008.aasa": (["schema.no-app-id"], "\"appIDs\" is an empty array, so the entry matches no app (manifest: empty appIDs array)"),
        "064.aasa": (["schema.no-app-id"], "the entry spells the key \"appId\"; keys are case-sensitive, so it has no app (manifest: misspelled appId)"),
        "122.aasa": (["schema.no-app-id"], "the same \"appId\" misspelling (manifest: misspelled appId)"),
        "074.aasa": (["schema.app-id-format"], "\"appid_placeholder\" is a placeholder with no Team ID or bundle ID (manifest: no bundle part)"),
        "115.aasa": (["schema.app-id-format"], "\"AF29P2AX2D\" is a Team ID with no bundle ID (manifest: no bundle part)"),
        "118.aasa": (["schema.app-id-format"], "the prefix \"TODO_TEAM_ID\" was never filled in (manifest: bad team-ID prefix)"),
        "142.aasa": (["schema.app-id-format"], "\"com.apps.lomaevents\" is a bundle ID without the Team ID prefix (manifest: prefix 'com')"),
        "022.aasa": (["schema.app-id-store-id"], "the prefix 1593741764 is DaKanji's App Store ID (apps.apple.com/app/id1593741764, in the app's own source), not its Team ID (SQ93NR4ZDX in its Xcode project), so no app has this app ID (manifest: looks like an App Store ID)"),
        "120.aasa": (["schema.app-id-store-id"], "the prefix 1436773096 is ten digits, the form of an App Store ID, where the Team ID belongs (manifest: looks like an App Store ID)"),
        "137.aasa": (["schema.app-id-store-id"], "the prefix 6744744763 is ten digits, the form of an App Store ID, where the Team ID belongs (manifest: looks like an App Store ID)"),
        "107.aasa": (["schema.app-id-format"], "the bundle ID contains '_', which Apple does not allow in bundle IDs (A–Z a–z 0–9 - . only, spec A13), so no app can have this ID; the manifest does not note it"),
    ]

    static let manifest: Result<[RealAASACorpus.Entry], Error> = Result { try RealAASACorpus.entries() }

    static let run: Result<(status: Int32, results: [String: FileValidation]), Error> = Result {
        let entries = try manifest.get()
        let paths = entries.map(\.url.path)
        let outcome = try AuditBinary.run(["validate", "--json"] + paths)
        let results = try JSONDecoder().decode([FileValidation].self, from: Data(outcome.stdout.utf8))
        return (outcome.status, Dictionary(uniqueKeysWithValues: results.map { (URL(fileURLWithPath: $0.file).lastPathComponent, $0) }))
    }

    @Test func everyFileIsValidatedWithoutACrash() throws {
        let run = try Self.run.get()
        // The corpus holds broken files (invalid JSON), so validate must say some file fails.
        #expect(run.status == 1)
        #expect(run.results.count == (try Self.manifest.get()).count)
    }

    @Test func invalidJSONFilesGetAJSONError() throws {
        let run = try Self.run.get()
        for entry in try Self.manifest.get() where entry.shape == "invalid-json" {
            let result = try #require(run.results[entry.file], "\(entry.file) has no result")
            let errors = result.findings.filter { $0.severity == .error }.map(\.id)
            #expect(errors.contains { $0.hasPrefix("json.") }, "\(entry.file): \(errors)")
        }
    }

    @Test func wellFormedFilesGetNoUnjustifiedError() throws {
        let run = try Self.run.get()
        for entry in try Self.manifest.get() where ["legacy-applinks", "modern-applinks"].contains(entry.shape) {
            let result = try #require(run.results[entry.file], "\(entry.file) has no result")
            let errors = Set(result.findings.filter { $0.severity == .error }.map(\.id))
            let allowed = Self.justifiedErrors[entry.file]?.ids ?? []
            #expect(errors.subtracting(allowed).isEmpty, "\(entry.file) (\(entry.shape); notes: \(entry.notes)): \(errors.sorted())")
        }
    }

    /// Counts per finding id over the corpus; AASA_RECORD_SNAPSHOTS=1 rewrites the snapshot (and fails the run).
    @Test func findingCountsMatchTheReviewedSnapshot() throws {
        let run = try Self.run.get()
        var counts: [String: Int] = [:]
        for result in run.results.values { for finding in result.findings { counts["\(finding.severity.rawValue) \(finding.id)", default: 0] += 1 } }
        let verdicts = Dictionary(grouping: run.results.values, by: \.verdict).mapValues(\.count)
        var text = "# aasa-audit validate over Tests/Corpus/real-aasa (\(run.results.count) files)\n"
        text += "# verdicts: pass \(verdicts[.pass] ?? 0), warn \(verdicts[.warn] ?? 0), fail \(verdicts[.fail] ?? 0)\n"
        text += counts.sorted { $0.key < $1.key }.map { "\($0.value)\t\($0.key)" }.joined(separator: "\n") + "\n"
        if ProcessInfo.processInfo.environment["AASA_RECORD_SNAPSHOTS"] == "1" {
            try text.write(to: Self.snapshot, atomically: true, encoding: .utf8)
            // A recording run is never green (see SnapshotTests).
            Issue.record("snapshot rewritten: Tests/EndToEndTests/Snapshots/corpus-finding-counts.txt; review the diff, then run without AASA_RECORD_SNAPSHOTS")
            return
        }
        let recorded = try String(contentsOf: Self.snapshot, encoding: .utf8)
        #expect(text == recorded, "finding counts changed; review and re-record with AASA_RECORD_SNAPSHOTS=1:\n\(text)")
    }
}
