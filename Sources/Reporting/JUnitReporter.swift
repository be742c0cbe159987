import AASA
import Audit
import Foundation

/// The report for CI servers (`report.junit.xml`), in the JUnit XML format Jenkins, GitLab and
/// GitHub Actions read: one `<testsuite>` per domain, one `<testcase>` per check of each location
/// (network, Apple's certificate rules, certificate, redirect, status, content-type, size, document) plus the domain's own
/// checks (location choice, Apple's crawler, Apple's CDN).
///
/// A case fails (`<failure>`) when it has an error, and with `strict` also when it has a warning;
/// a location Apple does not use (the root fallback when `.well-known` works) never fails a case,
/// since it does not change the verdict: its findings are listed in `<system-out>`. Checks that
/// could not run (no HTTP response, CDN not asked) are `<skipped>`. An interrupted run adds a
/// "not audited" suite whose cases, one per domain not reached, are `<error>`s. So without `strict`, the report
/// has failures exactly when a domain fails, as the exit status says.
public enum JUnitReporter {
    /// The location checks, in the order they run: their ids are the case names ("tls", "document" ...).
    static let locationChecks: [String] = RuleRegistry.locationChecks.map { $0.id }
    /// Those that judge an Apple location (`LocationCheck.judges`): its cases.
    static let appleLocationChecks: [String] = RuleRegistry.locationChecks.filter { $0.judges.contains(.appleAppSiteAssociation) }.map { $0.id }

    /// Renders `report` as a JUnit XML document. Linear in the size of the report.
    public static func render(_ report: AuditReport, strict: Bool) -> String {
        var out = ""
        // Held in memory, every domain can be read.
        try? render(StreamedReport(report), strict: strict) { out += $0 }
        return out
    }

    /// Renders `streamed` as `render(_:strict:)` renders the same report held whole, handing it to
    /// `sink` a suite at a time. The totals come first in the file, so the domains are read twice:
    /// once to count, once to write. Throws the first domain that cannot be read back.
    public static func render(_ streamed: StreamedReport, strict: Bool, to sink: (String) throws -> Void) throws {
        let report = streamed.report
        let domains = streamed.domains
        var totals = (tests: 0, failures: 0, skipped: 0, time: 0.0)
        let timestamp = isoTimestamp(report.generatedAt)
        let inputCases = report.inputErrors.count + (report.inputErrorsOmitted ?? 0 > 0 ? 1 : 0)
        totals.tests += inputCases
        totals.failures += inputCases
        try domains.forEach { domain in
            let suite = self.suite(domain, strict: strict, timestamp: timestamp)
            totals.tests += suite.tests
            totals.failures += suite.failures
            totals.skipped += suite.skipped
            totals.time += suite.time
        }
        var appXML = ""
        if let apps = report.apps {
            let suite = appSuites(apps, strict: strict, timestamp: timestamp)
            totals.tests += suite.tests
            totals.failures += suite.failures
            appXML = suite.xml
        }
        let notAudited = report.complete ? [] : report.notAudited ?? []
        totals.tests += notAudited.count
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"aasa-audit\" tests=\"\(totals.tests)\" failures=\"\(totals.failures)\" errors=\"\(notAudited.count)\" "
        out += "skipped=\"\(totals.skipped)\" time=\"\(seconds(totals.time))\" timestamp=\"\(timestamp)\">\n"
        if !report.inputErrors.isEmpty { out += inputSuite(report, timestamp: timestamp) }
        try sink(out)
        var pending = ""
        try domains.forEach { domain in
            pending += self.suite(domain, strict: strict, timestamp: timestamp).xml
            if pending.utf8.count >= 1 << 16 {
                try sink(pending)
                pending = ""
            }
        }
        out = pending + appXML
        if !notAudited.isEmpty { out += notAuditedSuite(notAudited, timestamp: timestamp) }
        out += "</testsuites>\n"
        try sink(out)
    }

