import AASA
import Audit
import Foundation
import History
import Testing
import TestSupport

/// The history database on a real SQLite file in a temporary folder: recording, the insights a
/// report gains, one-off checks, imports once, timelines, prune, schema version, a corrupt file.
@Suite struct HistoryStoreTests {
    static let day = 86_400.0
    static let start = Date(timeIntervalSince1970: 1_790_000_000)

    static func file() throws -> String {
        try AuditBinary.temporaryDirectory().appendingPathComponent("history.sqlite").path
    }

    /// A location of `path` with a certificate expiring at `notAfter` from `issuer`.
    static func location(_ path: String, verdict: Verdict, findings: [Finding] = [], notAfter: Date?, issuer: String = "Test CA") -> LocationResult {
        LocationResult(path: path, url: "https://x\(path)", verdict: verdict, httpStatus: 200, contentType: "application/json",
                       headers: [], bytes: BodySize(), redirect: nil,
                       tls: TLSConnection(version: "TLSv1.3", certificate: ServerCertificate(subject: "CN=x", issuer: issuer, subjectAltNames: [],
                                                                                              notBefore: nil, notAfter: notAfter)),
                       timings: TransferTimings(totalMs: 12.5), error: nil, body: nil, findings: findings)
    }

    /// A run `night` days after `start` with each domain's verdict; a fail carries a finding at the well-known location.
    static func report(night: Int, _ verdicts: [String: Verdict], notAfter: Date? = nil, shard: Shard? = nil) -> AuditReport {
        let at = start.addingTimeInterval(Double(night) * day)
        let domains = verdicts.keys.sorted().map { name -> DomainResult in
            let verdict = verdicts[name] ?? .pass
            let findings = verdict == .fail ? [Finding(id: "http.status", severity: .error, message: "404")]
                : verdict == .warn ? [Finding(id: "http.content-type", severity: .warning, message: "text/plain")] : []
            return DomainResult(domain: name, verdict: verdict, usedLocation: AASAFile.wellKnownPath, findings: [],
                                locations: [location(AASAFile.wellKnownPath, verdict: verdict, findings: findings, notAfter: notAfter)])
        }
        var report = AuditReport(tool: ToolInfo(name: "aasa-audit", version: "test"), generatedAt: at, domains: domains)
        report.shard = shard
        return report
    }

    /// A merge takes its start from its shards: the same night merged again (a retried Job) replaces
    /// the merge recorded before; audits of the same second do not.
    @Test func aMergeOfTheSameNightIsRecordedOnce() throws {
        let store = try HistoryStore(path: try Self.file())
        var partial = Self.report(night: 0, ["a.test": .pass, "b.test": .fail])
        partial.complete = false
        try store.record(RunRecord(report: partial, kind: .list, origin: .merge))
        try store.record(RunRecord(report: Self.report(night: 0, ["a.test": .pass, "b.test": .fail]), kind: .list, origin: .merge))
        try store.record(RunRecord(report: Self.report(night: 0, ["a.test": .pass, "b.test": .fail]), kind: .list, origin: .merge))
        let runs = try store.overview()
        #expect(runs.count == 1, "\(runs)")
        #expect(runs.first?.complete == true, "the last merge of the night is the one kept")
        try store.record(RunRecord(report: Self.report(night: 1, ["a.test": .pass]), kind: .list, origin: .audit))
        try store.record(RunRecord(report: Self.report(night: 1, ["a.test": .pass]), kind: .list, origin: .audit))
        #expect(try store.overview().count == 3, "two audits started in one second are two runs")
    }

    @Test func aFailingDomainSaysSinceWhenAndAFixedOneAfterHowManyRuns() throws {
        let store = try HistoryStore(path: try Self.file())
        try store.record(RunRecord(report: Self.report(night: 0, ["a.test": .pass, "b.test": .fail]), kind: .list, origin: .audit))
        try store.record(RunRecord(report: Self.report(night: 1, ["a.test": .fail, "b.test": .fail]), kind: .list, origin: .audit))
        try store.record(RunRecord(report: Self.report(night: 2, ["a.test": .fail, "b.test": .fail]), kind: .list, origin: .audit))
        // A one-off check and a single shard in between are not nights of the list: they break no streak.
        try store.record(RunRecord(report: Self.report(night: 2, ["a.test": .pass]).shifted(by: 60), kind: .oneOff, origin: .audit))
        try store.record(RunRecord(report: Self.report(night: 2, ["b.test": .pass], shard: Shard(index: 1, count: 2)).shifted(by: 120),
                                   kind: .list, origin: .audit))

        let tonight = RunRecord(report: Self.report(night: 3, ["a.test": .fail, "b.test": .warn]), kind: .list, origin: .audit)
        let history = try store.insights(for: tonight)
        #expect(history.earlierListRuns == 3)
        #expect(history.failingSince == [FailingStreak(domain: "a.test", since: Self.start.addingTimeInterval(Self.day), runs: 3)])
        #expect(history.fixed == [FixedDomain(domain: "b.test", afterRuns: 3, verdict: .warn)])
        #expect(history.trend.map(\.fail) == [1, 2, 2, 1], "three earlier nights and this one, oldest first")
        #expect(history.flapping.isEmpty)
    }

