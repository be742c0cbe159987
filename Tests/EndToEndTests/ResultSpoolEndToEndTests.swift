import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The results spool of a real run: a file inside the output folder, open while the run goes, but
/// never under a name there, so even a run killed outright (SIGKILL, no chance to clean up) leaves
/// nothing behind it: no spool, no report.
@Suite struct ResultSpoolEndToEndTests {
    @Test func aKilledRunLeavesNoSpoolBehind() throws {
        let sites = try HostileSites.shared.get()
        let folder = try AuditBinary.temporaryDirectory()
        let quick = [HostileSites.absurdCertificate, HostileSites.badUTF8, HostileSites.nul]
        let slow = [HostileSites.hang, HostileSites.drip]
        let audit = try RunningAudit(["--no-cdn", "--cacert", sites.certificateAuthority.certificatePath, "--timeout", "30",
                                      "--connect-timeout", "30", "--out", "out"] + sites.connectToArguments + quick + slow, in: folder)
        // The quick hosts are done (their results are in the spool); the slow ones hang.
        usleep(4_000_000)
        let pid = try #require(audit.auditProcessID())
        let out = folder.appendingPathComponent("out").resolvingSymlinksInPath().path
        let open = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").compactMap {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")
        }
        #expect(open.contains { $0.hasPrefix("\(out)/") && $0.hasSuffix(" (deleted)") },
                "the spool is open in the output folder, without a name there: \(open)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out) == [])
        try audit.send(SIGKILL)
        _ = audit.wait(limit: 20)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out) == [], "nothing is left, under any name")
    }

    /// Ctrl-C: the finished domains' reports are written from the spool, and then only they are there.
    @Test func anInterruptedRunLeavesItsReportsAndNothingElse() throws {
        let sites = try HostileSites.shared.get()
        let folder = try AuditBinary.temporaryDirectory()
        let quick = [HostileSites.absurdCertificate, HostileSites.badUTF8, HostileSites.nul]
        let audit = try RunningAudit(["--no-cdn", "--cacert", sites.certificateAuthority.certificatePath, "--timeout", "30",
                                      "--connect-timeout", "30", "--out", "out"] + sites.connectToArguments + quick + [HostileSites.hang],
                                     in: folder)
        usleep(4_000_000)
        try audit.send(SIGINT)
        let result = audit.wait(limit: 20)
        #expect(result.outcome.status == 130, "\(result.outcome.stderr)")
        let out = folder.appendingPathComponent("out")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == ["report.html", "report.json"])
        let report = try AuditBinary.readReport(at: out.appendingPathComponent("report.json"))
        #expect(Set(report.domains.map(\.domain)) == Set(quick) && report.notAudited == [HostileSites.hang])
    }
}
