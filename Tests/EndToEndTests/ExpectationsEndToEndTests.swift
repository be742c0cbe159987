import Audit
import Foundation
import Testing
import TestSupport

/// A domains.txt with expectations, audited by the real binary against nginx: the nightly audit checks
/// what the files do (which URLs open the app), not only that they parse.
@Suite struct ExpectationsEndToEndTests {
    static let app = "ABQ7KM3X2P.com.exemplo.app"

    /// good.test and wellknown-only.test serve `ScenarioFiles.good` (`/buy/*` for the app, and the app in
    /// webcredentials); notfound.test serves nothing.
    static let domainsFile = """
        # expectations after the domain
        good.test  app=\(app)  opens=/buy/42  webcredentials=\(app)
        good.test  stays=/help/faq   # a second line adds to the first
        wellknown-only.test  app=\(app)  stays=/buy/1?ref=mail
        notfound.test  opens=/buy/1
        """

    struct Run: Sendable {
        var outcome: ShellCommand.Outcome
        var report: AuditReport
    }

    static let run: Result<Run, Error> = Result {
        let sites = try LocalSites.shared.get()
        let folder = try AuditBinary.temporaryDirectory()
        try domainsFile.write(to: folder.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        let outcome = try AuditBinary.run(
            ["--cacert", sites.certificateAuthority.certificatePath, "--timeout", "2", "--connect-timeout", "2", "--no-cdn",
             "--out", "out"] + sites.connectToArguments, in: folder)
        return Run(outcome: outcome, report: try AuditBinary.readReport(at: folder.appendingPathComponent("out/report.json")))
    }

    func domain(_ host: String) throws -> DomainResult {
        try #require(try Self.run.get().report.domains.first { $0.domain == host })
    }

    @Test func brokenExpectationFailsTheRunWithItsID() throws {
        let run = try Self.run.get()
        #expect(run.outcome.status == 1, "\(run.outcome.stdout)\(run.outcome.stderr)")
        #expect(run.report.inputErrors.isEmpty)
        let broken = try domain("wellknown-only.test")
        #expect(broken.verdict == .fail)
        let finding = try #require(broken.findings.first { $0.id == "expect.opened" })
        #expect(finding.severity == .error)
        #expect(finding.message.contains("https://wellknown-only.test/buy/1?ref=mail"))
        #expect(finding.message.contains(#"{ "/": "/buy/*" }"#))
        #expect(finding.pointer == "/applinks/details/0/components/0")
        #expect(run.outcome.stdout.contains("expect.opened") || run.outcome.stdout.contains("should stay in the browser"))
    }

    @Test func expectationsThatHoldAreReportedOnce() throws {
        let good = try domain("good.test")
        #expect(good.verdict == .pass, "\(good.allFindings.map(\.id))")
        #expect(good.findings.map(\.id) == ["expect.met"])
        #expect(good.findings.first?.message.contains("All 4 expectations") == true)
    }

    @Test func noUsableFileMeansOneUncheckedNotice() throws {
        let missing = try domain("notfound.test")
        #expect(missing.findings.filter { $0.category == "expect" }.map(\.id) == ["expect.unchecked"])
    }

    @Test func malformedExpectationIsAnInputErrorWithItsLine() throws {
        let folder = try AuditBinary.temporaryDirectory()
        try "good.test  opens=buy/1\n".write(to: folder.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        let outcome = try AuditBinary.run(["--no-cdn", "--timeout", "1", "--connect-timeout", "1", "--resolve", "good.test:443:127.0.0.1",
                                           "--out", "out"], in: folder)
        #expect(outcome.status == 2)
        #expect(outcome.stdout.contains("domains.txt:1") || outcome.stderr.contains("domains.txt:1"), "\(outcome.stdout)\(outcome.stderr)")
        #expect((outcome.stdout + outcome.stderr).contains("opens= takes a path"))
    }
}