    @Test func aDomainWhoseVerdictChangedThreeTimesInFourteenRunsIsFlapping() throws {
        let store = try HistoryStore(path: try Self.file())
        let sequence: [Verdict] = [.pass, .pass, .fail, .pass, .pass]
        for (night, verdict) in sequence.enumerated() {
            try store.record(RunRecord(report: Self.report(night: night, ["flap.test": verdict, "steady.test": .pass]), kind: .list, origin: .audit))
        }
        // Two changes so far; this run's fail is the third.
        let tonight = RunRecord(report: Self.report(night: 5, ["flap.test": .fail, "steady.test": .pass]), kind: .list, origin: .audit)
        let history = try store.insights(for: tonight)
        #expect(history.flapping == [FlappingDomain(domain: "flap.test", changes: 3, verdicts: sequence + [.fail])])
        // The same run as a one-off check is no run of the list: two changes, not flapping.
        let oneOff = RunRecord(report: Self.report(night: 5, ["flap.test": .fail]), kind: .oneOff, origin: .audit)
        #expect(try store.insights(for: oneOff).flapping.isEmpty)
        #expect(try store.insights(for: oneOff).trend.count == 5, "the trend holds the list's runs only")
    }

    @Test func certificatesExpiringWithinThirtyDaysAreListedSoonestFirst() throws {
        let store = try HistoryStore(path: try Self.file())
        var report = Self.report(night: 0, ["late.test": .pass, "soon.test": .pass, "sooner.test": .pass])
        let now = report.generatedAt
        for (index, days) in [40.0, 20.0, 3.0].enumerated() {
            report.domains[index].locations[0].tls?.certificate?.notAfter = now.addingTimeInterval(days * Self.day + 60)
            report.domains[index].locations[0].tls?.certificate?.daysLeft = nil
        }
        report = AuditReport(tool: report.tool, generatedAt: now, domains: report.domains)
        let history = try store.insights(for: RunRecord(report: report, kind: .list, origin: .audit))
        #expect(history.expiringCertificates.map(\.domain) == ["sooner.test", "soon.test"])
        #expect(history.expiringCertificates.map(\.daysLeft) == [3, 20])
        #expect(history.expiringCertificates.first?.issuer == "Test CA")
    }

    /// The run's `--expiry-warning-days` (recorded in the report) decides, not a fixed 30; an expired
    /// certificate is listed as expired and never among those expiring (it was, under "expiring within 30 days").
    @Test func theRunsThresholdDecidesAndAnExpiredCertificateIsNeverExpiring() throws {
        let store = try HistoryStore(path: try Self.file())
        var report = Self.report(night: 0, ["late.test": .pass, "edge.test": .pass, "gone.test": .pass, "far.test": .pass])
        let now = report.generatedAt
        // In name order: edge, far, gone, late.
        for (index, days) in [50.0, 80.0, -2.0, 40.0].enumerated() {
            report.domains[index].locations[0].tls?.certificate?.notAfter = now.addingTimeInterval(days * Self.day + 60)
            report.domains[index].locations[0].tls?.certificate?.daysLeft = nil
        }
        report = AuditReport(tool: report.tool, generatedAt: now, domains: report.domains)
        report.expiryWarningDays = 50
        let history = try store.insights(for: RunRecord(report: report, kind: .list, origin: .audit))
        #expect(history.expiryWarningDays == 50)
        #expect(history.expiredCertificates.map(\.domain) == ["gone.test"])
        // 40 days left is within 50; exactly 50 is not (the certificate check warns below the threshold).
        #expect(history.soonExpiringCertificates.map(\.domain) == ["late.test"])
        #expect(history.expiringCertificates.map(\.expiry) == [.expired, .expiringSoon])
    }

