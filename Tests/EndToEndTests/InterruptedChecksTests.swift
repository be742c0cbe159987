import Audit
import Foundation
import Reporting
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-C while the fetched documents are being checked (issue 19, point 4): a run once waited
/// 158 s after the signal for its queued audits. Audits not started are dropped, the one in
/// progress is abandoned; the report of what was done is written whole, marked incomplete.
@Suite(.serialized) struct InterruptedChecksTests {
    /// Rule-heavy hosts: each serves 1 MB of ~56,000 rules at both locations (seconds of checks each).
    static let heavyCount = 8

    @Test func sigintDuringTheChecksOfLargeDocumentsAnswersAtOnce() throws {
        let sites = try HostileSites.shared.get()
        let folder = try AuditBinary.temporaryDirectory()
        let domains = (0..<Self.heavyCount).map(HostileSites.ruleHeavy)
        let audit = try RunningAudit(["--no-cdn", "--cacert", sites.certificateAuthority.certificatePath, "--out", "out"]
                                     + sites.connectToArguments(ruleHeavy: Self.heavyCount) + domains, in: folder)
        // The fetches take well under a second on loopback; then the checks, one domain at a time.
        usleep(3_000_000)
        let sent = Date()
        try audit.send(SIGINT)
        let result = audit.wait(limit: 60)
        let seconds = Date().timeIntervalSince(sent)
        print("InterruptedChecksTests: exit \(result.outcome.status) \(String(format: "%.2f", seconds)) s after SIGINT, "
              + "\(String(format: "%.1f", result.outcome.seconds)) s in all, peak \(result.peakKilobytes / 1024) MB")
        #expect(result.outcome.status == 130, "\(result.outcome.stderr)")
        #expect(seconds < 2, "exited \(seconds) s after SIGINT")
        #expect(result.outcome.stderr.contains("stopped by SIGINT"), "\(result.outcome.stderr)")

        let out = folder.appendingPathComponent("out")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == ["report.html", "report.json"])
        try PublishedFormatChecks.validateReport(at: out.appendingPathComponent("report.json"))
        let report = try JSONReporter.decode(try Data(contentsOf: out.appendingPathComponent("report.json")))
        #expect(!report.complete)
        let notAudited = report.notAudited ?? []
        print("InterruptedChecksTests: \(report.domains.count) domains audited, \(notAudited.count) not audited")
        #expect(!notAudited.isEmpty, "every domain was checked before the signal: the test proves nothing")
        #expect(Set(report.domains.map(\.domain)).union(notAudited) == Set(domains))
        #expect(report.domains.count + notAudited.count == domains.count)
        let html = try String(contentsOf: out.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(html.hasSuffix("</html>\n"))
    }
}
