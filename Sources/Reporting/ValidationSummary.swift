import Audit
import Foundation

/// The result of validating one local file, as `aasa-audit validate` reports it.
public struct FileValidation: Sendable, Codable, Equatable {
    /// The path as given ("-" for standard input).
    public var file: String
    public var verdict: Verdict
    public var findings: [Finding]
    /// "assetlinks" when the file was checked as an Android Digital Asset Links statement list; nil
    /// for an apple-app-site-association file (absent from the JSON, as before).
    public var document: String?
    /// True when the file was CMS-signed: the findings' lines and columns are in the JSON content
    /// inside the signature, not in the file's own bytes. Nil (absent from the JSON) otherwise.
    public var signed: Bool?

    public init(file: String, findings: [Finding], document: String? = nil, signed: Bool = false) {
        self.file = file
        self.verdict = Verdict(findings: findings)
        self.findings = findings
        self.document = document
        self.signed = signed ? true : nil
    }

    /// Where a finding is, for people: "line 12, column 9" (of the signed content, for a signed file).
    func place(of finding: Finding) -> String? {
        guard let position = finding.position else { return nil }
        return "line \(position.line), column \(position.column)" + (signed == true ? " of the signed content" : "")
    }
}

/// Renders `validate` results for the terminal, or as JSON for scripts.
public enum ValidationSummary {
    /// One block per file: verdict, path and counts, then each finding with its pointer and fix.
    public static func render(_ results: [FileValidation]) -> String {
        var out = ""
        for result in results {
            let errors = result.findings.filter { $0.severity == .error }.count
            let warnings = result.findings.filter { $0.severity == .warning }.count
            out += "\(result.verdict.rawValue.uppercased())  \(TerminalText.sanitize(result.file))"
            if result.document == "assetlinks" { out += " (Android assetlinks.json)" }
            out += "  (\(Formatting.plural(errors, "error")), \(Formatting.plural(warnings, "warning")))\n"
            for finding in result.findings {
                var place = finding.pointer.map { $0.isEmpty ? " at the root" : " at \(TerminalText.sanitize($0))" } ?? ""
                if let position = result.place(of: finding) { place += " (\(position))" }
                out += ConsoleSummary.wrap("\(finding.severity.rawValue) \(finding.id)\(place): \(TerminalText.sanitize(finding.message))",
                                           indent: "  ", hanging: "    ")
                if let fix = finding.fix, finding.severity != .info {
                    out += ConsoleSummary.wrap("fix: \(TerminalText.sanitize(fix))", indent: "    ", hanging: "      ")
                }
            }
        }
        if results.count > 1 {
            let failed = results.filter { $0.verdict == .fail }.count, warned = results.filter { $0.verdict == .warn }.count
            out += "\(Formatting.plural(results.count, "file")): \(results.count - failed - warned) pass, \(warned) warn, \(failed) fail\n"
        }
        return out
    }

    /// The results as a JSON array (sorted keys, stable for diffs).
    public static func json(_ results: [FileValidation]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(results)
    }
}
