import Foundation
import Testing
@testable import Reporting

/// The HTML report's look lives in Sources/Reporting/HTML/report.css; the binary carries it through
/// the generated ReportStylesheet.swift. These fail while the two differ (run `make stylesheet`).
@Suite struct ReportStylesheetTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/Reporting")

    @Test func compiledStylesheetIsReportCSS() throws {
        let css = try String(contentsOf: Self.sources.appendingPathComponent("HTML/report.css"), encoding: .utf8)
        #expect(ReportStylesheet.css == css, "Sources/Reporting/HTML/report.css changed: run `make stylesheet` to regenerate ReportStylesheet.swift")
    }

    @Test func pageCarriesTheStylesheetInline() {
        let html = HTMLReporter.render(ReportFixtures.report)
        #expect(html.contains("<style>\n\(ReportStylesheet.css)</style>"))
    }

    /// Reporting renders the report model; the fetch layer's structs are mapped into it by the audit.
    @Test func reportingDoesNotImportFetching() throws {
        let files = try #require(FileManager.default.enumerator(atPath: Self.sources.path)).compactMap { $0 as? String }
        let swift = files.filter { $0.hasSuffix(".swift") }
        #expect(swift.count > 10)
        for file in swift {
            let text = try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
            #expect(!text.split(separator: "\n").contains { $0.hasPrefix("import Fetching") || $0.hasPrefix("@testable import Fetching") },
                    "Sources/Reporting/\(file) imports Fetching")
        }
    }
}
