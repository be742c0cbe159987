import Audit
import Foundation
import History
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The third red-team round, end to end through the real binary: crafted history databases, tiny
/// binary property lists that expand, an `.ipa` of many members.
@Suite(.serialized) struct HostileRoundThreeTests {
    static let app = "ABQ7KM3X2P.com.exemplo.app"

    static func auditArguments(_ sites: LocalSites, _ extra: [String]) -> [String] {
        ["good.test", "--cacert", sites.certificateAuthority.certificatePath, "--no-cdn", "--timeout", "3", "--connect-timeout", "2"]
            + sites.connectToArguments + extra
    }

    /// A history this tool made, then changed by `sql` on a connection of the test's own.
    static func craftedHistory(in folder: URL, _ sql: String) throws -> String {
        let path = folder.appendingPathComponent("history.sqlite").path
        try HistoryStore(path: path).withDatabase { database throws(DatabaseError) in try database.execute(sql) }
        return path
    }

    static let endless = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c"

    /// The red team's two: a trigger that never ends after each run inserted, and `run` replaced by
    /// an endless view. Each costs a warning; the reports are written and the run ends.
    @Test(arguments: [
        "CREATE TRIGGER again AFTER INSERT ON run BEGIN SELECT count(*) FROM (\(endless)); END",
        "PRAGMA foreign_keys = OFF; DROP TABLE run; CREATE VIEW run AS SELECT x AS id, x AS generated_at, 'list' AS kind, '' AS shard FROM (\(endless))",
    ])
    func aCraftedHistoryCostsAWarningNotTheRun(_ sql: String) throws {
        let sites = try LocalSites.shared.get()
        let folder = try AuditBinary.temporaryDirectory()
        let history = try Self.craftedHistory(in: folder, sql)
        let result = try RunningAudit.measure(Self.auditArguments(sites, ["--out", "out", "--history", history]), in: folder, limit: 60)
        #expect(result.outcome.status == 0, "\(result.outcome.stderr)")
        #expect(result.outcome.stderr.contains("warning: history \(history) not read:"), "\(result.outcome.stderr)")
        #expect(result.outcome.stderr.contains("its schema is not the one aasa-audit makes at version 1"), "\(result.outcome.stderr)")
        #expect(result.outcome.stderr.contains("this run was not recorded in the history"), "\(result.outcome.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/report.json").path))
        #expect(result.outcome.seconds < 30, "took \(result.outcome.seconds) s")
        // The history command says the same, and exits.
        let show = try AuditBinary.run(["history", "--history", history], in: folder)
        #expect(show.status == 2 && show.stderr.contains("its schema is not the one aasa-audit makes"), "\(show.stderr)")
    }

