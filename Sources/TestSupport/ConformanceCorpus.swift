import Foundation

/// The URL-matching conformance cases in Tests/Corpus/conformance/cases.json, read by the matching
/// tests. Tests/Corpus/README.md says where they came from.
public enum ConformanceCorpus {
    /// `Tests/Corpus/conformance/cases.json` in the package: this file is Sources/TestSupport/, three levels below the root.
    public static let casesFile = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/Corpus/conformance/cases.json")

    /// The file's bytes.
    public static func bytes() throws -> [UInt8] {
        [UInt8](try Data(contentsOf: casesFile))
    }
}
