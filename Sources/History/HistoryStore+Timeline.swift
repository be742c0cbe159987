import Audit
import Foundation

/// One run of a domain's timeline: what the run found and what changed since the domain's run before it.
public struct TimelineEntry: Sendable, Equatable, Codable {
    public var generatedAt: Date
    public var kind: RunKind
    public var shard: String?
    public var verdict: Verdict
    public var usedLocation: String?
    public var certificateNotAfter: Date?
    public var certificateIssuer: String?
    /// True when the verdict differs from the domain's run before (false for the first run shown).
    public var verdictChanged: Bool
    /// Findings ("rule" or "rule at /path") present now and not in the run before.
    public var appeared: [String]
    /// Findings of the run before that are gone.
    public var wentAway: [String]
    /// True when the certificate (expiry or issuer) differs from the run before.
    public var certificateChanged: Bool
}

/// A domain's history: every run that audited it, oldest first.
public struct DomainTimeline: Sendable, Equatable, Codable {
    public var domain: String
    public var runs: [TimelineEntry]
}

/// One recorded run, for the overview of the list.
public struct RunOverview: Sendable, Equatable, Codable {
    public var generatedAt: Date
    public var endedAt: Date?
    public var toolVersion: String
    public var kind: RunKind
    public var origin: RunOrigin
    public var shard: String?
    public var complete: Bool
    public var listSource: String?
    public var domains: Int
    public var pass: Int
    public var warn: Int
    public var fail: Int
}

extension HistoryStore {
    /// Every run that audited `domain` (ASCII form) since `since`, oldest first, with what changed
    /// from one to the next. The run just before `since` is read too, so the first change shown is real.
    public func timeline(of domain: String, since: Date? = nil) throws(DatabaseError) -> DomainTimeline {
        let from = since.map(Self.seconds) ?? Int64.min
        let rows = try database.rows("""
            SELECT r.id, r.generated_at, r.kind, r.shard, res.verdict, res.used_location, res.cert_not_after, res.cert_issuer, d.id
            FROM domain d JOIN result res ON res.domain_id = d.id JOIN run r ON r.id = res.run_id
            WHERE d.name = ? AND \(Self.readableRun("r")) AND r.generated_at >= coalesce((
                SELECT max(r2.generated_at) FROM result res2 JOIN run r2 ON r2.id = res2.run_id
                WHERE res2.domain_id = d.id AND \(Self.readableRun("r2")) AND r2.generated_at < ?), ?)
            ORDER BY r.generated_at, r.id
            """, [.text(domain), .integer(from), .integer(from)]) { row in
            (run: row.int64(0), at: row.int64(1), kind: RunKind(rawValue: row.text(2) ?? "") ?? .list, shard: row.text(3) ?? "",
             verdict: Verdict(rawValue: row.text(4) ?? "") ?? .fail, used: row.text(5), notAfter: row.int(6), issuer: row.text(7),
             domainID: row.int64(8))
        }
        guard let domainID = rows.first?.domainID else { return DomainTimeline(domain: domain, runs: []) }
        var findings: [Int64: [String]] = [:]
        let firstRun = rows.first?.at ?? 0
        let found = try database.rows("""
            SELECT f.run_id, f.rule, f.location FROM finding f JOIN run r ON r.id = f.run_id
            WHERE f.domain_id = ? AND r.generated_at >= ?
            """, [.integer(domainID), .integer(firstRun)]) { row in
            (row.int64(0), (row.text(1) ?? "") + ((row.text(2) ?? "").isEmpty ? "" : " at \(row.text(2) ?? "")"))
        }
        for (run, text) in found { findings[run, default: []].append(text) }
        var entries: [TimelineEntry] = []
        var previous: (verdict: Verdict, findings: Set<String>, notAfter: Int?, issuer: String?)?
        for row in rows {
            let now = Set(findings[row.run] ?? [])
            let entry = TimelineEntry(
                generatedAt: Self.date(row.at), kind: row.kind, shard: row.shard.isEmpty ? nil : row.shard, verdict: row.verdict,
                usedLocation: row.used, certificateNotAfter: Self.recordedDate(row.notAfter.map(Int64.init)), certificateIssuer: row.issuer,
                verdictChanged: previous.map { $0.verdict != row.verdict } ?? false,
                appeared: previous.map { now.subtracting($0.findings).sorted() } ?? now.sorted(),
                wentAway: previous.map { $0.findings.subtracting(now).sorted() } ?? [],
                certificateChanged: previous.map { $0.notAfter != row.notAfter || $0.issuer != row.issuer } ?? false)
            if row.at >= from { entries.append(entry) }
            previous = (row.verdict, now, row.notAfter, row.issuer)
        }
        return DomainTimeline(domain: domain, runs: entries)
    }

    /// The recorded runs since `since`, oldest first.
    public func overview(since: Date? = nil) throws(DatabaseError) -> [RunOverview] {
        try database.rows("""
            SELECT generated_at, ended_at, tool_version, kind, origin, shard, complete, list_source, domains, pass, warn, fail
            FROM run r WHERE \(Self.readableRun("r")) AND generated_at >= ? ORDER BY generated_at, id
            """, [.integer(since.map(Self.seconds) ?? Int64.min)]) { row in
            RunOverview(generatedAt: Self.date(row.int64(0)), endedAt: Self.recordedDate(row.int(1).map(Int64.init)),
                        toolVersion: row.text(2) ?? "", kind: RunKind(rawValue: row.text(3) ?? "") ?? .list,
                        origin: RunOrigin(rawValue: row.text(4) ?? "") ?? .audit, shard: (row.text(5) ?? "").isEmpty ? nil : row.text(5),
                        complete: row.int64(6) != 0, listSource: row.text(7), domains: Int(row.int64(8)),
                        pass: Int(row.int64(9)), warn: Int(row.int64(10)), fail: Int(row.int64(11)))
        }
    }

    /// Runs `body` with the underlying database (the benchmark's generator and tests use it).
    public func withDatabase<T>(_ body: (Database) throws(DatabaseError) -> T) throws(DatabaseError) -> T { try body(database) }
}
