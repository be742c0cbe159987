import Audit
import Foundation

/// Whether a run is a night of the domain list or a one-off check of domains named as arguments.
/// Only runs of the list count in streaks, flapping and the trend.
public enum RunKind: String, Sendable, Codable {
    case list
    case oneOff = "one-off"
}

/// Where a recorded run came from.
public enum RunOrigin: String, Sendable, Codable {
    case audit, merge, `import`
}

/// One run to record: its report and what the report does not say.
public struct RunRecord: Sendable {
    public var report: AuditReport
    public var kind: RunKind
    public var origin: RunOrigin
    /// The domain list file, when the run read one.
    public var listSource: String?
    /// When the run ended (nil for an imported report).
    public var endedAt: Date?
    /// For an import: how many other reports of the same import, with the same start, shard and
    /// domains but not the same content, came before this one (two runs that started in the same
    /// second). The report is already recorded when the file holds more such runs than that.
    public var importOrdinal = 0

    /// The run's domains when they are read one at a time (a run's results spool): `report.domains`
    /// is then empty and these are recorded. Nil: the domains are `report.domains`.
    public var results: (any DomainResults)?

    public init(report: AuditReport, kind: RunKind, origin: RunOrigin, listSource: String? = nil, endedAt: Date? = nil) {
        self.report = report
        self.kind = kind
        self.origin = origin
        self.listSource = listSource
        self.endedAt = endedAt
    }

    /// A run of `streamed`: its domains are read one at a time when recorded.
    public init(streamed: StreamedReport, kind: RunKind, origin: RunOrigin, listSource: String? = nil, endedAt: Date? = nil) {
        self.init(report: streamed.report, kind: kind, origin: origin, listSource: listSource, endedAt: endedAt)
        results = streamed.domains
    }

    /// The digest of every domain of the run, in report order.
    var digests: [DomainDigest] { results?.digests ?? report.domains.map(DomainDigest.init) }

    /// Calls `body` with each domain of the run, in report order, read one at a time.
    func forEachDomain(_ body: (DomainResult) throws(DatabaseError) -> Void) throws(DatabaseError) {
        guard let results else {
            for domain in report.domains { try body(domain) }
            return
        }
        for position in 0..<results.count {
            let domain: DomainResult
            do {
                domain = try results.result(at: position)
            } catch {
                throw DatabaseError(action: "reading the run's results", code: 0, message: "\(error)")
            }
            try body(domain)
        }
    }

    /// A night of the list: a run of the list over all of it (no single shard).
    var isListNight: Bool { kind == .list && report.shard == nil }

    /// The identity of the run's set of domains: FNV-1a (64 bit) of the sorted ASCII names, those
    /// audited and those an interruption left unaudited. The same report imported twice, or
    /// recorded and then imported, has the same key.
    public var listKey: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        let names = (digests.map(\.domain) + (report.notAudited ?? [])).sorted()
        for name in names {
            for byte in name.utf8 + [0] {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
        }
        return String(hash, radix: 16)
    }
}

/// The history database: every recorded run, per domain its verdict, findings, certificate, CDN
/// state and timings. WAL mode and a busy timeout let two runs record at once; every run is one
/// transaction. See docs/history.md.
public final class HistoryStore {
    /// The default file, inside the report store's root.
    public static let defaultFileName = "history.sqlite"
    let database: Database

    /// Opens (creating when missing) the history at `path` and brings its schema up to date.
    /// Throws for a file that is not a database, is locked past the busy timeout, cannot be
    /// written, was written by a newer aasa-audit, or holds a schema aasa-audit did not make (a
    /// trigger, a view, another table); every statement is bounded by `bound`.
    public init(path: String, busyTimeout: Int32 = 10_000, bound: StatementBound = StatementBound()) throws(DatabaseError) {
        database = try Database(path: path, busyTimeout: busyTimeout, bound: bound)
        do {
            // Before anything else reads the tables: what is there must be what this tool made.
            try HistorySchema.check(database)
            // WAL: readers never block the writer, and a crash mid-write leaves the file whole.
            try database.execute("PRAGMA journal_mode = WAL")
            try database.execute("PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL")
            try migrate()
        } catch {
            throw DatabaseError(action: "\(path): \(error.action)", code: error.code, message: error.message)
        }
    }

