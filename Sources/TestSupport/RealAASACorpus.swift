import Foundation

/// The 153 real AASA files in Tests/Corpus/real-aasa and their manifest, for every test that runs the
/// corpus. Tests/Corpus/README.md says where they came from.
public enum RealAASACorpus {
    /// One row of MANIFEST.tsv (columns: file, repo, commit, path, bytes, shape, services, notes).
    public struct Entry: Sendable {
        public var file: String
        /// legacy-applinks, modern-applinks, mixed, webcredentials-only, appclips, invalid-json ...
        public var shape: String
        public var notes: String
        /// The file's path.
        public var url: URL { RealAASACorpus.directory.appendingPathComponent("files").appendingPathComponent(file) }
    }

    /// `Tests/Corpus/real-aasa` in the package: this file is Sources/TestSupport/, three levels below the root.
    public static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/Corpus/real-aasa")

    /// Every manifest row, in order.
    public static func entries() throws -> [Entry] {
        let text = try String(contentsOf: directory.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8)
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count >= 8 else { return nil }
            return Entry(file: columns[0], shape: columns[5], notes: columns[7])
        }
    }

    /// The bytes of one file, as stored.
    public static func bytes(of file: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent("files").appendingPathComponent(file)))
    }
}
