import Audit
import Foundation
import Reporting

/// The earlier report a run is compared with: `--baseline FILE`, or by default (without `--out`)
/// the report `reports/latest` points at. Read before the run writes anything, since the run
/// moves `reports/latest`.
struct BaselineReport {
    var report: AuditReport
    /// Where it was read from: the file as given, or `reports/<UTC time>/report.json` for the
    /// default (the folder `latest` pointed to, which stays where it is).
    var path: String

    /// Why a baseline could not be used; the run goes on without one.
    struct Problem: Error, CustomStringConvertible {
        var path: String
        var reason: String
        var description: String { "cannot use the baseline \(path): \(reason); the reports will not say what changed" }
    }

    /// The baseline `options` ask for: nil when there is none to use (none given, none by default);
    /// a `Problem` when one was asked for, or found by default, and cannot be read.
    static func load(options: CommandLineOptions, reportsRoot: String = "reports") -> Result<BaselineReport, Problem>? {
        if options.noBaseline { return nil }
        let path: String
        if let given = options.baselineFile {
            path = given
        } else if options.outDirectory == nil {
            let latest = URL(fileURLWithPath: reportsRoot).appendingPathComponent("latest")
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: latest.path) else { return nil }
            let resolved = target.hasPrefix("/") ? target : "\(reportsRoot)/\(target)"
            path = "\(resolved)/report.json"
            // A run that wrote no JSON (--format html) leaves nothing to compare with: not a problem.
            guard FileManager.default.fileExists(atPath: path) else { return nil }
        } else {
            return nil
        }
        return read(path).map { BaselineReport(report: ReportChanges.essentials(of: $0), path: path) }
    }

    /// Reads and decodes one report file, with a reason a person can act on when that fails.
    static func read(_ path: String) -> Result<AuditReport, Problem> {
        // Bounded and non-blocking: a FIFO, /dev/zero or a huge file is refused, never waited on.
        let data: Data
        switch ReportFileReader.read(path) {
        case .success(let bytes): data = bytes
        case .failure(let refusal): return .failure(Problem(path: path, reason: refusal.reason))
        }
        do {
            return .success(try JSONReporter.decode(data))
        } catch let error as JSONReporter.UnsupportedSchemaVersion {
            return .failure(Problem(path: path, reason: error.description))
        } catch let error as DecodingError {
            return .failure(Problem(path: path, reason: "it is not an aasa-audit report.json (\(describe(error)))"))
        } catch {
            return .failure(Problem(path: path, reason: "it is not an aasa-audit report.json (\(error.localizedDescription))"))
        }
    }

    /// A DecodingError in one line: what was wrong and where.
    static func describe(_ error: DecodingError) -> String {
        func at(_ path: [CodingKey]) -> String {
            path.isEmpty ? "" : " at " + path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch error {
        case .dataCorrupted(let context): return "not valid JSON\(at(context.codingPath))"
        case .keyNotFound(let key, let context): return "missing \"\(key.stringValue)\"\(at(context.codingPath))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context): return "unexpected value\(at(context.codingPath))"
        @unknown default: return "\(error)"
        }
    }
}
