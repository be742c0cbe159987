import Audit
import Foundation
import Testing
import TestSupport

/// Real assetlinks.json files from public repositories (Tests/Corpus/assetlinks): what the validator
/// reads in them and finds, pinned.
@Suite struct AssetLinksCorpusTests {
    /// The error and warning ids of each file; files not listed have none.
    static let pinned: [String: [String]] = [
        // "com.0xchat.lite": the segment "0xchat" starts with a digit, which no Android package name may.
        "02.json": ["assetlinks.package-name"],
    ]

    @Test func everyFileIsReadAsTheManifestSaysAndItsFindingsArePinned() throws {
        let entries = try AssetLinksCorpus.entries()
        #expect(entries.count == 9)
        for entry in entries {
            let bytes = try AssetLinksCorpus.bytes(of: entry.file)
            #expect(bytes.count == entry.bytes, "\(entry.file)")
            #expect(AssetLinksValidator.isStatementList(fileName: entry.file, bytes: bytes), "\(entry.file)")
            let validation = AssetLinksValidator.validate(bytes)
            let document = try #require(validation.document, "\(entry.file)")
            #expect(document.packageNames == entry.packages, "\(entry.file)")
            let count = document.statements.reduce(0) { total, statement in
                guard case .androidApp(_, let fingerprints) = statement.target else { return total }
                return total + fingerprints.count
            }
            #expect(count == entry.fingerprints, "\(entry.file)")
            let problems = validation.findings.filter { $0.severity != .info }.map(\.id)
            #expect(problems == (Self.pinned[entry.file] ?? []), "\(entry.file): \(validation.findings.map(\.message))")
        }
    }

    /// The command line recognises each file by its shape (the corpus names are not assetlinks.json).
    @Test func validateChecksThemAsStatementLists() throws {
        let files = try AssetLinksCorpus.entries().map { AssetLinksCorpus.directory.appendingPathComponent("files/\($0.file)").path }
        let outcome = try AuditBinary.run(["validate", "--json"] + files, in: AssetLinksCorpus.directory)
        #expect(outcome.status == 1, "02.json has an error: \(outcome.stderr)")
        let results = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [[String: Any]]
        #expect(results?.count == 9)
        #expect(results?.allSatisfy { $0["document"] as? String == "assetlinks" } == true)
    }
}
