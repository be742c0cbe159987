import Audit

// The apps named with --entitlements: one test suite per app, one test case per entry (a failure when
// the entry does not work) and one per finding of the app itself.
extension JUnitReporter {
    static func appSuites(_ apps: [AppResult], strict: Bool, timestamp: String) -> (xml: String, tests: Int, failures: Int) {
        var out = "", tests = 0, failures = 0
        let policy = ExitPolicy(strict: strict)
        for app in apps {
            var body = "", suiteFailures = 0
            func testcase(_ name: String, failure: (type: String, message: String)?) {
                body += "    <testcase classname=\"app "
                XMLEscaping.append(app.appID, to: &body)
                body += "\" name=\""
                XMLEscaping.append(name, to: &body)
                body += "\" time=\"0\""
                guard let failure else {
                    body += "/>\n"
                    return
                }
                suiteFailures += 1
                body += ">\n      <failure type=\""
                XMLEscaping.append(failure.type, to: &body)
                body += "\" message=\""
                XMLEscaping.append(failure.message, to: &body)
                body += "\"/>\n    </testcase>\n"
            }
            for finding in app.findings {
                testcase("app: \(finding.id)", failure: policy.fails(finding.severity) ? (finding.id, finding.message) : nil)
            }
            for entry in app.entries {
                testcase("\(entry.entry) (file of \(entry.fileHost))", failure: entry.works ? nil : (entry.findingID, entry.reason))
            }
            let cases = app.findings.count + app.entries.count
            out += "  <testsuite name=\"app "
            XMLEscaping.append(app.appID, to: &out)
            out += "\" tests=\"\(cases)\" failures=\"\(suiteFailures)\" errors=\"0\" skipped=\"0\" time=\"0\" timestamp=\"\(timestamp)\">\n"
            out += "    <properties>\n      <property name=\"entitlements\" value=\""
            XMLEscaping.append(app.source, to: &out)
            out += "\"/>\n    </properties>\n"
            out += body
            out += "  </testsuite>\n"
            tests += cases
            failures += suiteFailures
        }
        return (out, tests, failures)
    }
}