    /// SIGTERM while the run waits for a history another process holds locked: the reports are
    /// already written, and the run ends with 143 at once, not after the busy timeout.
    @Test func sigtermWhileWaitingForALockedHistoryEndsWith143() throws {
        let sites = try LocalSites.shared.get()
        let folder = try AuditBinary.temporaryDirectory()
        let history = folder.appendingPathComponent("history.sqlite").path
        let holder = try HistoryStore(path: history)
        try holder.withDatabase { database throws(DatabaseError) in try database.execute("BEGIN EXCLUSIVE") }
        let audit = try RunningAudit(Self.auditArguments(sites, ["--out", "out", "--history", history]), in: folder)
        let report = folder.appendingPathComponent("out/report.json").path
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: report) && Date() < deadline { usleep(20_000) }
        #expect(FileManager.default.fileExists(atPath: report), "the reports come before the history's record")
        usleep(200_000)
        let sent = Date()
        try audit.send(SIGTERM)
        let result = audit.wait(limit: 30)
        let after = Date().timeIntervalSince(sent)
        #expect(result.outcome.status == 143, "\(result.outcome.stderr)")
        #expect(after < 3, "ended \(after) s after SIGTERM (the busy timeout is 10 s)")
        #expect(result.outcome.stderr.contains("this run was not recorded in the history"), "\(result.outcome.stderr)")
        try holder.withDatabase { database throws(DatabaseError) in try database.execute("ROLLBACK") }
    }

    /// An .ipa whose Info.plist is a few hundred bytes of shared references (N³ strings): refused
    /// with a reason, within bounded memory.
    @Test(arguments: [130, 240, 355])
    func anIPAWhoseInfoPlistExpandsIsRefusedInBoundedMemory(_ count: Int) throws {
        let folder = try AuditBinary.temporaryDirectory()
        let plist = SharedReferencePropertyList.nested(count: count)
        #expect(plist.count < 1200)
        let executable = MachOImage.thin(entitlements: MachOImage.entitlementsPropertyList(applicationIdentifier: Self.app)).bytes
        try ZipArchiveWriter.write([.init("Payload/"), .init("Payload/App.app/"), .init("Payload/App.app/Info.plist", plist),
                                    .init("Payload/App.app/App", executable)], to: folder.appendingPathComponent("App.ipa"))
        let result = try RunningAudit.measure(["--entitlements", "App.ipa", "--out", "out"], in: folder, limit: 60)
        #expect(result.outcome.status == 2, "\(result.outcome.stderr)")
        #expect(result.outcome.stderr.contains("Payload/App.app/Info.plist): is a binary property list of \(plist.count) bytes whose shared references"),
                "\(result.outcome.stderr)")
        #expect(result.peakKilobytes > 0 && result.peakKilobytes < 100_000, "peak \(result.peakKilobytes) KB")
    }

    /// The same as an .entitlements file, and as the content of the embedded profile (a finding of
    /// the app; its own entitlements are still read and its domain audited).
    @Test func anEntitlementsFileAndAProfileThatExpandAreRefusedInBoundedMemory() throws {
        let sites = try LocalSites.shared.get()
        let folder = try AuditBinary.temporaryDirectory()
        let plist = SharedReferencePropertyList.nested(count: 355, key: "com.apple.developer.associated-domains")
        try plist.write(to: folder.appendingPathComponent("App.entitlements"))
        let file = try RunningAudit.measure(["--entitlements", "App.entitlements", "--out", "file"], in: folder, limit: 60)
        #expect(file.outcome.status == 2 && file.outcome.stderr.contains("whose shared references decode to more than"), "\(file.outcome.stderr)")
        #expect(file.peakKilobytes > 0 && file.peakKilobytes < 100_000, "peak \(file.peakKilobytes) KB")

        let authority = try TestCertificateAuthority(directory: folder.appendingPathComponent("ca"))
        let profile = try authority.signCMS(bytes: SharedReferencePropertyList.nested(count: 355, key: "Entitlements"),
                                            signer: try authority.selfSigned(name: "Apple Development: Test (ABQ7KM3X2P)"))
        let entitlements = MachOImage.entitlementsPropertyList(applicationIdentifier: Self.app, teamIdentifier: "ABQ7KM3X2P",
                                                               associatedDomains: ["applinks:good.test"])
        try AppBundleFixture(executable: MachOImage.thin(entitlements: entitlements).bytes, profile: profile)
            .writeIPA(to: folder.appendingPathComponent("App.ipa"))
        let ipa = try RunningAudit.measure(["--entitlements", "App.ipa", "--cacert", sites.certificateAuthority.certificatePath, "--no-cdn",
                                            "--timeout", "3", "--connect-timeout", "2", "--out", "ipa"] + sites.connectToArguments,
                                           in: folder, limit: 60)
        #expect(ipa.peakKilobytes > 0 && ipa.peakKilobytes < 100_000, "peak \(ipa.peakKilobytes) KB")
        let report = try AuditBinary.readReport(at: folder.appendingPathComponent("ipa/report.json"))
        let section = try #require(report.apps?.first, "\(ipa.outcome.stderr)")
        #expect(section.appID == Self.app && report.domains.map(\.domain) == ["good.test"])
        #expect(section.findings.contains { $0.message.contains("embedded.mobileprovision: is a binary property list of") }, "\(section.findings)")
    }

    /// 100,000 members: the error lists a few and counts the rest. How long the read takes (27-30 s
    /// when it was quadratic) is `make bench-inputs`' `ipa-100000` case, not checked here.
    @Test func anIPAOfAHundredThousandMembersIsRead() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let ipa = folder.appendingPathComponent("Many.ipa")
        try ZipArchiveWriter.write([.init("Payload/")] + (0..<100_000).map { .init("Payload/f\($0)", stored: true) }, to: ipa)
        let result = try RunningAudit.measure(["--entitlements", "Many.ipa", "--out", "out"], in: folder, limit: 60)
        #expect(result.outcome.status == 2, "\(result.outcome.stderr)")
        #expect(result.outcome.stderr.contains("holds no Payload/NAME.app/ folder (Payload/ holds f0, f1, f2, f3, f4 and 99995 more)"),
                "\(result.outcome.stderr)")
    }

    /// An OpenStep Info.plist: the tool's own error, and nothing from Foundation's parser on stderr.
    @Test func anOpenStepInfoPlistIsOneLineOfOurs() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let app = folder.appendingPathComponent("O.app")
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        try Data(#"{ CFBundleExecutable = "App"; CFBundleIdentifier = "com.exemplo.app" }"#.utf8).write(to: app.appendingPathComponent("Info.plist"))
        let outcome = try AuditBinary.run(["--entitlements", "O.app", "--out", "out"], in: folder)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("Info.plist): is an OpenStep (old-style text) property list"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("CFPropertyList") && !outcome.stderr.contains("Old-style plist parser"), "\(outcome.stderr)")
    }

    /// Ctrl-C while a 100,000-member .ipa is read ends the run (how soon: `make bench-inputs`).
    @Test func ctrlCDuringALargeIPAEndsTheRunAtOnce() throws {
        let sites = try LocalSites.shared.get()
        let folder = try AuditBinary.temporaryDirectory()
        let entitlements = MachOImage.entitlementsPropertyList(applicationIdentifier: Self.app, teamIdentifier: "ABQ7KM3X2P",
                                                               associatedDomains: ["applinks:good.test"])
        try AppBundleFixture(executable: MachOImage.thin(entitlements: entitlements).bytes)
            .writeIPA(to: folder.appendingPathComponent("Big.ipa"),
                      extra: (0..<100_000).map { .init("Payload/App.app/Resources/r\($0)", stored: true) })
        let fifo = folder.appendingPathComponent("domains.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let audit = try RunningAudit(["--domains", "domains.fifo", "--entitlements", "Big.ipa", "--cacert", sites.certificateAuthority.certificatePath,
                                      "--no-cdn", "--timeout", "3", "--connect-timeout", "2", "--out", "out"] + sites.connectToArguments, in: folder)
        // The app is read before the domain list (an unreadable one ends the run first), and the
        // pipe is never written: the run cannot end by itself, so the signal lands in the app's read
        // (or, on a fast machine, in the wait for the list after it) and must end the run.
        usleep(100_000)
        #expect(audit.isRunning, "the run ended by itself")
        try audit.send(SIGINT)
        let result = audit.wait(limit: 30)
        #expect(result.outcome.status == 130, "\(result.outcome.stderr)")
        #expect(result.outcome.stderr.contains("stopped by SIGINT"), "\(result.outcome.stderr)")
    }
}
