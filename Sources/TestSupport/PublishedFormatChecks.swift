import Foundation

/// The published formats checked by validators that are not the tool itself: report.json against
/// docs/report.schema.json (Debian's python3-jsonschema) and report.prom with `promtool check
/// metrics` (Debian's prometheus). A missing validator is an error, never a skipped check.
public enum PublishedFormatChecks {
    /// docs/report.schema.json.
    public static let reportSchema = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/report.schema.json")

    /// What a validator said about a file it refused.
    public struct Refused: Error, CustomStringConvertible {
        public var file: String
        public var validator: String
        public var output: String
        public var description: String { "\(validator) refuses \(file):\n\(output)" }
    }

    /// Validates the report.json at `url` against the schema (draft 2020-12); throws `Refused` with
    /// every error (its place in the report and the validator's message).
    public static func validateReport(at url: URL) throws {
        let python = try program("python3", package: "python3")
        let script = """
            import json, sys
            try:
                import jsonschema
            except ImportError:
                print("python3-jsonschema is not installed (run scripts/install-deps.sh --test)"); sys.exit(3)
            schema = json.load(open(sys.argv[1]))
            validator = jsonschema.Draft202012Validator(schema)
            errors = sorted(validator.iter_errors(json.load(open(sys.argv[2]))), key=lambda e: list(map(str, e.absolute_path)))
            for error in errors[:30]:
                print("/" + "/".join(map(str, error.absolute_path)) + ": " + error.message[:300])
            sys.exit(1 if errors else 0)
            """
        let outcome = try ShellCommand.run(python, ["-c", script, reportSchema.path, url.path], checked: false)
        guard outcome.status == 0 else {
            throw Refused(file: url.path, validator: "docs/report.schema.json (python3-jsonschema)", output: outcome.stdout + outcome.stderr)
        }
    }

    /// Checks the metrics file at `url` with `promtool check metrics` (the format and Prometheus'
    /// naming lints); throws `Refused` with what it said.
    public static func checkMetrics(at url: URL) throws {
        let promtool = try program("promtool", package: "prometheus")
        // promtool reads the metrics on standard input.
        let outcome = try ShellCommand.run("/bin/sh", ["-c", "exec \"$0\" check metrics < \"$1\"", promtool, url.path], checked: false)
        guard outcome.status == 0, outcome.stdout.isEmpty, outcome.stderr.isEmpty else {
            throw Refused(file: url.path, validator: "promtool check metrics (exit \(outcome.status))", output: outcome.stdout + outcome.stderr)
        }
    }

    /// Validates every report.json and checks every report.prom in `folder` and its subfolders
    /// (a run's output, a reports store); how many of each were checked.
    @discardableResult
    public static func checkAll(in folder: URL) throws -> (reports: Int, metrics: Int) {
        var counts = (reports: 0, metrics: 0)
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return counts }
        for case let file as URL in walker where (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            if file.lastPathComponent == "report.json" {
                try validateReport(at: file)
                counts.reports += 1
            } else if file.pathExtension == "prom" {
                try checkMetrics(at: file)
                counts.metrics += 1
            }
        }
        return counts
    }

    private static func program(_ name: String, package: String) throws -> String {
        guard let path = ShellCommand.which(name) else {
            throw HarnessError.missingProgram("\(name) (Debian package \(package); scripts/install-deps.sh --test)")
        }
        return path
    }
}
