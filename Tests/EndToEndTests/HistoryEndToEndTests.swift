import Audit
import Foundation
import History
import Testing
import TestSupport

/// The history database through the real binary against the local nginx: nights of a list that
/// change between runs, a one-off check, two runs recording at once, a corrupt file, imports.
@Suite struct HistoryEndToEndTests {
    static func common(_ sites: LocalSites) -> [String] {
        ["--cacert", sites.certificateAuthority.certificatePath, "--no-cdn", "--timeout", "3", "--connect-timeout", "2"] + sites.connectToArguments
    }

    /// Sends good.test to a port nothing listens on (curl takes the first matching --connect-to).
    static func broken(_ sites: LocalSites) -> [String] { ["--connect-to", "good.test:443:127.0.0.1:\(sites.closedPort)"] }

    static func latestReport(in folder: URL) throws -> AuditReport {
        try AuditBinary.readReport(at: folder.appendingPathComponent("reports/latest/report.json"))
    }

    /// Reports store whole seconds: one run per second keeps the nights in order for these checks.
    static func nextSecond() { Thread.sleep(forTimeInterval: 1.05) }

    @Test func nightsThatChangeSayFailingSinceFixedAfterAndTheTimelineShowsIt() throws {
        let sites = try LocalSites.shared.get()
        let folder = try AuditBinary.temporaryDirectory()
        try "good.test\nexpiring.test\nnotfound.test\n".write(to: folder.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        let formats = ["--format", "json,html,md,prom"]
        let first = try AuditBinary.run(formats + Self.common(sites), in: folder)
        #expect(first.status == 1, "\(first.stderr)")
        let firstReport = try Self.latestReport(in: folder)
        let history = try #require(firstReport.history, "the first run has a history too: it starts the streaks")
        #expect(history.earlierListRuns == 0)
        #expect(history.failingSince.map(\.domain) == ["notfound.test"] && history.failingSince.first?.runs == 1)
        #expect(history.expiringCertificates.map(\.domain) == ["expiring.test"])

        var nights = [firstReport.generatedAt]
        for _ in 0..<2 {
            Self.nextSecond()
            let run = try AuditBinary.run(formats + Self.broken(sites) + Self.common(sites), in: folder)
            #expect(run.status == 1, "\(run.stderr)")
            nights.append(try Self.latestReport(in: folder).generatedAt)
        }
        let third = try Self.latestReport(in: folder)
        let failing = try #require(third.history).failingSince
        #expect(failing == [FailingStreak(domain: "notfound.test", since: nights[0], runs: 3),
                            FailingStreak(domain: "good.test", since: nights[1], runs: 2)])
        #expect(try #require(third.history).trend.map(\.fail) == [1, 2, 2])

        // A one-off check in between is recorded as such and breaks no streak.
        Self.nextSecond()
        let oneOff = try AuditBinary.run(Self.common(sites) + ["good.test"], in: folder)
        #expect(oneOff.status == 0, "\(oneOff.stderr)")

        Self.nextSecond()
        let fixedRun = try AuditBinary.run(formats + Self.common(sites), in: folder)
        #expect(fixedRun.status == 1, "\(fixedRun.stderr)")
        #expect(fixedRun.stdout.contains("Fixed: good.test after 2 runs"), "\(fixedRun.stdout)")
        #expect(fixedRun.stdout.contains("Failing: notfound.test since"), "\(fixedRun.stdout)")
        let fourth = try Self.latestReport(in: folder)
        let last = try #require(fourth.history)
        #expect(last.fixed == [FixedDomain(domain: "good.test", afterRuns: 2, verdict: .pass)])
        #expect(last.earlierListRuns == 3, "the one-off check is no night of the list")
        #expect(last.failingSince.first?.runs == 4)