    @Test func importingTheSameReportTwiceAddsNothingButTwoLiveRunsInOneSecondAreTwo() throws {
        let store = try HistoryStore(path: try Self.file())
        let report = Self.report(night: 0, ["a.test": .pass, "b.test": .fail])
        #expect(try store.record(RunRecord(report: report, kind: .list, origin: .import)))
        #expect(try !store.record(RunRecord(report: report, kind: .list, origin: .import)))
        #expect(try store.overview().count == 1)
        // Another set of domains at the same second is another run.
        #expect(try store.record(RunRecord(report: Self.report(night: 0, ["c.test": .pass]), kind: .list, origin: .import)))
        #expect(try store.record(RunRecord(report: report, kind: .list, origin: .audit)), "a live run is never dropped")
        #expect(try store.overview().count == 3)
        let rows = try store.withDatabase { database throws(DatabaseError) in try database.integer("SELECT count(*) FROM result") }
        #expect(rows == 5)
    }

    @Test func aTimelineNamesVerdictFindingAndCertificateChanges() throws {
        let store = try HistoryStore(path: try Self.file())
        let expiry = Self.start.addingTimeInterval(90 * Self.day)
        try store.record(RunRecord(report: Self.report(night: 0, ["a.test": .pass], notAfter: expiry), kind: .list, origin: .audit))
        try store.record(RunRecord(report: Self.report(night: 1, ["a.test": .fail], notAfter: expiry), kind: .list, origin: .audit))
        try store.record(RunRecord(report: Self.report(night: 2, ["a.test": .pass], notAfter: expiry.addingTimeInterval(90 * Self.day)),
                                   kind: .list, origin: .audit))
        let timeline = try store.timeline(of: "a.test")
        #expect(timeline.runs.map(\.verdict) == [.pass, .fail, .pass])
        #expect(timeline.runs.map(\.verdictChanged) == [false, true, true])
        #expect(timeline.runs[1].appeared == ["http.status at /.well-known/apple-app-site-association"])
        #expect(timeline.runs[2].wentAway == ["http.status at /.well-known/apple-app-site-association"])
        #expect(timeline.runs.map(\.certificateChanged) == [false, false, true])
        // --since: the run before it is read, so the first change shown is real.
        let since = try store.timeline(of: "a.test", since: Self.start.addingTimeInterval(Self.day))
        #expect(since.runs.count == 2 && since.runs[0].verdictChanged && since.runs[0].appeared.count == 1)
        #expect(try store.timeline(of: "nobody.test").runs.isEmpty)
    }

    @Test func pruneDeletesOldRunsWithTheirResultsAndFindings() throws {
        let store = try HistoryStore(path: try Self.file())
        for night in 0..<5 {
            try store.record(RunRecord(report: Self.report(night: night, ["a.test": .fail]), kind: .list, origin: .audit))
        }
        let deleted = try store.prune(olderThanDays: 2, now: Self.start.addingTimeInterval(4 * Self.day - 10))
        #expect(deleted == 2)
        #expect(try store.overview().count == 3)
        let left = try store.withDatabase { database throws(DatabaseError) in
            (try database.integer("SELECT count(*) FROM result"), try database.integer("SELECT count(*) FROM finding"))
        }
        #expect(left.0 == 3 && left.1 == 3)
    }

    @Test func aNewFileGetsTheSchemaVersionInWALModeAndANewerOneIsLeftAlone() throws {
        let path = try Self.file()
        let store = try HistoryStore(path: path)
        #expect(try store.schemaVersion() == 1)
        let mode = try store.withDatabase { database throws(DatabaseError) in try database.rows("PRAGMA journal_mode") { $0.text(0) } }
        #expect(mode == ["wal"])
        try store.withDatabase { database throws(DatabaseError) in try database.execute("PRAGMA user_version = 99") }
        #expect(throws: DatabaseError.self) { try HistoryStore(path: path) }
    }

    @Test func garbageBytesAreAnErrorNamingTheFile() throws {
        let path = try Self.file()
        try Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }).write(to: URL(fileURLWithPath: path))
        do {
            _ = try HistoryStore(path: path)
            Issue.record("garbage opened as a history")
        } catch {
            #expect(error.message.contains("not a database"), "\(error)")
            #expect(error.description.contains(path))
        }
    }
}

extension AuditReport {
    /// The same report started `seconds` later.
    func shifted(by seconds: Double) -> AuditReport {
        var report = AuditReport(tool: tool, generatedAt: generatedAt.addingTimeInterval(seconds), domains: domains)
        report.shard = shard
        return report
    }
}

