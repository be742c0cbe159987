import Foundation
import Testing
import Reporting

/// Renders the fixture report and compares with the files in Snapshots/.
/// Run with AASA_RECORD_SNAPSHOTS=1 to rewrite them after an intended change (that run fails, on
/// purpose), then review the diff and run again without it.
@Suite struct SnapshotTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Snapshots", isDirectory: true)
    static let recording = ProcessInfo.processInfo.environment["AASA_RECORD_SNAPSHOTS"] == "1"

    func check(_ actual: String, against name: String) throws {
        let url = Self.directory.appendingPathComponent(name)
        if Self.recording {
            try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: url)
            // A recording run is never green: a stray export would otherwise make every snapshot test a no-op.
            Issue.record("snapshot rewritten: Tests/ReportingTests/Snapshots/\(name); review the diff, then run without AASA_RECORD_SNAPSHOTS")
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(actual == expected, "\(name) differs from its snapshot; run with AASA_RECORD_SNAPSHOTS=1 to re-record")
    }

    @Test func html() throws {
        try check(HTMLReporter.render(ReportFixtures.report), against: "report.html")
    }

    @Test func json() throws {
        try check(String(decoding: try JSONReporter.render(ReportFixtures.report), as: UTF8.self), against: "report.json")
    }

    @Test func console() throws {
        try check(ConsoleSummary.render(ReportFixtures.report, colour: false), against: "console.txt")
    }

    @Test func markdown() throws {
        try check(MarkdownReporter.render(ReportFixtures.report), against: "report.md")
    }

    @Test func junit() throws {
        try check(JUnitReporter.render(ReportFixtures.report, strict: false), against: "report.junit.xml")
    }

    /// The example in docs/report-format.md.
    @Test func smallJSONExample() throws {
        try check(String(decoding: try JSONReporter.render(ReportFixtures.small), as: UTF8.self), against: "example.json")
    }
}

/// docs/report-format.md pastes the small example; keep it the real output.
@Test func documentationExampleIsCurrent() throws {
    let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/report-format.md")
    let text = try String(contentsOf: docs, encoding: .utf8)
    let example = String(decoding: try JSONReporter.render(ReportFixtures.small), as: UTF8.self)
    #expect(text.contains("```json\n" + example + "```\n"))
}

/// docs/report-format.md pastes a `changes` object too; keep it the real output (encoded as the JSON reporter does).
@Test func documentationChangesExampleIsCurrent() throws {
    let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/report-format.md")
    let text = try String(contentsOf: docs, encoding: .utf8)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    let example = String(decoding: try encoder.encode(ReportFixtures.smallChanges), as: UTF8.self)
    if ProcessInfo.processInfo.environment["AASA_PRINT_CHANGES_EXAMPLE"] == "1" { print(example) }
    #expect(text.contains("```json\n" + example + "\n```\n"), "docs/report-format.md: the changes example is not the current output")
}
