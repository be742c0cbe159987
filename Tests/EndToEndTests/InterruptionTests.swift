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
            .filter { $0 != "latest" && $0 != "20200101T000000Z" }
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

    /// A small tmpfs (mounting needs root, as in CI's container); nil where mounting is not allowed.
    static func mountTmpfs(options: String) throws -> URL? {
        guard let mount = ShellCommand.which("mount") else { return nil }
        let point = try AuditBinary.temporaryDirectory()
        let outcome = try ShellCommand.run(mount, ["-t", "tmpfs", "-o", options, "tmpfs", point.path], checked: false)
        return outcome.status == 0 ? point : nil
    }

    static func unmount(_ point: URL) {
        if let umount = ShellCommand.which("umount") { _ = try? ShellCommand.run(umount, [point.path], checked: false) }
    }

    static func quickRun(out: String, prefix: [String] = []) throws -> ShellCommand.Outcome {
        let sites = try HostileSites.shared.get()
        return try AuditBinary.run(["--no-cdn", "--cacert", sites.certificateAuthority.certificatePath, "--out", out]
                                   + sites.connectToArguments + [HostileSites.nul])
    }

    @Test func aReadOnlyFolderIsAClearError() throws {
        var target: URL
        var cleanup: () -> Void = {}
        if let point = try Self.mountTmpfs(options: "ro,size=64k") {
            target = point
            cleanup = { Self.unmount(point) }
        } else if geteuid() != 0 {
            target = try AuditBinary.temporaryDirectory()
            chmod(target.path, 0o555)
        } else {
            // Root without mount: /proc takes no new folders either.
            target = URL(fileURLWithPath: "/proc/aasa-audit-cannot-write-here")
        }
        defer { cleanup() }
        let outcome = try Self.quickRun(out: target.path)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("cannot write") && outcome.stderr.contains(target.path), "\(outcome.stderr)")
        #expect(outcome.stderr.lowercased().contains("read-only") || outcome.stderr.lowercased().contains("permission")
                || outcome.stderr.contains("cannot create"), "\(outcome.stderr)")
    }

    @Test func aFullDiskIsAClearErrorAndLeavesNoPartialFile() throws {
        guard let point = try Self.mountTmpfs(options: "size=12k") else {
            // Without mount: a file size limit (ulimit -f, SIGXFSZ ignored) fails the write the same way.
            let folder = try AuditBinary.temporaryDirectory()
            let sites = try HostileSites.shared.get()
            let outcome = try ShellCommand.run("/bin/sh", ["-c", "ulimit -f 8; trap '' XFSZ; exec \"$0\" \"$@\"", try AuditBinary.path(),
                                                           "--no-cdn", "--cacert", sites.certificateAuthority.certificatePath,
                                                           "--out", folder.path] + sites.connectToArguments + [HostileSites.nul],
                                               checked: false)
            #expect(outcome.status == 2 && outcome.stderr.contains("cannot write"), "\(outcome.stderr)")
            try Self.expectOnlyCompleteFiles(in: folder)
            return
        }
        defer { Self.unmount(point) }
        let outcome = try Self.quickRun(out: point.path)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("cannot write") && outcome.stderr.contains("space"), "\(outcome.stderr)")
        try Self.expectOnlyCompleteFiles(in: point)
    }

    /// No temporary file is left, and any report that is there reads back whole.
    static func expectOnlyCompleteFiles(in folder: URL) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names.allSatisfy { !$0.hasPrefix(".") }, "\(names)")
        if names.contains("report.json") {
            #expect(throws: Never.self) { try JSONReporter.decode(try Data(contentsOf: folder.appendingPathComponent("report.json"))) }
        }
        if names.contains("report.html") {
            #expect(try String(contentsOf: folder.appendingPathComponent("report.html"), encoding: .utf8).hasSuffix("</html>\n"))
        }
    }
}
