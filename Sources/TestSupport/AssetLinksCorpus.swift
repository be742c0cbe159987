import Foundation

/// The real assetlinks.json files in Tests/Corpus/assetlinks and their manifest (where each came
/// from: repository, commit, path). Tests/Corpus/assetlinks/README.md describes them.
public enum AssetLinksCorpus {
    /// One row of MANIFEST.tsv (columns: file, repo, commit, path, bytes, packages, fingerprints, notes).
    public struct Entry: Sendable {
        public var file: String
        public var repo: String
        public var bytes: Int
        /// The package names of the file's android_app targets, in order.
        public var packages: [String]
        /// How many fingerprints the file lists in all.
        public var fingerprints: Int
    }

    /// `Tests/Corpus/assetlinks` in the package: this file is Sources/TestSupport/, three levels below the root.
    public static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/Corpus/assetlinks")

    /// Every manifest row, in order.
    public static func entries() throws -> [Entry] {
        let text = try String(contentsOf: directory.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8)
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count >= 8, let bytes = Int(columns[4]), let fingerprints = Int(columns[6]) else { return nil }
            return Entry(file: columns[0], repo: columns[1], bytes: bytes,
                         packages: columns[5].split(separator: ",").map(String.init), fingerprints: fingerprints)
        }
    }

    /// The bytes of one file, as stored.
    public static func bytes(of file: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent("files").appendingPathComponent(file)))
    }
}