        let latest = folder.appendingPathComponent("reports/latest")
        let markdown = try String(contentsOf: latest.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(markdown.contains("- **good.test**: fixed after 2 failing runs (now pass)"), "\(markdown)")
        #expect(markdown.contains("- **notfound.test**: failing since"), "\(markdown)")
        let html = try String(contentsOf: latest.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(html.contains("<section class=\"box history\" id=\"history\">"))
        #expect(html.contains("<svg") && html.contains("over the last 4 runs of the domain list"))
        #expect(!html.contains("src=\"http") && !html.contains("href=\"http"), "no external asset")

        // The timeline of good.test: pass, fail, fail, the one-off pass, pass.
        let timeline = try AuditBinary.run(["history", "good.test", "--json"], in: folder)
        #expect(timeline.status == 0, "\(timeline.stderr)")
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let runs = try decoder.decode(DomainTimeline.self, from: Data(timeline.stdout.utf8)).runs
        #expect(runs.map(\.verdict) == [.pass, .fail, .fail, .pass, .pass])
        #expect(runs.map(\.kind) == [.list, .list, .list, .oneOff, .list])
        #expect(runs[1].verdictChanged && runs[1].appeared.contains { $0.hasPrefix("network.refused") }, "\(runs[1])")
        #expect(runs[3].wentAway.contains { $0.hasPrefix("network.refused") })
        let text = try AuditBinary.run(["history", "good.test"], in: folder)
        #expect(text.stdout.contains("FAIL  verdict changed") && text.stdout.contains("+ network.refused"), "\(text.stdout)")
        let overview = try AuditBinary.run(["history"], in: folder)
        #expect(overview.stdout.split(separator: "\n").count == 5, "\(overview.stdout)")
        #expect(overview.stdout.contains("one-off check"), "\(overview.stdout)")
        // --since after every run: nothing since then, not "never audited".
        let later = try AuditBinary.run(["history", "good.test", "--since", "2999-01-01"], in: folder)
        #expect(later.stdout.isEmpty && later.stderr == "aasa-audit history: no recorded run since 2999-01-01 00:00:00Z audited good.test\n",
                "\(later.stderr)")
        let laterRuns = try AuditBinary.run(["history", "--since", "2999-01-01"], in: folder)
        #expect(laterRuns.stdout.isEmpty && laterRuns.stderr == "aasa-audit history: no run recorded since 2999-01-01 00:00:00Z in reports/history.sqlite\n",
                "\(laterRuns.stderr)")

