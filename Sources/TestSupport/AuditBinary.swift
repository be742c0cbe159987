import Audit
import Foundation

/// The built `aasa-audit` executable, run the way a user runs it.
public enum AuditBinary {
    /// The binary next to the running test bundle (both live in the build's products folder).
    public static func path() throws -> String {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let candidate = executable.deletingLastPathComponent().appendingPathComponent("aasa-audit").path
        guard FileManager.default.isExecutableFile(atPath: candidate) else { throw HarnessError.binaryNotFound(candidate) }
        return candidate
    }

    /// Runs the binary with `arguments` in `directory` (a fresh temporary folder when nil).
    public static func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String]? = nil) throws -> ShellCommand.Outcome {
        let folder = try directory ?? temporaryDirectory()
        return try ShellCommand.run(try path(), arguments, directory: folder, environment: environment, checked: false)
    }

    /// A new empty folder under the system's temporary directory.
    public static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-audit-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Reads a report.json the binary wrote (ISO 8601 dates, as the JSON reporter writes them),
    /// after validating it against the published schema (docs/report.schema.json) and checking the
    /// report.prom beside it, if any, with `promtool`: every report a test reads passes through here.
    public static func readReport(at url: URL) throws -> AuditReport {
        try PublishedFormatChecks.validateReport(at: url)
        let metrics = url.deletingLastPathComponent().appendingPathComponent("report.prom")
        if FileManager.default.fileExists(atPath: metrics.path) { try PublishedFormatChecks.checkMetrics(at: metrics) }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(AuditReport.self, from: try Data(contentsOf: url))
    }
}
