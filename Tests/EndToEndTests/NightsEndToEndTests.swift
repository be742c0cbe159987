import Audit
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import History
import Testing
import TestSupport

/// Issue 33 through the binary and the real nginx: what a nightly job is told and how it ends.
@Suite(.serialized) struct NightsEndToEndTests {
    static func network() throws -> [String] {
        let sites = try LocalSites.shared.get()
        return ["--cacert", sites.certificateAuthority.certificatePath, "--timeout", "3", "--connect-timeout", "2", "--no-cdn"]
            + sites.connectToArguments
    }

    /// `--fail-on expiring`: expiring.test's certificate ends in 5 days (and an hour), inside the
    /// default 30-day warning but outside a 5-day one; a warning the audit alone lets pass.
    @Test func failOnExpiringMailsACertificateNearItsEnd() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let base = try Self.network() + ["--out", "out", "--quiet"]
        let plain = try AuditBinary.run(base + ["good.test", "expiring.test"], in: folder)
        #expect(plain.status == 0, "a warning alone passes: \(plain.stderr)")

        let near = try AuditBinary.run(base + ["--fail-on", "expiring", "good.test", "expiring.test"], in: folder)
        #expect(near.status == 1, "\(near.stderr)")
        let lines = near.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 1 && lines[0].hasPrefix("aasa-audit: FAIL expiring.test: certificate 5 days left, ends "), "\(lines)")
        #expect(lines.allSatisfy { $0.hasSuffix("(--fail-on expiring)") })

        let far = try AuditBinary.run(base + ["--fail-on", "expiring", "--expiry-warning-days", "5", "good.test", "expiring.test"], in: folder)
        #expect(far.status == 0 && far.stderr.isEmpty, "5 days and an hour left is not within 5: \(far.stderr)")
        let none = try AuditBinary.run(base + ["--fail-on", "new,expiring", "good.test"], in: folder)
        #expect(none.status == 0, "\(none.stderr)")
    }

    /// `--quiet`: a note on the run says `note:`, so the FAIL lines can be kept apart.
    @Test func quietNotesSayNote() throws {
        let folder = try AuditBinary.temporaryDirectory()
        try "good.test\nnotfound.test\n".write(to: folder.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        let outcome = try AuditBinary.run(try Self.network() + ["--quiet", "--fail-on", "new", "--no-history"], in: folder)
        #expect(outcome.status == 1, "\(outcome.stderr)")
        let lines = outcome.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("aasa-audit: note: --fail-on new: there is no baseline") }, "\(lines)")
        #expect(lines.allSatisfy { $0.hasPrefix("aasa-audit: note: ") || $0.hasPrefix("aasa-audit: FAIL ") }, "\(lines)")
    }

    // MARK: One run at a time per reports folder

    /// A lock held on `folder` (made if needed) by this process, as another run holds it; let go by `close`.
    static func holdLock(_ folder: URL) throws -> Int32 {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let fd = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        #expect(fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0)
        return fd
    }

    @Test func aSecondRunSaysWhoHoldsTheFolderAndDoesNothing() throws {
        let folder = try AuditBinary.temporaryDirectory()
        try "good.test\n".write(to: folder.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        let reports = folder.appendingPathComponent("reports")
        let fd = try Self.holdLock(reports)
        defer { close(fd) }
        let refused = try AuditBinary.run(try Self.network() + ["--quiet"], in: folder)
        #expect(refused.status == 2)
        // The kernel names the holder: this test's process, on this host, with its start.
        #expect(refused.stderr.hasPrefix("aasa-audit: another run writes to reports (process \(getpid()) on "), "\(refused.stderr)")
        #expect(refused.stderr.hasSuffix("Z): nothing was audited or written; one run at a time per reports folder (--wait SECONDS waits for it)\n"),
                "\(refused.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: reports.path) == [], "nothing written, no history")

        let waited = try AuditBinary.run(try Self.network() + ["--quiet", "--wait", "1"], in: folder)
        #expect(waited.status == 2 && waited.stderr.contains("and did not end within 1 s (--wait)"), "\(waited.stderr)")
    }

    /// Two nights started together: the second finds the first holding the folder (a host that
    /// hangs keeps it 2 s) and does nothing, so there is one run folder and one history run.
    @Test func twoRunsStartedTogetherMakeOneRun() throws {
        let sites = try HostileSites.shared.get()
        let folder = try AuditBinary.temporaryDirectory()
        try "\(HostileSites.nul)\n\(HostileSites.hang)\n".write(to: folder.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        let arguments = ["--no-cdn", "--cacert", sites.certificateAuthority.certificatePath, "--timeout", "2", "--connect-timeout", "2",
                         "--quiet"] + sites.connectToArguments
        let runs = try (0..<2).map { _ in try RunningAudit(arguments, in: folder) }
        let outcomes = runs.map { $0.wait(limit: 60).outcome }
        #expect(outcomes.map(\.status).sorted() == [1, 2], "\(outcomes.map(\.stderr))")
        #expect(outcomes.contains { $0.status == 2 && $0.stderr.contains("another run writes to reports (process ") })
        let reports = folder.appendingPathComponent("reports")
        let names = try FileManager.default.contentsOfDirectory(atPath: reports.path)
        #expect(names.filter { $0.first?.isNumber == true }.count == 1, "\(names)")
        let history = try HistoryStore(path: reports.appendingPathComponent("history.sqlite").path).overview()
        #expect(history.count == 1, "\(history)")
    }

    /// Two nights started together with `--wait`: one waits for the other, so each is one run folder
    /// and one history run, and `latest` ends on the run that started last.
    @Test func twoRunsStartedTogetherWithWaitTakeTurns() throws {
        let folder = try AuditBinary.temporaryDirectory()
        try "good.test\nnotfound.test\n".write(to: folder.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        let arguments = try Self.network() + ["--quiet", "--wait", "120"]
        let runs = try (0..<2).map { _ in try RunningAudit(arguments, in: folder) }
        let outcomes = runs.map { $0.wait(limit: 120).outcome }
        for outcome in outcomes { #expect(outcome.status == 1, "\(outcome.stderr)") }
        let reports = folder.appendingPathComponent("reports")
        let names = try FileManager.default.contentsOfDirectory(atPath: reports.path)
        let folders = names.filter { $0.first?.isNumber == true }.sorted { ($0.count, $0) < ($1.count, $1) }
        #expect(folders.count == 2, "\(names)")
        #expect(names.allSatisfy { !$0.hasPrefix(".") }, "nothing of the lock is left in the folder: \(names)")
        let latest = try FileManager.default.destinationOfSymbolicLink(atPath: reports.appendingPathComponent("latest").path)
        #expect(URL(fileURLWithPath: latest).lastPathComponent == folders.max { ($0.prefix(16), $0.count, $0) < ($1.prefix(16), $1.count, $1) })
        let history = try HistoryStore(path: reports.appendingPathComponent("history.sqlite").path).overview()
        #expect(history.count == 2, "\(history)")
    }

    /// A merge repeated on the same shards (a Job retried after exit 1) is one night in the history.
    @Test func aRepeatedMergeIsOneHistoryRun() throws {
        let folder = try AuditBinary.temporaryDirectory()
        try "good.test\nnotfound.test\nexpiring.test\n".write(to: folder.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        for k in 1...2 {
            let shard = try AuditBinary.run(try Self.network() + ["--quiet", "--no-history", "--shard", "\(k)/2", "--out", "shard\(k)"], in: folder)
            #expect([0, 1].contains(shard.status), "\(shard.stderr)")
        }
        let reports = folder.appendingPathComponent("reports")
        let fd = try Self.holdLock(reports)
        let refused = try AuditBinary.run(["merge", "--quiet", "shard1/report.json", "shard2/report.json"], in: folder)
        close(fd)
        #expect(refused.status == 2 && refused.stderr.contains("another run writes to reports (process \(getpid()) on "), "\(refused.stderr)")
        for _ in 0..<2 {
            let merge = try AuditBinary.run(["merge", "--quiet", "shard1/report.json", "shard2/report.json"], in: folder)
            #expect(merge.status == 1, "\(merge.stderr)")
        }
        let history = try HistoryStore(path: folder.appendingPathComponent("reports/history.sqlite").path).overview()
        #expect(history.count == 1 && history.first?.origin == .merge, "\(history)")
    }

    // MARK: The Kubernetes recipe as PID 1

    /// The shard container's script of docs/scaling.md, as written there (its `args: - |` block).
    static func recipeScript() throws -> String {
        let doc = try String(contentsOf: CommandOptionLists.root.appendingPathComponent("docs/scaling.md"), encoding: .utf8)
        let lines = doc.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let container = try #require(lines.firstIndex(of: "        - name: audit"), "the shard container")
        let start = try #require(lines[container...].firstIndex(of: "            - |"), "its args block")
        let indent = String(repeating: " ", count: 14)
        let body = lines[(start + 1)...].prefix { $0.hasPrefix(indent) }.map { String($0.dropFirst(indent.count)) }
        #expect(body.count >= 5, "\(body)")
        return body.joined(separator: "\n") + "\n"
    }

    /// The recipe's own command line, as PID 1 of a PID namespace (as in a pod: sh is PID 1), gets
    /// SIGTERM mid-run: the tool gets it, writes the shard's partial report marked incomplete and
    /// ends with 143, which the script hands on. Only the paths, the binary's path and the loopback
    /// network options are put in (and --shard k/1 for k/8, so that this shard has every host).
    @Test func theRecipeAsPIDOneKeepsItsPartialReportOnSIGTERM() throws {
        let sites = try HostileSites.shared.get()
        let folder = try AuditBinary.temporaryDirectory()
        let hosts = [HostileSites.absurdCertificate, HostileSites.badUTF8, HostileSites.nul, HostileSites.hang, HostileSites.drip]
        try (hosts.joined(separator: "\n") + "\n").write(to: folder.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        let network = (["--no-cdn", "--cacert", sites.certificateAuthority.certificatePath, "--timeout", "30", "--connect-timeout", "30"]
            + sites.connectToArguments).map { "'\($0)'" }.joined(separator: " ")
        let recipe = try Self.recipeScript()
        #expect(recipe.contains("\naasa-audit --domains /config/domains.txt --shard $k/8 "), "\(recipe)")
        let script = recipe
            .replacingOccurrences(of: "/config/domains.txt", with: folder.appendingPathComponent("domains.txt").path)
            .replacingOccurrences(of: "/reports/run", with: folder.appendingPathComponent("run").path)
            .replacingOccurrences(of: "--shard $k/8", with: "--shard $k/1")
            .replacingOccurrences(of: "\naasa-audit ", with: "\n'\(try AuditBinary.path())' \(network) ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = ["--pid", "--fork", "--mount-proc", "/bin/sh", "-c", script]
        process.environment = ["JOB_COMPLETION_INDEX": "0", "PATH": "/usr/bin:/bin"]
        process.currentDirectoryURL = folder
        let errors = folder.appendingPathComponent("stderr")
        FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: errors)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        usleep(4_000_000)
        // PID 1 of the namespace: unshare's child, the sh running the script.
        let children = try String(contentsOfFile: "/proc/\(process.processIdentifier)/task/\(process.processIdentifier)/children", encoding: .utf8)
        let shell = try #require(children.split(separator: " ").first.flatMap { Int32($0) }, "unshare forked no child: \(children)")
        #expect(kill(shell, SIGTERM) == 0)
        let waited = Date()
        while process.isRunning && Date().timeIntervalSince(waited) < 20 { usleep(50_000) }
        #expect(!process.isRunning, "SIGTERM reached no one")
        let stderr = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        #expect(process.terminationStatus == 143, "\(stderr)")
        let report = try AuditBinary.readReport(at: folder.appendingPathComponent("run/shard-1/report.json"))
        #expect(!report.complete, "marked incomplete")
        #expect(Set(report.notAudited ?? []).isSuperset(of: [HostileSites.hang, HostileSites.drip]), "\(report.notAudited ?? [])")
        #expect(report.domains.count + (report.notAudited ?? []).count == hosts.count)
    }
}