        // Importing the reports already recorded adds nothing (same start, shard and domains);
        // into a new file, each once.
        let folders = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("reports").path)
            .filter { $0.hasSuffix("Z") }.map { "reports/\($0)" }
        #expect(folders.count == 5)
        let again = try AuditBinary.run(["history", "import"] + folders, in: folder)
        #expect(again.status == 0 && again.stdout.contains("imported 0 reports; 5 already recorded"), "\(again.stdout)\(again.stderr)")
        for expected in ["imported 5 reports", "imported 0 reports; 5 already recorded"] {
            let imported = try AuditBinary.run(["history", "import", "--history", "copy.sqlite"] + folders, in: folder)
            #expect(imported.status == 0 && imported.stdout.contains(expected), "\(imported.stdout)\(imported.stderr)")
        }
        let copy = try HistoryStore(path: folder.appendingPathComponent("copy.sqlite").path)
        #expect(try copy.overview().count == 5)
        #expect(try copy.timeline(of: "good.test").runs.map(\.verdict) == [.pass, .fail, .fail, .pass, .pass])
    }

    @Test func pruneWithoutAHistoryMakesNone() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let prune = try AuditBinary.run(["history", "prune", "--older-than", "30"], in: folder)
        #expect(prune.status == 0 && prune.stdout == "no history at reports/history.sqlite: nothing to prune\n", "\(prune.stdout)\(prune.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "no reports/ folder, no empty history")
    }

    @Test func aCorruptHistoryIsAWarningAndTheReportsAndStatusStay() throws {
        let sites = try LocalSites.shared.get()
        let folder = try AuditBinary.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("reports"), withIntermediateDirectories: true)
        let garbage = Data((0..<16_384).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 11) })
        try garbage.write(to: folder.appendingPathComponent("reports/history.sqlite"))
        try "good.test\nnotfound.test\n".write(to: folder.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        let run = try AuditBinary.run(Self.common(sites), in: folder)
        #expect(run.status == 1, "the audit's own status: notfound.test fails\n\(run.stderr)")
        #expect(run.stderr.contains("warning: history reports/history.sqlite not read:") && run.stderr.contains("not a database"), "\(run.stderr)")
        #expect(run.stderr.contains("warning: this run was not recorded in the history reports/history.sqlite"), "\(run.stderr)")
        let report = try Self.latestReport(in: folder)
        #expect(report.domains.count == 2 && report.history == nil)
        #expect(try Data(contentsOf: folder.appendingPathComponent("reports/history.sqlite")) == garbage, "the file is left as it was")
        // --no-history: not even a warning.
        let quiet = try AuditBinary.run(Self.common(sites) + ["--no-history", "good.test"], in: folder)
        #expect(quiet.status == 0 && !quiet.stderr.contains("history"), "\(quiet.stderr)")
        // An unwritable place for the history is a warning too.
        let elsewhere = try AuditBinary.run(Self.common(sites) + ["--history", "missing-folder/h.sqlite", "--out", "out", "good.test"], in: folder)
        #expect(elsewhere.status == 0 && elsewhere.stderr.contains("warning: history missing-folder/h.sqlite not read"), "\(elsewhere.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/report.json").path))
        // With --out and no --history nothing is recorded outside the folders given.
        let out = try AuditBinary.run(Self.common(sites) + ["--out", "out2", "good.test"], in: folder)
        #expect(out.status == 0 && !FileManager.default.fileExists(atPath: folder.appendingPathComponent("out2/history.sqlite").path))
    }

    @Test func twoRunsRecordingAtOnceAreBothRecordedAndTheFileIsWhole() throws {
        let sites = try LocalSites.shared.get()
        let folder = try AuditBinary.temporaryDirectory()
        let domains = ["good.test", "wellknown-only.test", "root-only.test", "notfound.test", "expiring.test", "gzip.test"]
        let audits = try ["a", "b"].map { name in
            try RunningAudit(Self.common(sites) + ["--history", "shared.sqlite", "--out", name, "--quiet"] + domains, in: folder)
        }
        let results = audits.map { $0.wait(limit: 60) }
        for result in results {
            #expect(result.outcome.status == 1, "\(result.outcome.stderr)")
            #expect(!result.outcome.stderr.contains("warning"), "\(result.outcome.stderr)")
        }
        let store = try HistoryStore(path: folder.appendingPathComponent("shared.sqlite").path)
        let runs = try store.overview()
        #expect(runs.count == 2 && runs.allSatisfy { $0.kind == .oneOff && $0.domains == domains.count }, "\(runs)")
        let check = try store.withDatabase { database throws(DatabaseError) in try database.rows("PRAGMA integrity_check") { $0.text(0) } }
        #expect(check == ["ok"])
        let results2 = try store.withDatabase { database throws(DatabaseError) in try database.integer("SELECT count(*) FROM result") }
        #expect(results2 == Int64(2 * domains.count))
    }

    @Test func mergeRecordsANightOfTheListAndTheShardsAreNot() throws {
        let sites = try LocalSites.shared.get()
        let folder = try AuditBinary.temporaryDirectory()
        try "good.test\nnotfound.test\nexpiring.test\nwellknown-only.test\n".write(to: folder.appendingPathComponent("domains.txt"),
                                                                                   atomically: true, encoding: .utf8)
        for shard in ["1/2", "2/2"] {
            let run = try AuditBinary.run(Self.common(sites) + ["--shard", shard, "--out", "shard\(shard.prefix(1))", "--history", "h.sqlite"], in: folder)
            #expect([0, 1].contains(run.status), "\(run.stderr)")
        }
        let merge = try AuditBinary.run(["merge", "shard1/report.json", "shard2/report.json", "--out", "merged", "--history", "h.sqlite"], in: folder)
        #expect(merge.status == 1, "\(merge.stderr)")
        let store = try HistoryStore(path: folder.appendingPathComponent("h.sqlite").path)
        let runs = try store.overview()
        // The merged report starts when its first shard did: ordered by start, the merge comes second or third.
        #expect(runs.map(\.origin).sorted { $0.rawValue < $1.rawValue } == [.audit, .audit, .merge])
        #expect(Set(runs.map { $0.shard ?? "" }) == ["1/2", "2/2", ""])
        let merged = try AuditBinary.readReport(at: folder.appendingPathComponent("merged/report.json"))
        #expect(merged.history?.earlierListRuns == 0 && merged.history?.trend.count == 1, "shards are no nights of the list")
    }

    @Test func failOnNewWithoutABaselineAsksTheHistory() throws {
        let sites = try LocalSites.shared.get()
        let folder = try AuditBinary.temporaryDirectory()
        try "good.test\nnotfound.test\n".write(to: folder.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        // --out: no baseline; --history: the history decides.
        let arguments = ["--fail-on", "new", "--out", "out", "--history", "h.sqlite"] + Self.common(sites)
        let first = try AuditBinary.run(arguments, in: folder)
        #expect(first.status == 1, "\(first.stderr)")
        #expect(first.stderr.contains("--fail-on new: there is no baseline and no earlier run of the list in the history h.sqlite"), "\(first.stderr)")
        Self.nextSecond()
        let second = try AuditBinary.run(arguments, in: folder)
        #expect(second.status == 0, "notfound.test failed last night too\n\(second.stderr)")
        #expect(!second.stderr.contains("--fail-on new"), "\(second.stderr)")
        Self.nextSecond()
        let third = try AuditBinary.run(Self.broken(sites) + arguments, in: folder)
        #expect(third.status == 1, "good.test started failing\n\(third.stderr)")
    }
}