/// `--fail-on new` without a baseline: the history decides what is new.
@Suite struct FailOnNewByHistoryTests {
    @Test func aDomainStillFailingIsNotNewAndOneThatStartedFailingIs() throws {
        let store = try HistoryStore(path: try HistoryStoreTests.file())
        try store.record(RunRecord(report: HistoryStoreTests.report(night: 0, ["a.test": .fail, "b.test": .pass]), kind: .list, origin: .audit))
        var tonight = HistoryStoreTests.report(night: 1, ["a.test": .fail, "b.test": .fail, "c.test": .fail])
        tonight.history = try store.insights(for: RunRecord(report: tonight, kind: .list, origin: .audit))
        let policy = ExitPolicy(failOn: .new)
        #expect(policy.failingDomains(in: tonight).map(\.domain) == ["b.test", "c.test"], "a.test failed last night too")
        #expect(policy.status(for: tonight) == .domainFailed)
        var onlyOld = HistoryStoreTests.report(night: 1, ["a.test": .fail, "b.test": .pass])
        onlyOld.history = try store.insights(for: RunRecord(report: onlyOld, kind: .list, origin: .audit))
        #expect(policy.status(for: onlyOld) == .success)
        #expect(ExitPolicy(failOn: .any).status(for: onlyOld) == .domainFailed)
        // No earlier run of the list: every failing domain, as with any.
        var first = HistoryStoreTests.report(night: 0, ["a.test": .fail])
        first.history = ReportHistory(earlierListRuns: 0, failingSince: [FailingStreak(domain: "a.test", since: first.generatedAt, runs: 1)])
        #expect(policy.failingDomains(in: first).map(\.domain) == ["a.test"])
        first.history?.earlierListRuns = 0
        first.history?.failingSince = [FailingStreak(domain: "a.test", since: first.generatedAt, runs: 3)]
        #expect(policy.failingDomains(in: first).map(\.domain) == ["a.test"], "without an earlier run the history decides nothing")
    }
}

/// Two writers on one file: both wait for each other's lock (WAL, busy timeout, BEGIN IMMEDIATE);
/// a lock held past the busy timeout is an error saying so.
@Suite struct HistoryConcurrencyTests {
    @Test func twoConnectionsRecordingAtOnceLoseNothing() throws {
        let path = try HistoryStoreTests.file()
        _ = try HistoryStore(path: path)
        let errors = NSLock()
        nonisolated(unsafe) var failures: [String] = []
        DispatchQueue.concurrentPerform(iterations: 2) { writer in
            do {
                let store = try HistoryStore(path: path)
                for night in 0..<15 {
                    let names = (0..<40).map { "w\(writer)-d\($0).test" }
                    let report = HistoryStoreTests.report(night: night, Dictionary(uniqueKeysWithValues: names.map { ($0, Verdict.fail) }))
                    try store.record(RunRecord(report: report, kind: .list, origin: .audit))
                }
            } catch {
                errors.withLock { failures.append("\(error)") }
            }
        }
        #expect(failures.isEmpty, "\(failures)")
        let store = try HistoryStore(path: path)
        #expect(try store.overview().count == 30)
        let counts = try store.withDatabase { database throws(DatabaseError) in
            (try database.integer("SELECT count(*) FROM result"), try database.rows("PRAGMA integrity_check") { $0.text(0) })
        }
        #expect(counts.0 == 30 * 40 && counts.1 == ["ok"])
    }

    @Test func aLockHeldPastTheBusyTimeoutIsAnErrorSayingSo() throws {
        let path = try HistoryStoreTests.file()
        let holder = try HistoryStore(path: path)
        try holder.withDatabase { database throws(DatabaseError) in try database.execute("BEGIN EXCLUSIVE") }
        let waiter = try HistoryStore(path: path, busyTimeout: 200)
        let started = Date()
        do {
            try waiter.record(RunRecord(report: HistoryStoreTests.report(night: 0, ["a.test": .pass]), kind: .list, origin: .audit))
            Issue.record("recorded through an exclusive lock")
        } catch {
            #expect(error.code == 5 && error.message.contains("locked"), "\(error)")
        }
        #expect(Date().timeIntervalSince(started) >= 0.15, "it waited for the lock first")
        try holder.withDatabase { database throws(DatabaseError) in try database.execute("ROLLBACK") }
        #expect(try waiter.record(RunRecord(report: HistoryStoreTests.report(night: 0, ["a.test": .pass]), kind: .list, origin: .audit)))
    }
}
