import Foundation
import Testing
@testable import AASA
import TestSupport

/// The real-file corpus, run through the service, details and app ID checks only.
private enum ServiceCorpus {
    static let checks: [any SchemaCheck.Type] = [ServiceKeysCheck.self, AppListCheck.self, DetailsCheck.self, AppIDCheck.self]
}

/// applinks files that do get errors from these checks: the ids, why, and the manifest note saying so (nil when
/// the manifest does not mention it).
private let justifiedErrors: [String: (ids: Set<String>, reason: String, note: String?)] = [
    "008.aasa": (["schema.no-app-id"], "the only entry's appIDs is []", "empty appIDs array"),
    "064.aasa": (["schema.no-app-id"], "appId instead of appID: keys are case-sensitive", "unknown/misspelled keys: appId"),
    "122.aasa": (["schema.no-app-id"], "appId instead of appID: keys are case-sensitive", "unknown/misspelled keys: appId"),
    "074.aasa": (["schema.app-id-format"], "a placeholder app ID with no dot", "'appid_placeholder' has no bundle part"),
    "115.aasa": (["schema.app-id-format"], "a bare Team ID, no bundle ID", "'AF29P2AX2D' has no bundle part"),
    "118.aasa": (["schema.app-id-format"], "placeholder Team ID", "team-ID prefix 'TODO_TEAM_ID'"),
    "142.aasa": (["schema.app-id-format"], "a bundle ID without its Team ID", "team-ID prefix 'com'"),
    // Not in the notes: "QGW6TP9GF7.com.23devs.flutter_ddl_example" has "_" in the bundle ID, which Apple's
    // bundle ID rules (A13) do not allow, so no registered app has this app ID (Flutter itself camel-cases it).
    "107.aasa": (["schema.app-id-format"], "underscore in the bundle ID", nil),
    // A ten-digit prefix: the App Store ID where the Team ID belongs (022: DaKanji's App Store ID is
    // 1593741764, its Team ID SQ93NR4ZDX).
    "022.aasa": (["schema.app-id-store-id"], "App Store ID 1593741764 as the prefix", "looks like an App Store ID"),
    "120.aasa": (["schema.app-id-store-id"], "a ten-digit prefix, 1436773096", "looks like an App Store ID"),
    "137.aasa": (["schema.app-id-store-id"], "a ten-digit prefix, 6744744763", "looks like an App Store ID"),
]

@Test func serviceChecksOnTheRealCorpus() throws {
    let rows = try RealAASACorpus.entries()
    #expect(rows.count == 153)
    var counts: [String: Int] = [:]
    var errored: [String: Set<String>] = [:]
    for row in rows {
        let bytes = try RealAASACorpus.bytes(of: row.file)
        guard let json = try? JSONParser.parse(bytes), let document = AASADocument(json: json) else { continue }
        let findings = ServiceCorpus.checks.flatMap { $0.findings(in: document) }
        for finding in findings {
            counts[finding.id, default: 0] += 1
            #expect(finding.pointer != nil, "\(row.file): \(finding.id)")
            if finding.severity == .error && ["legacy-applinks", "modern-applinks"].contains(row.shape) {
                errored[row.file, default: []].insert(finding.id)
            }
        }
    }
    for (file, ids) in errored {
        let justified = justifiedErrors[file]
        #expect(justified?.ids == ids, "\(file): unexpected errors \(ids.sorted())")
    }
    #expect(Set(errored.keys) == Set(justifiedErrors.keys))
    // The manifest's notes say why each justified file fails.
    for row in rows {
        guard let justified = justifiedErrors[row.file] else { continue }
        guard let note = justified.note else { continue }
        #expect(row.notes.contains(note), "\(row.file): notes do not mention \(note) (\(justified.reason))")
    }
    #expect(counts == [
        "schema.components-only": 47, "schema.app-id-format": 11, "schema.mixed-formats": 10, "schema.legacy-apps": 4,
        "schema.no-app-id": 3, "schema.unknown-key": 2, "schema.duplicate-app-id": 2, "schema.type": 1,
        // 022, 120, 137; 014, 032, 041, 046 (appIDs with paths, no appID); 006, 092, 132 (appID also in appIDs).
        "schema.app-id-store-id": 3, "schema.app-ids-with-paths": 4, "schema.app-id-and-app-ids": 3,
    ])
}