    /// One case per skipped line of the domain list, each a failure: the run exits 2 for them.
    static func inputSuite(_ report: AuditReport, timestamp: String) -> String {
        let omitted = report.inputErrorsOmitted ?? 0
        let cases = report.inputErrors.count + (omitted > 0 ? 1 : 0)
        var out = "  <testsuite name=\"domain list\" tests=\"\(cases)\" failures=\"\(cases)\" "
        out += "errors=\"0\" skipped=\"0\" time=\"0\" timestamp=\"\(timestamp)\">\n"
        for problem in report.inputErrors {
            out += "    <testcase classname=\"domain list\" name=\""
            XMLEscaping.append(problem.place, to: &out)
            out += "\" time=\"0\">\n      <failure type=\"input\" message=\""
            XMLEscaping.append("\"\(problem.text)\": \(problem.reason)", to: &out)
            out += "\"/>\n    </testcase>\n"
        }
        if omitted > 0 {
            // One case for the rest, so a hostile list keeps the file small.
            out += "    <testcase classname=\"domain list\" name=\"\(omitted) more\" time=\"0\">\n"
            out += "      <failure type=\"input\" message=\"\(Formatting.plural(omitted, "more input error")), counted in report.json (inputErrorsOmitted)\"/>\n"
            out += "    </testcase>\n"
        }
        out += "  </testsuite>\n"
        return out
    }

    /// An interrupted run: one case per domain it did not reach, each an error (the check could not
    /// run), so a CI view does not show the audited part alone as the whole list passing.
    static func notAuditedSuite(_ domains: [String], timestamp: String) -> String {
        var out = "  <testsuite name=\"not audited\" tests=\"\(domains.count)\" failures=\"0\" errors=\"\(domains.count)\" "
        out += "skipped=\"0\" time=\"0\" timestamp=\"\(timestamp)\">\n"
        for domain in domains {
            out += "    <testcase classname=\""
            XMLEscaping.append(domain, to: &out)
            out += "\" name=\"audit\" time=\"0\">\n      <error type=\"interrupted\" message=\"The run was stopped before this domain was audited.\"/>\n"
            out += "    </testcase>\n"
        }
        out += "  </testsuite>\n"
        return out
    }

    /// A test case before rendering.
    struct Case {
        var name: String
        var findings: [Finding]
        var skipped: String? = nil
        /// False for a location Apple does not use: its findings are listed, never failures.
        var counts = true
        var time = 0.0
    }

