import Foundation
import History
import Synchronization
import Testing
import TestSupport

/// A history file is input: one that keeps schema version 1 but adds a trigger, a view or a table
/// is refused when opened, and every statement is bounded in time and answers a stop.
@Suite struct HistoryDefenceTests {
    /// A never-ending row source: the `run` a crafted file puts in place of the table.
    static let endless = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c"

    /// A history made by this tool, then changed by `sql` (through a connection of our own).
    static func crafted(_ sql: String) throws -> String {
        let path = try HistoryStoreTests.file()
        try HistoryStore(path: path).withDatabase { database throws(DatabaseError) in try database.execute(sql) }
        return path
    }

    static let craftedSchemas: [(sql: String, named: String)] = [
        // The red team's two: a trigger that never ends after a run is inserted, and run as an endless view.
        ("CREATE TRIGGER again AFTER INSERT ON run BEGIN SELECT count(*) FROM (\(endless)); END", "trigger again (on run)"),
        ("PRAGMA foreign_keys = OFF; DROP TABLE run; CREATE VIEW run AS SELECT x AS id, x AS generated_at FROM (\(endless))", "view run"),
        ("CREATE TABLE extra (x)", "table extra"),
        ("CREATE INDEX result_verdict ON result (verdict)", "index result_verdict (on result)"),
        ("DROP INDEX finding_run", "no index finding_run"),
        ("ALTER TABLE domain ADD COLUMN note TEXT", "table domain defined otherwise"),
    ]

    @Test(arguments: craftedSchemas)
    func aSchemaThisToolDidNotMakeIsRefusedNamingWhatIsThere(_ sql: String, named: String) throws {
        let path = try Self.crafted(sql)
        do {
            _ = try HistoryStore(path: path)
            Issue.record("a history with \(named) was opened")
        } catch {
            #expect(error.message.contains("its schema is not the one aasa-audit makes at version 1"), "\(error)")
            #expect(error.message.contains(named), "\(error)")
            #expect(error.description.contains(path))
        }
    }

    @Test func aNegativeSchemaVersionIsRefusedNotATrap() throws {
        let path = try Self.crafted("PRAGMA user_version = -1")
        #expect(throws: DatabaseError.self) { try HistoryStore(path: path) }
    }

    @Test func aFileThisToolMadeStillOpensAndAnEmptyOneIsMade() throws {
        let path = try HistoryStoreTests.file()
        _ = try HistoryStore(path: path)
        #expect(try HistoryStore(path: path).schemaVersion() == 1)
    }

    /// Defence in depth: even a trigger that got past the check never fires on a connection of ours.
    @Test func triggersDoNotFireOnTheToolsConnections() throws {
        let database = try Database(path: try HistoryStoreTests.file())
        try database.execute("CREATE TABLE t (x); CREATE TABLE u (x); CREATE TRIGGER copy AFTER INSERT ON t BEGIN INSERT INTO u VALUES (new.x); END")
        try database.execute("INSERT INTO t VALUES (1)")
        #expect(try database.integer("SELECT count(*) FROM u") == 0)
        #expect(try database.integer("SELECT count(*) FROM t") == 1)
    }

    @Test func aStatementRunningPastItsBoundIsStoppedWithAReason() throws {
        let database = try Database(path: ":memory:", bound: StatementBound(seconds: 0.3))
        do {
            // Ends by itself only after minutes: the bound ends it first.
            _ = try database.integer("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 5000000000) SELECT count(*) FROM c")
            Issue.record("the statement ran to its end")
        } catch {
            #expect(error.code == 9 && error.message.contains("stopped after 0.3 s"), "\(error)")
        }
        // The next statement has a clock of its own.
        #expect(try database.integer("SELECT 41 + 1") == 42)
    }

    @Test func aStopEndsARunningStatement() throws {
        let stop = Atomic<Bool>(false)
        let database = try Database(path: ":memory:", bound: StatementBound(seconds: 3600) { stop.load(ordering: .acquiring) })
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { stop.store(true, ordering: .releasing) }
        do {
            _ = try database.integer("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 5000000000) SELECT count(*) FROM c")
            Issue.record("the statement ran to its end")
        } catch {
            #expect(error.code == 9 && error.message.contains("stopped by a signal"), "\(error)")
        }
    }

    @Test func aStopEndsTheWaitForALock() throws {
        let path = try HistoryStoreTests.file()
        let holder = try HistoryStore(path: path)
        try holder.withDatabase { database throws(DatabaseError) in try database.execute("BEGIN EXCLUSIVE") }
        let stop = Atomic<Bool>(false)
        // An hour's busy timeout: only the stop ends the wait.
        let waiter = try HistoryStore(path: path, busyTimeout: 3_600_000, bound: StatementBound { stop.load(ordering: .acquiring) })
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { stop.store(true, ordering: .releasing) }
        #expect(throws: DatabaseError.self) {
            try waiter.record(RunRecord(report: HistoryStoreTests.report(night: 0, ["a.test": .pass]), kind: .list, origin: .audit))
        }
        try holder.withDatabase { database throws(DatabaseError) in try database.execute("ROLLBACK") }
    }

    /// Rows no run of aasa-audit writes (dated Int64.min, a count of Int64.max, a certificate dated
    /// past 9999) are not read: no date of year -4712 or 5838270, no sum that overflows.
    @Test func rowsOutOfRangeAreNotRead() throws {
        let path = try HistoryStoreTests.file()
        let store = try HistoryStore(path: path)
        for night in 0..<3 {
            try store.record(RunRecord(report: HistoryStoreTests.report(night: night, ["a.test": .pass]), kind: .list, origin: .audit))
        }
        try store.withDatabase { database throws(DatabaseError) in
            try database.execute("""
                UPDATE run SET generated_at = -9223372036854775808 WHERE id = 1;
                UPDATE run SET pass = 9223372036854775807 WHERE id = 2;
                UPDATE result SET cert_not_after = 9223372036854775807 WHERE run_id = 3
                """)
        }
        let runs = try store.overview()
        #expect(runs.count == 1 && runs[0].generatedAt == HistoryStoreTests.start.addingTimeInterval(2 * HistoryStoreTests.day))
        let timeline = try store.timeline(of: "a.test")
        #expect(timeline.runs.count == 1 && timeline.runs[0].certificateNotAfter == nil)
        let tonight = HistoryStoreTests.report(night: 3, ["a.test": .pass])
        let insights = try store.insights(for: RunRecord(report: tonight, kind: .list, origin: .audit))
        #expect(insights.earlierListRuns == 1 && insights.trend.map(\.pass) == [1, 1])
    }
}
