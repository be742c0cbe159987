import Foundation

/// The URL-matching conformance cases in ../shared/corpus/conformance/cases.json (beside the package
/// root), read by the matching tests and the benchmark.
public enum ConformanceCorpus {
    /// `shared/corpus/conformance/cases.json` next to the package: this file is Sources/TestSupport/, four levels below.
    public static let casesFile = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/corpus/conformance/cases.json")

    /// The file's bytes.
    public static func bytes() throws -> [UInt8] {
        [UInt8](try Data(contentsOf: casesFile))
    }
}