    static func suite(_ domain: DomainResult, strict: Bool, timestamp: String) -> (xml: String, tests: Int, failures: Int, skipped: Int, time: Double) {
        var cases: [Case] = []
        for location in domain.locations {
            // The role Apple's choice gave the location (`LocationResult.role`): a location Apple does
            // not take the file from, while it takes it from the other, has its findings listed, never failures.
            let role = domain.role(of: location)
            let counts = role.counts
            // Findings go to the case of the check the audit stored in them (`Finding.check`).
            var byCheck = Array(repeating: [Finding](), count: appleLocationChecks.count)
            var other: [Finding] = []
            for finding in location.findings {
                if let at = finding.check.flatMap({ appleLocationChecks.firstIndex(of: $0) }) {
                    byCheck[at].append(finding)
                } else {
                    other.append(finding)
                }
            }
            let suffix = role.unusedSuffix
            for (at, check) in appleLocationChecks.enumerated() {
                let needsResponse = ![NetworkCheck.id, CertificatePolicyCheck.id, CertificateCheck.id].contains(check)
                let skipped = needsResponse && location.httpStatus == nil && byCheck[at].isEmpty ? "no HTTP response" : nil
                cases.append(Case(name: "\(location.path): \(check)\(suffix)", findings: byCheck[at], skipped: skipped,
                                  counts: counts, time: check == NetworkCheck.id ? location.timings.totalMs / 1000 : 0))
            }
            if !other.isEmpty { cases.append(Case(name: "\(location.path): other\(suffix)", findings: other, counts: counts)) }
        }
        if let android = domain.android { cases += androidCases(android) }
        func own(_ check: String) -> [Finding] { domain.findings.filter { $0.check == check } }
        cases.append(Case(name: "location choice", findings: own(LocationChoice.id)))
        cases.append(Case(name: "Apple's crawler", findings: own(CrawlerAccessCheck.id),
                          skipped: domain.crawler == nil && own(CrawlerAccessCheck.id).isEmpty ? "no HTTP response to compare with" : nil))
        cases.append(Case(name: "Apple's CDN", findings: own(CDNCheck.id),
                          skipped: domain.cdn == nil && own(CDNCheck.id).isEmpty ? "not asked (--no-cdn)" : nil))
        let ownCases = [LocationChoice.id, CrawlerAccessCheck.id, CDNCheck.id]
        let rest = domain.findings.filter { !ownCases.contains($0.check ?? "") }
        if !rest.isEmpty { cases.append(Case(name: "domain: other", findings: rest)) }

        var body = "", failures = 0, skipped = 0, time = 0.0
        for item in cases {
            time += item.time
            body += "    <testcase classname=\""
            XMLEscaping.append(domain.domain, to: &body)
            body += "\" name=\""
            XMLEscaping.append(item.name, to: &body)
            body += "\" time=\"\(seconds(item.time))\""
            var inner = ""
            let policy = ExitPolicy(strict: strict)
            let failing = item.counts ? item.findings.filter { policy.fails($0.severity) } : []
            if let first = failing.first {
                failures += 1
                inner += "      <failure type=\""
                XMLEscaping.append(first.id, to: &inner)
                inner += "\" message=\""
                XMLEscaping.append(first.message, to: &inner)
                inner += "\">"
                for finding in failing { describe(finding, to: &inner) }
                inner += "</failure>\n"
            } else if let reason = item.skipped {
                skipped += 1
                inner += "      <skipped message=\""
                XMLEscaping.append(reason, to: &inner)
                inner += "\"/>\n"
            }
            let listed = item.findings.filter { finding in !failing.contains { $0 == finding } }
            if !listed.isEmpty {
                inner += "      <system-out>"
                for finding in listed { describe(finding, to: &inner) }
                inner += "</system-out>\n"
            }
            body += inner.isEmpty ? "/>\n" : ">\n" + inner + "    </testcase>\n"
        }
        var out = "  <testsuite name=\""
        XMLEscaping.append(domain.unicodeDomain.map { "\($0) (\(domain.domain))" } ?? domain.domain, to: &out)
        out += "\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped)\" "
        out += "time=\"\(seconds(time))\" timestamp=\"\(timestamp)\">\n"
        out += "    <properties>\n      <property name=\"verdict\" value=\"\(domain.verdict.rawValue)\"/>\n"
        if let used = domain.usedLocation {
            out += "      <property name=\"usedLocation\" value=\""
            XMLEscaping.append(used, to: &out)
            out += "\"/>\n"
        }
        out += "    </properties>\n"
        out += body
        out += "  </testsuite>\n"
        return (out, cases.count, failures, skipped, time)
    }

    /// "error tls.expired: message\nFix: ...\n", escaped.
    static func describe(_ finding: Finding, to out: inout String) {
        XMLEscaping.append("\(finding.severity.rawValue) \(finding.id): \(finding.message)", to: &out)
        if let pointer = finding.pointer { XMLEscaping.append(" (at \(pointer))", to: &out) }
        out += "&#10;"
        if let fix = finding.fix {
            XMLEscaping.append("Fix: \(fix)", to: &out)
            out += "&#10;"
        }
        if let detail = finding.detail {
            XMLEscaping.append("Technical detail: \(detail)", to: &out)
            out += "&#10;"
        }
    }

    /// Seconds with three decimals, locale-independent.
    static func seconds(_ value: Double) -> String {
        String(format: "%.3f", value)
    }

    /// `2026-11-29T19:00:00` (JUnit's timestamp has no zone; it is UTC).
    static func isoTimestamp(_ date: Date) -> String {
        String(Formatting.utc(date).prefix(19)).replacingOccurrences(of: " ", with: "T")
    }
}
