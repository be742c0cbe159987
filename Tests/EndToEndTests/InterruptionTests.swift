import Audit
import Foundation
import Reporting
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A run stopped half-way (SIGINT, SIGTERM) and reports that cannot be written (read-only folder,
/// full disk): the previous `reports/latest` is untouched, what is left is complete, and the exit
/// status says what happened.
@Suite(.serialized) struct InterruptionTests {
    /// Hosts that finish within a second, and hosts that hang until long after the signal.
    static let quick = [HostileSites.absurdCertificate, HostileSites.badUTF8, HostileSites.nul, HostileSites.endless]
    static let slow = [HostileSites.hang, HostileSites.drip]

    /// A folder whose `reports/latest` points at an earlier run.
    static func folderWithPreviousRun() throws -> URL {
        let folder = try AuditBinary.temporaryDirectory()
        let previous = folder.appendingPathComponent("reports/20200101T000000Z")
        try FileManager.default.createDirectory(at: previous, withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: previous.appendingPathComponent("report.json"))
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("reports/latest").path,
                                                   withDestinationPath: "20200101T000000Z")
        return folder
    }

    static func arguments(_ sites: HostileSites) -> [String] {
        ["--no-cdn", "--cacert", sites.certificateAuthority.certificatePath, "--timeout", "30", "--connect-timeout", "30"]
            + sites.connectToArguments + quick + slow
    }

    /// Starts the audit, waits until the quick hosts are surely done, sends `signals` a few
    /// milliseconds apart, and returns the outcome with the seconds from the first signal to the exit.
    static func interrupt(with signals: [Int32], in folder: URL) throws -> (RunningAudit.Result, Double) {
        let sites = try HostileSites.shared.get()
        let audit = try RunningAudit(arguments(sites), in: folder)
        usleep(4_000_000)
        let sent = Date()
        for signal in signals {
            try audit.send(signal)
            usleep(5_000)
        }
        let result = audit.wait(limit: 20)
        return (result, Date().timeIntervalSince(sent))
    }

    /// The run folders under reports/ other than the previous one.
    static func newRuns(in folder: URL) throws -> [URL] {
        let reports = folder.appendingPathComponent("reports")
        return try FileManager.default.contentsOfDirectory(atPath: reports.path)
            .filter { $0 != "latest" && $0 != "20200101T000000Z" && !$0.hasPrefix("history.sqlite") }
            .map { reports.appendingPathComponent($0) }
    }

    static func expectPartialReport(in folder: URL, result: RunningAudit.Result, secondsAfterSignal: Double, status: Int32) throws {
        #expect(result.outcome.status == status, "\(result.outcome.stderr)")
        #expect(secondsAfterSignal < 5, "stopped \(secondsAfterSignal) s after the signal")
        #expect(result.outcome.stderr.contains("not audited") && result.outcome.stderr.contains("reports/latest was not moved"),
                "\(result.outcome.stderr)")
        // The previous latest is untouched.
        let latest = try FileManager.default.destinationOfSymbolicLink(atPath: folder.appendingPathComponent("reports/latest").path)
        #expect(latest == "20200101T000000Z")
        // One new run folder, with complete files and nothing under a temporary name.
        let runs = try newRuns(in: folder)
        #expect(runs.count == 1)
        let run = try #require(runs.first)
        #expect(try FileManager.default.contentsOfDirectory(atPath: run.path).sorted() == ["report.html", "report.json"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("reports").path)
            .allSatisfy { !$0.hasPrefix(".") })
        try PublishedFormatChecks.validateReport(at: run.appendingPathComponent("report.json"))
        let report = try JSONReporter.decode(try Data(contentsOf: run.appendingPathComponent("report.json")))
        #expect(!report.complete)
        #expect(Set(report.domains.map(\.domain)) == Set(quick))
        #expect(report.notAudited == slow)
        #expect(report.summary.domains == quick.count)
        let html = try String(contentsOf: run.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(html.hasSuffix("</html>\n"))
        #expect(html.contains("interrupted"))
    }

    @Test func sigintKeepsWhatWasFinished() throws {
        let folder = try Self.folderWithPreviousRun()
        let (result, seconds) = try Self.interrupt(with: [SIGINT], in: folder)
        try Self.expectPartialReport(in: folder, result: result, secondsAfterSignal: seconds, status: 130)
        #expect(result.outcome.stderr.contains("stopped by SIGINT"))
    }

    @Test func sigtermKeepsWhatWasFinished() throws {
        let folder = try Self.folderWithPreviousRun()
        let (result, seconds) = try Self.interrupt(with: [SIGTERM], in: folder)
        try Self.expectPartialReport(in: folder, result: result, secondsAfterSignal: seconds, status: 143)
        #expect(result.outcome.stderr.contains("stopped by SIGTERM"))
    }

    /// Ctrl-C pressed again while the report is being written changes nothing.
    @Test func repeatedSignalsStillLeaveACompleteReport() throws {
        let folder = try Self.folderWithPreviousRun()
        let (result, seconds) = try Self.interrupt(with: [SIGINT, SIGINT, SIGINT, SIGTERM], in: folder)
        try Self.expectPartialReport(in: folder, result: result, secondsAfterSignal: seconds, status: 130)
    }

    /// Signals arriving all along, through the writing of the report (the test above sends its
    /// signals within milliseconds of the first, before the fetch has even stopped).
    @Test func signalsUntilTheExitStillLeaveACompleteReport() throws {
        let folder = try Self.folderWithPreviousRun()
        let sites = try HostileSites.shared.get()
        let audit = try RunningAudit(Self.arguments(sites), in: folder)
        usleep(4_000_000)
        let sent = Date()
        guard let pid = audit.auditProcessID() else { throw HarnessError.serverDidNotStart("the audit process is not running") }
        // Until the process is gone (kill fails) or 20 s have passed.
        while kill(pid, SIGINT) == 0 && Date().timeIntervalSince(sent) < 20 { usleep(2_000) }
        let result = audit.wait(limit: 20)
        try Self.expectPartialReport(in: folder, result: result, secondsAfterSignal: Date().timeIntervalSince(sent), status: 130)
    }

    /// A run that was not interrupted moves reports/latest, and its report has no notAudited.
    @Test func anUninterruptedRunMovesLatest() throws {
        let sites = try HostileSites.shared.get()
        let folder = try Self.folderWithPreviousRun()
        try "\(HostileSites.absurdCertificate)\n".write(to: folder.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        let outcome = try AuditBinary.run(["--no-cdn", "--cacert", sites.certificateAuthority.certificatePath]
                                          + sites.connectToArguments, in: folder)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let latest = try FileManager.default.destinationOfSymbolicLink(atPath: folder.appendingPathComponent("reports/latest").path)
        #expect(latest != "20200101T000000Z")
        let report = try JSONReporter.decode(try Data(contentsOf: folder.appendingPathComponent("reports/latest/report.json")))
        #expect(report.complete && report.notAudited == nil)
        let json = try String(contentsOf: folder.appendingPathComponent("reports/latest/report.json"), encoding: .utf8)
        #expect(!json.contains("notAudited"))
    }

    // MARK: - Folders that cannot be written
    // Real file systems, made by the test (TestSupport.ScratchFileSystem): a chmod'ed folder is no
    // read-only folder for root, and a file size limit is no full disk. Where the machine cannot mount
    // a tmpfs, these tests fail with the reason.

    static func quickRun(out: String) throws -> ShellCommand.Outcome {
        let sites = try HostileSites.shared.get()
        return try AuditBinary.run(["--no-cdn", "--cacert", sites.certificateAuthority.certificatePath, "--out", out]
                                   + sites.connectToArguments + [HostileSites.nul])
    }

    @Test func aReadOnlyFolderIsAClearError() throws {
        let scratch = try ScratchFileSystem.readOnly()
        defer { scratch.unmount() }
        let target = scratch.mountPoint
        let outcome = try Self.quickRun(out: target.path)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("cannot write") && outcome.stderr.contains(target.path), "\(outcome.stderr)")
        #expect(outcome.stderr.lowercased().contains("read-only"), "the reason is the read-only file system: \(outcome.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.path).isEmpty)
    }

    @Test func aFullDiskIsAClearErrorAndLeavesNoPartialFile() throws {
        let scratch = try ScratchFileSystem(bytes: 12 * 1024)
        defer { scratch.unmount() }
        let outcome = try Self.quickRun(out: scratch.mountPoint.path)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("cannot write") && outcome.stderr.contains("space"), "\(outcome.stderr)")
        try Self.expectOnlyCompleteFiles(in: scratch.mountPoint, outcome: outcome)
    }

    /// No temporary file is left, every file there is a report that reads back whole, and each report
    /// of the run's formats (`reports`) is either there, complete, or named on stderr as not written:
    /// something is checked even when nothing could be written.
    static func expectOnlyCompleteFiles(in folder: URL, outcome: ShellCommand.Outcome,
                                        reports: [String] = ["report.json", "report.html"]) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names.allSatisfy { !$0.hasPrefix(".") }, "no temporary file is left: \(names)")
        #expect(Set(names).isSubset(of: reports), "only whole reports are left: \(names)")
        for name in reports {
            let file = folder.appendingPathComponent(name)
            guard names.contains(name) else {
                #expect(outcome.stderr.contains("cannot write \(file.path)") || outcome.stderr.contains("cannot write \(folder.path)"),
                        "\(name) was not written and stderr does not say so: \(outcome.stderr)")
                continue
            }
            switch name {
            case "report.json":
                #expect(throws: Never.self) { try JSONReporter.decode(try Data(contentsOf: file)) }
            case "report.html":
                #expect(try String(contentsOf: file, encoding: .utf8).hasSuffix("</html>\n"), "\(name) is cut short")
            default:
                #expect(try !Data(contentsOf: file).isEmpty, "\(name) is empty")
            }
        }
    }
}