    /// The schema version of the file (`PRAGMA user_version`).
    public func schemaVersion() throws(DatabaseError) -> Int {
        Int(try database.integer("PRAGMA user_version") ?? 0)
    }

    private func migrate() throws(DatabaseError) {
        // Checked inside the write lock: two runs opening a new file at once create it once.
        if try schemaVersion() == HistorySchema.version { return }
        try database.transaction { () throws(DatabaseError) in
            let current = try schemaVersion()
            guard current <= HistorySchema.version else {
                throw DatabaseError(action: "reading \(database.path)", code: 0,
                                    message: "schema version \(current) was written by a newer aasa-audit (this one knows \(HistorySchema.version))")
            }
            // PRAGMA user_version is any 32-bit number; aasa-audit never writes a negative one.
            guard current >= 0 else {
                throw DatabaseError(action: "reading \(database.path)", code: 0,
                                    message: "schema version \(current) was not written by aasa-audit (its versions count up from 0)")
            }
            // Checked again inside the lock: another process may have written the file since.
            try HistorySchema.check(database)
            for version in current..<HistorySchema.version {
                try database.execute(HistorySchema.migrations[version])
            }
            try database.execute("PRAGMA user_version = \(HistorySchema.version)")
        }
    }

    // MARK: Recording

    /// Records `run` in one transaction. False for an import of a run already recorded (same start,
    /// shard and set of domains), which is left as it is. A merge takes its start from its shards, so
    /// a merge of the same night's domains again (a retried Job) is the same run: it replaces the
    /// merge recorded before, and the night stays one run.
    @discardableResult
    public func record(_ run: RunRecord) throws(DatabaseError) -> Bool {
        let report = run.report
        return try database.transaction { () throws(DatabaseError) -> Bool in
            let key: [SQLValue] = [.integer(Self.seconds(report.generatedAt)), .text(report.shard?.description ?? ""), .text(run.listKey)]
            let same = "generated_at = ? AND shard = ? AND list_key = ?"
            // An import of a report already recorded adds nothing; a live run that started in the
            // same second as another of the same domains (reports store whole seconds) is a new run.
            let seq: Int64
            if run.origin == .import {
                let recorded = try database.integer("SELECT count(*) FROM run WHERE \(same)", key) ?? 0
                guard recorded <= Int64(run.importOrdinal) else { return false }
                seq = try database.integer("SELECT coalesce(max(seq) + 1, 0) FROM run WHERE \(same)", key) ?? 0
            } else {
                if run.origin == .merge {
                    try database.prepare("DELETE FROM run WHERE \(same) AND origin = 'merge'").run(key)
                }
                seq = try database.integer("SELECT coalesce(max(seq) + 1, 0) FROM run WHERE \(same)", key) ?? 0
            }
            try database.prepare("""
                INSERT INTO run (generated_at, ended_at, tool_version, shard, complete, kind, origin, list_source,
                                 list_key, domains, pass, warn, fail, seq)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).run([key[0], .int(run.endedAt.map(Self.seconds).map(Int.init)),
                           .text(report.tool.version), key[1], .integer(report.complete ? 1 : 0),
                           .text(run.kind.rawValue), .text(run.origin.rawValue), .string(run.listSource), key[2],
                           .int(report.summary.domains), .int(report.summary.pass), .int(report.summary.warn), .int(report.summary.fail),
                           .integer(seq)])
            let runID = database.lastInsertedRow
            let insertDomain = try database.prepare("INSERT OR IGNORE INTO domain (name) VALUES (?)")
            let selectDomain = try database.prepare("SELECT id FROM domain WHERE name = ?")
            let insertResult = try database.prepare("""
                INSERT OR IGNORE INTO result (run_id, domain_id, verdict, used_location, cert_not_after, cert_issuer, cert_subject,
                                    cdn_status, cdn_matches_origin, cdn_failure, dns_ms, connect_ms, tls_ms, first_byte_ms, total_ms)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            let insertFinding = try database.prepare("INSERT INTO finding (run_id, domain_id, rule, severity, location) VALUES (?, ?, ?, ?, ?)")
            try run.forEachDomain { (domain) throws(DatabaseError) in
                try insertDomain.run([.text(domain.domain)])
                try selectDomain.bind([.text(domain.domain)])
                guard try selectDomain.step() else { return }
                let domainID = selectDomain.int64(0)
                let location = domain.locations.first { $0.path == domain.usedLocation } ?? domain.locations.first
                let served = location?.tls?.certificate
                let timings = location?.timings
                try insertResult.run([
                    .integer(runID), .integer(domainID), .text(domain.verdict.rawValue), .string(domain.usedLocation),
                    .int(domain.certificate?.notAfter.map(Self.seconds).map(Int.init)), .string(served?.issuer), .string(served?.subject),
                    .int(domain.cdn?.httpStatus), .int(domain.cdn?.matchesOrigin.map { $0 ? 1 : 0 }),
                    .string(domain.cdn?.appleFailureReason ?? domain.cdn?.error.map { $0.kind.rawValue }),
                    timings.map { .real($0.dnsMs) } ?? .null, timings.map { .real($0.connectMs) } ?? .null,
                    timings.map { .real($0.tlsMs) } ?? .null, timings.map { .real($0.firstByteMs) } ?? .null,
                    timings.map { .real($0.totalMs) } ?? .null,
                ])
                // A report merged from overlapping shards can hold a domain twice; its first result counts.
                guard database.changes == 1 else { return }
                for finding in domain.findings {
                    try insertFinding.run([.integer(runID), .integer(domainID), .text(finding.id), .text(finding.severity.rawValue), .text("")])
                }
                for place in domain.locations {
                    for finding in place.findings {
                        try insertFinding.run([.integer(runID), .integer(domainID), .text(finding.id), .text(finding.severity.rawValue), .text(place.path)])
                    }
                }
            }
            return true
        }
    }

    // MARK: Pruning

    /// Deletes the runs that started more than `days` days before `now`, with their results and
    /// findings, and the domains no run mentions any more. Returns how many runs were deleted.
    public func prune(olderThanDays days: Int, now: Date = Date()) throws(DatabaseError) -> Int {
        let cutoff = Self.seconds(now) - Int64(days) * 86_400
        let deleted = try database.transaction { () throws(DatabaseError) -> Int in
            try database.prepare("DELETE FROM run WHERE generated_at < ?").run([.integer(cutoff)])
            let count = Int(database.changes)
            try database.execute("DELETE FROM domain WHERE id NOT IN (SELECT domain_id FROM result)")
            return count
        }
        // Gives the freed pages of the write-ahead log back; a failure here costs nothing recorded.
        try? database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return deleted
    }

    /// The Unix seconds of `date`, within `storableSeconds` (a date outside it, which no report
    /// holds, is stored at its edge rather than trapping on the conversion).
    static func seconds(_ date: Date) -> Int64 {
        let value = date.timeIntervalSince1970.rounded(.down)
        guard value.isFinite else { return 0 }
        return Int64(min(max(value, Double(storableSeconds.lowerBound)), Double(storableSeconds.upperBound)))
    }
    static func date(_ seconds: Int64) -> Date { Date(timeIntervalSince1970: TimeInterval(seconds)) }
    /// `seconds` as a date, nil outside `storableSeconds`.
    static func recordedDate(_ seconds: Int64?) -> Date? { seconds.flatMap { storableSeconds.contains($0) ? date($0) : nil } }

    /// Any date a report holds: the years 0000 to 9999 (a certificate's four-digit year), as `ReportRange.seconds`.
    static let storableSeconds: ClosedRange<Int64> = -62_167_219_200...253_402_300_799

    /// The dates a run of the history may start at: 1970 to the end of 9999. A row outside them, or with
    /// a negative count or one past `Int32.max`, was not written by aasa-audit (a file edited by
    /// hand, or a report imported before reports were range-checked) and is not read.
    static let recordedSeconds: ClosedRange<Int64> = 0...253_402_300_799
    /// The SQL condition of a readable `run` row aliased `alias`.
    static func readableRun(_ alias: String) -> String {
        let counts = ["domains", "pass", "warn", "fail"].map { "\(alias).\($0) BETWEEN 0 AND 2147483647" }.joined(separator: " AND ")
        return "\(alias).generated_at BETWEEN \(recordedSeconds.lowerBound) AND \(recordedSeconds.upperBound) AND \(counts)"
    }
}
