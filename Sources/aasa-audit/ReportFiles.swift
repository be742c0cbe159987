import Audit
import Foundation
import Reporting

/// The report files of a run, one per `--format`, each written atomically by `ReportWriter`.
enum ReportFiles {
    /// The file name of each format.
    static let names = ["json": "report.json", "html": "report.html", "md": "report.md", "junit": "report.junit.xml"]

    /// Writes `report` in every format of `formats` into `directory`. `strict` makes warnings JUnit failures.
    static func write(_ report: AuditReport, formats: [String], strict: Bool, in directory: URL) throws {
        for format in formats {
            guard let name = names[format] else { continue }
            try ReportWriter.write(named: name, in: directory) { emit in
                switch format {
                // The two formats that grow with the list are streamed into the file, not held whole.
                case "json": try JSONReporter.render(report, to: emit)
                case "html": try HTMLReporter.render(report) { try emit(Data($0.utf8)) }
                case "md": try emit(Data(MarkdownReporter.render(report).utf8))
                default: try emit(Data(JUnitReporter.render(report, strict: strict).utf8))  // "junit"
                }
            }
        }
    }
}
