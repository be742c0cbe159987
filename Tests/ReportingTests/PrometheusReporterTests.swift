import AASA
import Audit
import Foundation
import Testing
import TestSupport
@testable import Reporting

/// report.prom: the text exposition format, checked by Prometheus' own `promtool check metrics`.
@Suite struct PrometheusReporterTests {
    static func render(_ report: AuditReport, policy: ExitPolicy = ExitPolicy(), ending: RunEnding? = nil) throws -> String {
        var data = Data()
        try ReportFormat.prom.render(report, policy: policy, ending: ending) { data.append($0) }
        return String(decoding: data, as: UTF8.self)
    }

    /// Writes `text` to a file and has promtool check it.
    static func promtool(_ text: String) throws {
        let folder = try AuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("report.prom")
        try Data(text.utf8).write(to: file)
        try PublishedFormatChecks.checkMetrics(at: file)
    }

    static func samples(_ text: String) -> [Substring] {
        text.split(separator: "\n").filter { !$0.hasPrefix("#") }
    }

    @Test(arguments: [
        ("plain.example", "plain.example"),
        ("a\"b", "a\\\"b"),
        ("a\\b", "a\\\\b"),
        ("a\nb", "a\\nb"),
        ("\\\"\n", "\\\\\\\"\\n"),
        ("bücher\u{202E}", "bücher\u{202E}"),
    ])
    func labelValuesAreEscapedAsTheFormatRequires(value: String, escaped: String) {
        #expect(PrometheusReporter.escapeLabelValue(value) == escaped)
    }

    @Test func theFixtureReportIsValidAndSaysWhatItHolds() throws {
        let ending = RunEnding(status: .domainFailed, reportsWrittenAt: ReportFixtures.generatedAt.addingTimeInterval(12.5))
        let text = try Self.render(ReportFixtures.report, ending: ending)
        try Self.promtool(text)
        let lines = Set(Self.samples(text).map(String.init))
        #expect(lines.contains("aasa_audit_run_start_timestamp_seconds 1795978800"))
        #expect(lines.contains("aasa_audit_run_duration_seconds 12.500"))
        #expect(lines.contains("aasa_audit_run_exit_status 1"))
        #expect(lines.contains("aasa_audit_run_complete 1"))
        #expect(lines.contains("aasa_audit_run_baseline_compared 1"))
        #expect(lines.contains("aasa_audit_domain_verdict{domain=\"good.example\",verdict=\"pass\"} 1"))
        #expect(lines.contains("aasa_audit_domain_verdict{domain=\"good.example\",verdict=\"fail\"} 0"))
        #expect(lines.contains("aasa_audit_domain_newly_failing{domain=\"expired.example\"} 1"))
        #expect(lines.contains("aasa_audit_domain_newly_failing{domain=\"nxdomain.example\"} 0"), "failed in the baseline too")
        #expect(lines.contains("aasa_audit_domain_newly_failing{domain=\"good.example\"} 0"))
        #expect(lines.contains("aasa_audit_certificate_expiry_timestamp_seconds{domain=\"good.example\"} 1801162800"))
        #expect(lines.contains("aasa_audit_certificate_remaining_seconds{domain=\"good.example\"} \(60 * 86_400)"))
        #expect(lines.contains("aasa_audit_cdn_age_seconds{domain=\"good.example\"} 5400"))
        #expect(lines.contains("aasa_audit_cdn_state{domain=\"good.example\",state=\"current\"} 1"))
        #expect(lines.contains("aasa_audit_cdn_state{domain=\"good.example\",state=\"missing\"} 0"))
        // One newly failing domain in the fixture's changes, and its count.
        #expect(lines.contains("aasa_audit_run_newly_failing_domains \(ReportFixtures.report.changes?.newlyFailing.count ?? -1)"))
        // Each family is one group: its TYPE line once, before its samples.
        let types = text.split(separator: "\n").filter { $0.hasPrefix("# TYPE ") }
        #expect(Set(types).count == types.count)
    }

    @Test func aFirstRunSaysSoAndWritesNoNewlyFailingMetrics() throws {
        let text = try Self.render(ReportFixtures.small)
        try Self.promtool(text)
        #expect(text.contains("\naasa_audit_run_baseline_compared 0\n"))
        #expect(!text.contains("newly_failing"))
        // Without a run's ending: the policy's status (2: the list has a skipped line), no duration.
        #expect(text.contains("\naasa_audit_run_exit_status 2\n"))
        #expect(!text.contains("duration"))
    }

    @Test func errorsAndWarningsCountWhatADeviceReads() throws {
        // ReportFixtures.passing: a 404 at the root location Apple does not read; nothing counts.
        let text = try Self.render(ReportFixtures.small)
        #expect(text.contains("\naasa_audit_domain_errors{domain=\"good.example\"} 0\n"))
        // nxdomain.example: both locations unreadable, one DNS error each.
        #expect(text.contains("\naasa_audit_domain_errors{domain=\"nxdomain.example\"} 2\n"))
    }

    @Test func anInterruptedRunSaysItsSignalAndWhatIsLeft() throws {
        var report = ReportFixtures.small
        report.complete = false
        report.notAudited = ["later.example", "last.example"]
        let text = try Self.render(report, ending: RunEnding(status: .terminated, reportsWrittenAt: report.generatedAt))
        try Self.promtool(text)
        #expect(text.contains("\naasa_audit_run_complete 0\n"))
        #expect(text.contains("\naasa_audit_run_exit_status 143\n"))
        #expect(text.contains("\naasa_audit_run_domains_not_audited 2\n"))
    }

    @Test func hostileNamesAndValuesStayInTheirLabels() throws {
        var report = HostileReport.report()
        report.changes = HostileReport.changes()
        report.domains[0].domain += "\\\"\n} 1\nINJECTED 1"
        report.domains[0].cdn = CDNResult(url: "https://cdn.example", httpStatus: 200, age: "1e999")
        report.domains[1].cdn = CDNResult(url: "https://cdn.example", httpStatus: 200, age: "-5\n")
        report.domains[1].certificate = JudgedCertificate(location: "/x", notAfter: Date(timeIntervalSince1970: 1_800_100_000), daysLeft: 1)
        let text = try Self.render(report)
        try Self.promtool(text)
        // Every sample line is a metric of the tool's: no name, value or header made a line of its own.
        for line in Self.samples(text) { #expect(line.hasPrefix("aasa_audit_")) }
        #expect(!text.contains("aasa_audit_cdn_age_seconds"))
        #expect(text.contains("\\\\\\\"\\n} 1\\nINJECTED 1"))
    }

    @Test func theReportFormatListHasIt() {
        #expect(ReportFormat(rawValue: "prom")?.fileName == "report.prom")
    }
}
