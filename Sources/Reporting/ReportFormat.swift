import Audit
import Foundation

/// A report file a run can write (`--format`): its name on the command line, its file name and its
/// renderer. To add a format: a case here, its `fileName` and its `render`.
public enum ReportFormat: String, Sendable, CaseIterable, Equatable {
    case json, html, md, junit, prom

    /// The formats written when `--format` is not given.
    public static let defaults: [ReportFormat] = [.json, .html]

    /// The name given to `--format` (`json`, `html`, `md`, `junit`, `prom`).
    public var name: String { rawValue }

    /// The file this format is written to in a run's folder.
    public var fileName: String {
        switch self {
        case .json: return "report.json"
        case .html: return "report.html"
        case .md: return "report.md"
        case .junit: return "report.junit.xml"
        case .prom: return "report.prom"
        }
    }

    /// Renders `report` piece by piece into `emit`. `policy` decides which findings are JUnit failures;
    /// `ending`, how the run ended (the metrics' exit status and duration), when a run writes it.
    public func render(_ report: AuditReport, policy: ExitPolicy, ending: RunEnding? = nil, to emit: (Data) throws -> Void) throws {
        try render(StreamedReport(report), policy: policy, ending: ending, to: emit)
    }

    /// Renders `streamed` piece by piece into `emit`, reading its domains one at a time: the same
    /// bytes as `render(_:policy:to:)` of the same report held whole.
    public func render(_ streamed: StreamedReport, policy: ExitPolicy, ending: RunEnding? = nil, to emit: (Data) throws -> Void) throws {
        switch self {
        // The formats that grow with the list are streamed into the file, not held whole
        // (Markdown lists at most a hundred domains).
        case .json: try JSONReporter.render(streamed, to: emit)
        case .html: try HTMLReporter.render(streamed) { try emit(Data($0.utf8)) }
        case .md: try emit(Data(MarkdownReporter.render(streamed).utf8))
        case .junit: try JUnitReporter.render(streamed, strict: policy.strict) { try emit(Data($0.utf8)) }
        case .prom: try PrometheusReporter.render(streamed, policy: policy, ending: ending) { try emit(Data($0.utf8)) }
        }
    }
}
