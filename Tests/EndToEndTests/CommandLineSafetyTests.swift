import Audit
import Foundation
import Reporting
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The binary as a user runs it in a nightly folder: mistyped commands and options, help, one-off
/// checks beside the nightly list, an output folder that cannot be written, files that are not
/// regular files, standard output closed or never read, signals while the run waits.
@Suite(.serialized) struct CommandLineSafetyTests {
    static func common(_ sites: LocalSites) -> [String] {
        ["--cacert", sites.certificateAuthority.certificatePath, "--no-cdn", "--timeout", "3", "--connect-timeout", "2"] + sites.connectToArguments
    }

    /// A nightly folder: domains.txt and a reports/latest of an earlier night.
    static func nightlyFolder(list: String = "good.test\n") throws -> URL {
        let folder = try AuditBinary.temporaryDirectory()
        try list.write(to: folder.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        let previous = folder.appendingPathComponent("reports/20200101T000000Z")
        try FileManager.default.createDirectory(at: previous, withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: previous.appendingPathComponent("report.json"))
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("reports/latest").path,
                                                   withDestinationPath: "20200101T000000Z")
        return folder
    }

    /// Every path under `folder`, for "nothing was written".
    static func listing(_ folder: URL) -> [String] {
        (FileManager.default.subpaths(atPath: folder.path) ?? []).sorted()
    }

    // MARK: - 14.1: commands, help, options

    @Test(arguments: [
        (["validat", "foo.json"], "unknown command 'validat'; did you mean 'validate'?"),
        (["mtach", "good.test", "/a"], "unknown command 'mtach'; did you mean 'match'?"),
        (["merg", "a.json"], "unknown command 'merg'; did you mean 'merge'?"),
        (["hlep"], "unknown command 'hlep'; did you mean 'help'?"),
        (["help", "validat"], "unknown command 'validat'; did you mean 'validate'?"),
        (["help", "frobnicate"], "unknown command 'frobnicate' (see aasa-audit help)"),
        (["--strcit"], "unknown option '--strcit'; did you mean '--strict'?"),
        (["validate", "--jsno", "a.json"], "aasa-audit validate: unknown option '--jsno'; did you mean '--json'?"),
        (["match", "--flie", "a.json", "/a"], "aasa-audit match: unknown option '--flie'; did you mean '--file'?"),
        (["merge", "a.json", "--qiuet"], "aasa-audit merge: unknown option '--qiuet'; did you mean '--quiet'?"),
    ])
    func aMistypedCommandOrOptionIsAUsageErrorAndNothingIsWritten(arguments: [String], message: String) throws {
        let folder = try Self.nightlyFolder()
        let before = Self.listing(folder)
        let outcome = try AuditBinary.run(arguments, in: folder)
        #expect(outcome.status == 2, "\(outcome.stderr)")
        #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
        #expect(outcome.stdout.isEmpty)
        #expect(Self.listing(folder) == before, "nothing written")
    }

    @Test func helpPrintsTheHelpOfTheCommandNamed() throws {
        let general = try AuditBinary.run(["help"])
        #expect(general.status == 0 && general.stdout.hasPrefix("USAGE: aasa-audit [options] [DOMAIN ...]"), "\(general.stdout.prefix(200))")
        #expect(general.stdout.contains("aasa-audit help [COMMAND]"))
        #expect(try AuditBinary.run(["help", "audit"]).stdout == general.stdout)
        for command in ["validate", "match", "diff", "merge"] {
            let outcome = try AuditBinary.run(["help", command])
            let direct = try AuditBinary.run([command, "--help"])
            #expect(outcome.status == 0 && outcome.stdout.hasPrefix("USAGE: aasa-audit \(command)"), "\(outcome.stdout.prefix(100))")
            #expect(outcome.stdout == direct.stdout)
        }
        // A real domain is still a domain: nothing about commands.
        let domain = try AuditBinary.run(["--no-cdn", "--out", "o", "--connect-timeout", "1", "--connect-to", "::127.0.0.1:9", "help.example"])
        #expect(domain.status == 1 && !domain.stderr.contains("unknown command"), "\(domain.stderr)")
    }

    // MARK: - 14.2: one-off checks and reports/latest

