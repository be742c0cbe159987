import Audit
import Foundation

extension HistoryStore {
    /// What the history adds to `run`'s report, from the runs of the list recorded before it
    /// started and the run itself (which need not be recorded yet): see `ReportHistory`.
    public func insights(for run: RunRecord) throws(DatabaseError) -> ReportHistory {
        let report = run.report
        let start = Self.seconds(report.generatedAt)
        var listRun = "r.kind = 'list' AND r.shard = '' AND \(Self.readableRun("r"))"
        // A merge of a night merged before replaces that run when it is recorded (`record`): the
        // run it replaces is not an earlier run of the list (the trend would show the night twice).
        if run.origin == .merge {
            let replaced = try database.rows("""
                SELECT id FROM run WHERE generated_at = ? AND shard = '' AND list_key = ? AND origin = 'merge'
                """, [.integer(start), .text(run.listKey)]) { $0.int64(0) }
            if !replaced.isEmpty { listRun += " AND r.id NOT IN (\(replaced.map(String.init).joined(separator: ",")))" }
        }
        let earlier = try database.integer("SELECT count(*) FROM run r WHERE \(listRun) AND r.generated_at <= ?", [.integer(start)]) ?? 0

        // The trend: the last runs of the list, this one last when it is one.
        let ownTally = RunTally(generatedAt: report.generatedAt, pass: report.summary.pass, warn: report.summary.warn,
                                fail: report.summary.fail, complete: report.complete)
        let earlierCount = RunTally.window - (run.isListNight ? 1 : 0)
        var trend: [RunTally] = try database.rows("""
            SELECT r.generated_at, r.pass, r.warn, r.fail, r.complete FROM run r
            WHERE \(listRun) AND r.generated_at <= ? ORDER BY r.generated_at DESC LIMIT ?
            """, [.integer(start), .int(earlierCount)]) { row in
            RunTally(generatedAt: Self.date(row.int64(0)), pass: Int(row.int64(1)), warn: Int(row.int64(2)),
                     fail: Int(row.int64(3)), complete: row.int64(4) != 0)
        }.reversed()
        if run.isListNight { trend.append(ownTally) }

        // The verdicts of this run's domains in the last runs of the list, for flapping.
        let windowIDs = try database.rows("""
            SELECT r.id FROM run r WHERE \(listRun) AND r.generated_at <= ? ORDER BY r.generated_at DESC LIMIT ?
            """, [.integer(start), .int(FlappingDomain.window - (run.isListNight ? 1 : 0))]) { $0.int64(0) }
        var verdicts: [String: [Verdict]] = [:]
        if !windowIDs.isEmpty {
            let list = windowIDs.map(String.init).joined(separator: ",")
            let rows = try database.rows("""
                SELECT d.name, res.verdict FROM result res JOIN run r ON r.id = res.run_id JOIN domain d ON d.id = res.domain_id
                WHERE res.run_id IN (\(list)) ORDER BY r.generated_at
                """) { row in (row.text(0) ?? "", Verdict(rawValue: row.text(1) ?? "") ?? .fail) }
            for (name, verdict) in rows { verdicts[name, default: []].append(verdict) }
        }
        let digests = run.digests
        var flapping: [FlappingDomain] = []
        for domain in digests {
            var seen = verdicts[domain.domain] ?? []
            if run.isListNight { seen.append(domain.verdict) }
            let changes = zip(seen, seen.dropFirst()).filter { $0 != $1 }.count
            if changes >= FlappingDomain.minimumChanges {
                flapping.append(FlappingDomain(domain: domain.domain, changes: changes, verdicts: seen))
            }
        }
        flapping.sort { ($0.changes, $1.domain) > ($1.changes, $0.domain) }

        // Failing since, and fixed: the unbroken run of failures in earlier runs of the list.
        // Only domains failing now or failing in the last run of the list are looked up.
        let previousRun = try database.integer("SELECT r.id FROM run r WHERE \(listRun) AND r.generated_at <= ? ORDER BY r.generated_at DESC LIMIT 1",
                                               [.integer(start)])
        var failedLastTime: Set<String> = []
        if let previousRun {
            failedLastTime = Set(try database.rows("""
                SELECT d.name FROM result res JOIN domain d ON d.id = res.domain_id WHERE res.run_id = ? AND res.verdict = 'fail'
                """, [.integer(previousRun)]) { $0.text(0) ?? "" })
        }
        let streakQuery = try database.prepare("""
            SELECT r.generated_at, res.verdict FROM result res JOIN run r ON r.id = res.run_id
            WHERE res.domain_id = (SELECT id FROM domain WHERE name = ?) AND \(listRun) AND r.generated_at <= ?
            ORDER BY r.generated_at DESC
            """)
        /// The earlier failures in a row of `name`: how many and when the first started.
        func earlierFailures(_ name: String) throws(DatabaseError) -> (runs: Int, since: Date?) {
            try streakQuery.bind([.text(name), .integer(start)])
            var runs = 0
            var since: Date?
            while try streakQuery.step(), streakQuery.text(1) == Verdict.fail.rawValue {
                runs += 1
                since = Self.date(streakQuery.int64(0))
            }
            return (runs, since)
        }
        var failing: [FailingStreak] = []
        var fixed: [FixedDomain] = []
        for domain in digests {
            if domain.verdict == .fail {
                let before = try earlierFailures(domain.domain)
                // A one-off check is no run of the list: it starts no streak ("failing since today, 1 run"
                // would be history told of a run that is part of none), it only continues one.
                guard run.isListNight || before.runs > 0 else { continue }
                failing.append(FailingStreak(domain: domain.domain, since: before.since ?? report.generatedAt, runs: before.runs + 1))
            } else if failedLastTime.contains(domain.domain) {
                let before = try earlierFailures(domain.domain)
                if before.runs > 0 { fixed.append(FixedDomain(domain: domain.domain, afterRuns: before.runs, verdict: domain.verdict)) }
            }
        }
        failing.sort { ($0.since, $0.domain) < ($1.since, $1.domain) }
        fixed.sort { $0.domain < $1.domain }

        return ReportHistory(earlierListRuns: Int(earlier), failingSince: failing, fixed: fixed, flapping: flapping,
                             expiringCertificates: try Self.expiringCertificates(run), trend: trend,
                             expiryWarningDays: run.report.expiryWarningDays)
    }

    /// The certificates of `run`'s domains that have expired or expire within the run's
    /// `--expiry-warning-days` (`AuditReport.expiryWarningDays`, judged by `CertificateExpiry`), soonest first.
    static func expiringCertificates(_ run: RunRecord) throws(DatabaseError) -> [ExpiringCertificate] {
        var expiring: [ExpiringCertificate] = []
        let warningDays = run.report.expiryWarningDays
        try run.forEachDomain { (domain) throws(DatabaseError) in
            guard let certificate = domain.certificate, let notAfter = certificate.notAfter, let daysLeft = certificate.daysLeft
            else { return }
            let expiry = CertificateExpiry(daysLeft: daysLeft, warningDays: warningDays)
            guard expiry == .expired || expiry == .expiringSoon else { return }
            let issuer = domain.locations.first { $0.path == certificate.location }?.tls?.certificate?.issuer
            expiring.append(ExpiringCertificate(domain: domain.domain, notAfter: notAfter, daysLeft: daysLeft, issuer: issuer, expiry: expiry))
        }
        return expiring.sorted { ($0.notAfter, $0.domain) < ($1.notAfter, $1.domain) }
    }
}
