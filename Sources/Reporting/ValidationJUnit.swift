import AASA
import Audit

/// `validate --format junit`: the results as JUnit XML for CI servers. One `<testsuite>` per file;
/// each finding that fails (an error, or a warning with `--strict`, by `ExitPolicy`) is a
/// `<testcase>` with a `<failure>` naming its id, place and fix; a file with none has one passing
/// case, `document`. The findings that do not fail are listed in the suite's `<system-out>`.
public enum ValidationJUnit {
    public static func render(_ results: [FileValidation], policy: ExitPolicy) -> String {
        var suites = ""
        var totals = (tests: 0, failures: 0)
        for result in results {
            let failing = result.findings.filter { policy.fails($0.severity) }
            let others = result.findings.filter { !policy.fails($0.severity) }
            let tests = max(failing.count, 1)
            totals.tests += tests
            totals.failures += failing.count
            suites += "  <testsuite name=\"\(XMLEscaping.escape(result.file))\" tests=\"\(tests)\" failures=\"\(failing.count)\" errors=\"0\" skipped=\"0\">\n"
            if failing.isEmpty {
                suites += "    <testcase classname=\"\(XMLEscaping.escape(result.file))\" name=\"document\"/>\n"
            }
            for finding in failing {
                var name = finding.id
                if let pointer = finding.pointer { name += " at \(pointer.isEmpty ? "/" : pointer)" }
                suites += "    <testcase classname=\"\(XMLEscaping.escape(result.file))\" name=\"\(XMLEscaping.escape(name))\">\n"
                suites += "      <failure type=\"\(XMLEscaping.escape(finding.id))\" message=\"\(XMLEscaping.escape(finding.message))\">"
                suites += XMLEscaping.escape(details(finding, in: result))
                suites += "</failure>\n    </testcase>\n"
            }
            if !others.isEmpty {
                let lines = others.map { "\($0.severity.rawValue) \($0.id): \(details($0, in: result))" }
                suites += "    <system-out>\(XMLEscaping.escape(lines.joined(separator: "\n")))</system-out>\n"
            }
            suites += "  </testsuite>\n"
        }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"aasa-audit validate\" tests=\"\(totals.tests)\" failures=\"\(totals.failures)\" errors=\"0\">\n"
        out += suites
        out += "</testsuites>\n"
        return out
    }

    /// The message, where it is and how to fix it.
    static func details(_ finding: Finding, in result: FileValidation) -> String {
        var text = finding.message
        var at: [String] = []
        if let pointer = finding.pointer { at.append(pointer.isEmpty ? "/" : pointer) }
        if let place = result.place(of: finding) { at.append(place) }
        if !at.isEmpty { text += " (at \(at.joined(separator: ", ")))" }
        if let fix = finding.fix, finding.severity != .info { text += "\nFix: \(fix)" }
        return text
    }
}