    @Test func aOneOffCheckInTheNightlyFolderMovesNothing() throws {
        let sites = try LocalSites.shared.get()
        let folder = try Self.nightlyFolder(list: "good.test\nwellknown-only.test\n")
        let latest = folder.appendingPathComponent("reports/latest")
        let night = try AuditBinary.run(Self.common(sites) + ["--no-baseline"], in: folder)
        #expect(night.status == 0, "\(night.stderr)")
        let nightFolder = try FileManager.default.destinationOfSymbolicLink(atPath: latest.path)
        #expect(nightFolder != "20200101T000000Z")

        let oneOff = try AuditBinary.run(Self.common(sites) + ["notfound.test"], in: folder)
        #expect(oneOff.status == 1)
        #expect(oneOff.stderr.contains("aasa-audit: one-off check of the domains given as arguments: reports/latest is not moved "
                                       + "and the run is not compared with it (--baseline FILE compares it)"), "\(oneOff.stderr)")
        #expect(!oneOff.stderr.contains("comparing with"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: latest.path) == nightFolder)
        let quiet = try AuditBinary.run(Self.common(sites) + ["--quiet", "good.test"], in: folder)
        #expect(quiet.status == 0 && quiet.stderr.isEmpty && quiet.stdout.isEmpty, "\(quiet.stderr)")
        // Its reports are under reports/ all the same.
        let runs = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("reports").path)
            .filter { $0 != "latest" && !$0.hasPrefix("history.sqlite") }
        #expect(runs.count == 4, "\(runs)")

        // The next night compares with the last night: nothing added, nothing removed.
        let next = try AuditBinary.run(Self.common(sites), in: folder)
        #expect(next.stderr.contains("comparing with reports/\(nightFolder)/report.json"), "\(next.stderr)")
        let report = try AuditBinary.readReport(at: latest.appendingPathComponent("report.json"))
        #expect(report.changes?.isEmpty == true, "\(String(describing: report.changes))")
    }

    @Test func aListWithNothingToAuditLeavesLatest() throws {
        let folder = try Self.nightlyFolder(list: "not a domain\n")
        let outcome = try AuditBinary.run(["--no-cdn"], in: folder)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("no domain was audited: reports/latest was not moved"), "\(outcome.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.appendingPathComponent("reports/latest").path) == "20200101T000000Z")
    }

    // MARK: - 14.5: fail fast


    @Test func anUnwritableOutputFolderIsFoundBeforeAnyFetch() throws {
        let sites = try LocalSites.shared.get()
        // A read-only tmpfs: root ignores file permissions, a read-only mount it cannot.
        let scratch = try ScratchFileSystem.readOnly()
        defer { scratch.unmount() }
        let point = scratch.mountPoint
        // silent.test never answers: a check made after the fetch would take the whole 30 s.
        let slow = ["--cacert", sites.certificateAuthority.certificatePath, "--no-cdn", "--timeout", "30"] + sites.connectToArguments
        for (arguments, reason) in [
            (["--out", point.path], "cannot write \(point.path): Read-only file system"),
            (["--out", point.appendingPathComponent("new/out").path], "cannot create it in \(point.path) (Read-only file system)"),
        ] {
            let outcome = try AuditBinary.run(slow + arguments + ["silent.test"])
            #expect(outcome.status == 2 && outcome.stderr.contains(reason), "\(outcome.stderr)")
            #expect(outcome.stderr.contains("(nothing was audited)"))
            #expect(outcome.seconds < 3, "found before the fetch: \(outcome.seconds) s")
        }
        // Without --out, in a read-only working folder: reports/ cannot be made.
        let inside = try AuditBinary.run(slow + ["silent.test"], in: point)
        #expect(inside.status == 2 && inside.stderr.contains("cannot write reports: cannot create it in . (Read-only file system)"), "\(inside.stderr)")
        #expect(inside.seconds < 3)
        // A file where a folder is expected.
        let folder = try AuditBinary.temporaryDirectory()
        try "x".write(to: folder.appendingPathComponent("reports"), atomically: true, encoding: .utf8)
        let file = try AuditBinary.run(slow + ["silent.test"], in: folder)
        #expect(file.status == 2 && file.stderr.contains("cannot write reports: reports is not a folder"), "\(file.stderr)")
        #expect(file.seconds < 3)
        let under = try AuditBinary.run(slow + ["--out", "reports/today", "silent.test"], in: folder)
        #expect(under.status == 2 && under.stderr.contains("cannot write reports/today: reports is not a folder"), "\(under.stderr)")
    }

    @Test func aDomainListThatCannotBeReadSaysWhy() throws {
        let folder = try AuditBinary.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("lists"), withIntermediateDirectories: true)
        for (list, reason) in [("nope.txt", "No such file or directory"), ("lists", "it is a folder, not a file"),
                               ("/dev/zero", "it is a device, not a regular file")] {
            let outcome = try AuditBinary.run(["--domains", list], in: folder)
            #expect(outcome.status == 2)
            #expect(outcome.stderr.contains("cannot read the domain list \(list): \(reason)"), "\(outcome.stderr)")
        }
        let missingDefault = try AuditBinary.run([], in: folder)
        #expect(missingDefault.stderr.contains("cannot read the domain list domains.txt: No such file or directory (name domains as arguments"),
                "\(missingDefault.stderr)")
        #expect(Self.listing(folder) == ["lists"])
    }

    /// Permissions, as a user they apply to (root reads and writes everything): the system's words.
    @Test func withoutPermissionTheListAndTheFolderSayWhy() throws {
        let folder = try AuditBinary.temporaryDirectory()
        chmod(folder.path, 0o777)
        try "good.test\n".write(to: folder.appendingPathComponent("list.txt"), atomically: true, encoding: .utf8)
        chmod(folder.appendingPathComponent("list.txt").path, 0o000)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("locked"), withIntermediateDirectories: true)
        chmod(folder.appendingPathComponent("locked").path, 0o555)
        var runner = [try AuditBinary.path()]
        if geteuid() == 0 {
            let setpriv = try #require(ShellCommand.which("setpriv"), "setpriv (util-linux) is needed to run the binary as another user than root")
            runner = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"] + runner
        }
        for (arguments, message) in [
            (["--domains", "list.txt"], "cannot read the domain list list.txt: Permission denied"),
            (["--out", "locked", "a.example"], "cannot write locked: Permission denied (nothing was audited)"),
            (["--out", "locked/new", "a.example"], "cannot write locked/new: cannot create it in locked (Permission denied) (nothing was audited)"),
        ] {
            let outcome = try ShellCommand.run(runner[0], Array(runner.dropFirst()) + arguments, directory: folder, checked: false)
            #expect(outcome.status == 2 && outcome.stderr.contains(message), "\(outcome.stderr)")
        }
    }

    // MARK: - 19.7: FIFOs, devices, signals while waiting

    @Test func aFIFOOrADeviceAsCAFileOrBaselineIsRefusedAtOnce() throws {
        let sites = try LocalSites.shared.get()
        let folder = try AuditBinary.temporaryDirectory()
        let fifo = folder.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        for file in [fifo, "/dev/zero"] {
            let outcome = try AuditBinary.run(["--cacert", file, "--no-cdn", "--out", "out", "good.test"], in: folder)
            #expect(outcome.status == 2 && outcome.stderr.contains("--cacert \(file): it is a "), "\(outcome.stderr)")
            #expect(outcome.seconds < 3)
            let baseline = try AuditBinary.run(Self.common(sites) + ["--baseline", file, "--out", "out", "good.test"], in: folder)
            #expect(baseline.status == 0, "\(baseline.stderr)")
            #expect(baseline.stderr.contains("warning: cannot use the baseline \(file): it is not a regular file"), "\(baseline.stderr)")
            #expect(baseline.seconds < 5)
        }
    }

    /// A FIFO nobody writes to, as the domain list: the run waits (it is a pipe, which
    /// `--domains <(…)` is too), and SIGINT or SIGTERM ends it at once with nothing written.
    @Test(arguments: [(SIGINT, Int32(130), "SIGINT"), (SIGTERM, Int32(143), "SIGTERM")])
    func aSignalEndsARunWaitingForItsDomainList(signal: Int32, status: Int32, name: String) throws {
        let folder = try AuditBinary.temporaryDirectory()
        #expect(mkfifo(folder.appendingPathComponent("domains.txt").path, 0o600) == 0)
        let audit = try RunningAudit(["--no-cdn"], in: folder)
        // The notice comes after 2 s of waiting; signalled once it is there (a fixed sleep lost the race on a busy machine).
        #expect(audit.waitForStandardError(containing: "waiting for the domain list domains.txt (a pipe) to be written; Ctrl-C stops", limit: 20))
        let sent = Date()
        try audit.send(signal)
        let result = audit.wait(limit: 10)
        let seconds = Date().timeIntervalSince(sent)
        #expect(result.outcome.status == status, "\(result.outcome.stderr)")
        #expect(seconds < 2, "ended \(seconds) s after the signal")
        #expect(result.outcome.stderr.contains("waiting for the domain list domains.txt (a pipe) to be written; Ctrl-C stops"),
                "\(result.outcome.stderr)")
        #expect(result.outcome.stderr.contains("stopped by \(name) while waiting for the domain list domains.txt: nothing was audited or written"))
        #expect(Self.listing(folder) == ["domains.txt"])
    }

    @Test func aPipeIsAcceptedAsTheDomainList() throws {
        let sites = try LocalSites.shared.get()
        let folder = try AuditBinary.temporaryDirectory()
        let command = "printf 'good.test\\nnotfound.test\\n' | \"$0\" \"$@\""
        let outcome = try ShellCommand.run("/bin/sh", ["-c", command, try AuditBinary.path(), "--domains", "/dev/stdin", "--out", "out"]
                                           + Self.common(sites), directory: folder, checked: false)
        #expect(outcome.status == 1, "\(outcome.stderr)")
        let report = try AuditBinary.readReport(at: folder.appendingPathComponent("out/report.json"))
        #expect(report.domains.map(\.domain) == ["good.test", "notfound.test"])
    }

    // MARK: - 14.6: standard output closed early, or never read

    static func expectCompleteReports(in folder: URL) throws -> AuditReport {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names == ["report.html", "report.json", "report.junit.xml", "report.md"], "\(names)")
        let html = try String(contentsOf: folder.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(html.hasSuffix("</html>\n"))
        let junit = try String(contentsOf: folder.appendingPathComponent("report.junit.xml"), encoding: .utf8)
        #expect(junit.hasSuffix("</testsuites>\n"))
        return try JSONReporter.decode(try Data(contentsOf: folder.appendingPathComponent("report.json")))
    }

    @Test func jsonPipedIntoHeadStillWritesEveryReportAndExitsWithTheAuditsStatus() throws {
        let sites = try LocalSites.shared.get()
        let folder = try AuditBinary.temporaryDirectory()
        // More JSON than a pipe holds (64 KiB): 3,000 skipped lines are in it, so the writes after
        // head has left meet a closed pipe.
        let list = (1...3000).map { "not a domain \($0)" } + ["good.test", "notfound.test"]
        try (list.joined(separator: "\n") + "\n").write(to: folder.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        let command = "\"$0\" \"$@\" 2>err.txt | head -c 50; exit ${PIPESTATUS[0]}"
        let outcome = try ShellCommand.run("/bin/bash", ["-c", command, try AuditBinary.path(), "--json", "--format", "json,html,md,junit", "--out", "out"]
                                           + Self.common(sites), directory: folder, checked: false)
        #expect(outcome.status == 2, "the audit's status (skipped lines), not 141: \(outcome.status)")
        #expect(outcome.stdout.utf8.count == 50)
        let report = try Self.expectCompleteReports(in: folder.appendingPathComponent("out"))
        #expect(report.domains.map(\.domain) == ["good.test", "notfound.test"])

        // The reader gone before anything is printed (`| true`): exit 1 (notfound.test fails), every file written.
        let closed = try AuditBinary.temporaryDirectory()
        let early = try ShellCommand.run("/bin/bash", ["-c", "\"$0\" \"$@\" 2>err.txt | true; exit ${PIPESTATUS[0]}", try AuditBinary.path(),
                                                       "--format", "json,html,md,junit", "--out", "out"] + Self.common(sites) + ["good.test", "notfound.test"],
                                         directory: closed, checked: false)
        #expect(early.status == 1, "\(early.status): \((try? String(contentsOf: closed.appendingPathComponent("err.txt"), encoding: .utf8)) ?? "")")
        _ = try Self.expectCompleteReports(in: closed.appendingPathComponent("out"))
    }

    /// Standard output is a pipe nobody reads: the JSON fills it and the write would wait forever.
    /// SIGINT still ends the run within 2 s, with the report files written.
    @Test func aSignalEndsARunWhoseOutputNobodyReads() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let list = (1...3000).map { "not a domain \($0)" }
        try (list.joined(separator: "\n") + "\n").write(to: folder.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try AuditBinary.path())
        process.arguments = ["--json", "--no-cdn", "--out", "out"]
        process.currentDirectoryURL = folder
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        usleep(2_000_000)
        #expect(process.isRunning, "blocked on its full standard output")
        let sent = Date()
        kill(process.processIdentifier, SIGINT)
        while process.isRunning && Date().timeIntervalSince(sent) < 10 { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        #expect(Date().timeIntervalSince(sent) < 2)
        #expect(process.terminationStatus == 130)
        let report = try JSONReporter.decode(try Data(contentsOf: folder.appendingPathComponent("out/report.json")))
        #expect(report.inputErrors.count > 0)
        #expect(try String(contentsOf: folder.appendingPathComponent("out/report.html"), encoding: .utf8).hasSuffix("</html>\n"))
        try stdout.fileHandleForReading.close()
    }
}
