import CSQLite
import Foundation

/// A failed SQLite call: what was being done, SQLite's result code and its message.
public struct DatabaseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was being done ("opening /x/history.sqlite", "preparing SELECT …").
    public var action: String
    /// SQLite's primary result code (5 busy, 11 corrupt, 26 not a database …).
    public var code: Int32
    /// SQLite's own message.
    public var message: String

    public init(action: String, code: Int32, message: String) {
        self.action = action
        self.code = code
        self.message = message
    }

    /// The code is named only when SQLite gave one: 0 is a refusal made before SQLite was asked
    /// (a FIFO, a symbolic link).
    public var description: String { "\(action): \(message)" + (code == 0 ? "" : " (SQLite code \(code))") }
}

/// What bounds each statement of a `Database`: how long one call into SQLite may run, and a switch
/// another thread flips to end it (a signal). A history file is input like any other: a crafted one
/// must cost a bounded delay, never the run.
public struct StatementBound: Sendable {
    /// The longest one statement (one step, one `execute`) may run, in seconds.
    public var seconds: Double
    /// True once the statement should give up (Ctrl-C, SIGTERM); asked while it runs and while it waits for a lock.
    public var stopped: @Sendable () -> Bool

    public init(seconds: Double = 10, stopped: @escaping @Sendable () -> Bool = { false }) {
        self.seconds = seconds
        self.stopped = stopped
    }
}

/// One open SQLite database file. Closed when the value is freed.
public final class Database {
    private let handle: OpaquePointer
    /// The file it was opened from.
    public let path: String
    private let clock: StatementClock

    /// Opens (or creates) the database file at `path`, read-write, waiting up to `busyTimeout`
    /// milliseconds for another process's lock before a statement fails with "database is locked".
    /// Every statement is bounded by `bound`; the file's schema may run no trigger or view
    /// (`HistorySchema` also refuses any it did not make) and no function it does not trust.
    public init(path: String, busyTimeout: Int32 = 10_000, bound: StatementBound = StatementBound()) throws(DatabaseError) {
        var pointer: OpaquePointer?
        let code = csqlite_open(path, &pointer)
        guard let opened = pointer else {
            throw DatabaseError(action: "opening \(path)", code: code, message: String(cString: csqlite_errstr(code)))
        }
        guard code == 0 else {
            let message = String(cString: csqlite_errmsg(opened))
            csqlite_close(opened)
            throw DatabaseError(action: "opening \(path)", code: code, message: message)
        }
        handle = opened
        self.path = path
        clock = StatementClock(bound: bound, busyTimeout: Double(busyTimeout) / 1000)
        let context = Unmanaged.passUnretained(clock).toOpaque()
        // Both callbacks run on the thread of the statement; the clock outlives the handle (closed in deinit first).
        csqlite_busy_handler(handle, { context, _ in
            guard let context else { return 0 }
            return Unmanaged<StatementClock>.fromOpaque(context).takeUnretainedValue().waitsForLock() ? 1 : 0
        }, context)
        csqlite_progress_handler(handle, 1000, { context in
            guard let context else { return 0 }
            return Unmanaged<StatementClock>.fromOpaque(context).takeUnretainedValue().interrupts() ? 1 : 0
        }, context)
        // Defensive: no writing the schema tables or the file behind SQLite's back; triggers and views
        // off, so a schema that slipped past the check still runs nothing of its own; and functions
        // in the schema limited to the innocuous.
        let options: [(Int32, Int32, String)] = [
            (SQLITE_DBCONFIG_DEFENSIVE, 1, "defensive mode"), (SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, "trusted_schema off"),
            (SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, "triggers off"), (SQLITE_DBCONFIG_ENABLE_VIEW, 0, "views off"),
        ]
        for (option, value, name) in options {
            let result = csqlite_db_config_flag(handle, option, value)
            // Thrown once the value is whole: deinit closes the handle.
            guard result == 0 else { throw error(result, "setting \(name) on \(path)") }
        }
    }

    deinit { csqlite_close(handle) }

    /// Runs statements that return no rows (`PRAGMA …`, `CREATE …`, `BEGIN`).
    public func execute(_ sql: String) throws(DatabaseError) {
        clock.start()
        let code = csqlite_exec(handle, sql)
        guard code == 0 else { throw error(code, "running \(Self.shortened(sql))") }
    }

    /// A prepared statement of `sql` (one statement, `?` parameters).
    public func prepare(_ sql: String) throws(DatabaseError) -> Statement {
        var pointer: OpaquePointer?
        let code = csqlite_prepare(handle, sql, &pointer)
        guard code == 0, let prepared = pointer else {
            if let pointer { csqlite_finalize(pointer) }
            throw error(code, "preparing \(Self.shortened(sql))")
        }
        return Statement(prepared, database: self, sql: sql)
    }

    /// The rows of `sql` with `parameters` bound, each read by `row`.
    public func rows<T>(_ sql: String, _ parameters: [SQLValue] = [], _ row: (Statement) -> T) throws(DatabaseError) -> [T] {
        let statement = try prepare(sql)
        try statement.bind(parameters)
        var result: [T] = []
        while try statement.step() { result.append(row(statement)) }
        return result
    }

    /// The first column of the first row of `sql`, as an integer (nil without a row or for NULL).
    public func integer(_ sql: String, _ parameters: [SQLValue] = []) throws(DatabaseError) -> Int64? {
        let statement = try prepare(sql)
        try statement.bind(parameters)
        guard try statement.step() else { return nil }
        return statement.int64(0)
    }

    /// Runs `body` inside one `BEGIN IMMEDIATE … COMMIT` (taking the write lock at once, so two
    /// writers queue on the busy timeout instead of failing half-way); rolled back if it throws.
    public func transaction<T>(_ body: () throws(DatabaseError) -> T) throws(DatabaseError) -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            // Even after a stop: the rollback must run, not be interrupted in turn.
            clock.unbounded { try? execute("ROLLBACK") }
            throw error
        }
    }

    /// Rows changed by the last statement.
    public var changes: Int64 { csqlite_changes(handle) }

    /// The rowid of the last row inserted on this connection.
    public var lastInsertedRow: Int64 { csqlite_last_insert_rowid(handle) }

    func error(_ code: Int32, _ action: String) -> DatabaseError {
        // SQLite says only "interrupted": the clock knows why.
        if code == SQLITE_INTERRUPT, let reason = clock.interruption {
            return DatabaseError(action: action, code: code, message: reason)
        }
        return DatabaseError(action: action, code: code, message: String(cString: csqlite_errmsg(handle)))
    }

    /// Starts the clock of a statement about to run (a step).
    func startStatement() { clock.start() }

    private static func shortened(_ sql: String) -> String {
        let line = sql.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        return line.count > 60 ? String(line.prefix(60)) + "…" : line
    }
}

/// A value bound to a statement's parameter.
public enum SQLValue: Sendable, Equatable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case null

    /// An integer, or NULL for nil.
    public static func int(_ value: Int?) -> SQLValue { value.map { .integer(Int64($0)) } ?? .null }
    /// Text, or NULL for nil.
    public static func string(_ value: String?) -> SQLValue { value.map { .text($0) } ?? .null }
}

/// One prepared statement of a `Database`. Finalized when freed.
public final class Statement {
    private let handle: OpaquePointer
    // Kept so the database outlives its statements.
    private let database: Database
    private let sql: String

    init(_ handle: OpaquePointer, database: Database, sql: String) {
        self.handle = handle
        self.database = database
        self.sql = sql
    }

    deinit { csqlite_finalize(handle) }

    /// Binds `values` to the parameters 1…n, after resetting the statement to run again.
    public func bind(_ values: [SQLValue]) throws(DatabaseError) {
        csqlite_reset(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .integer(let number): code = csqlite_bind_int64(handle, index, number)
            case .real(let number): code = csqlite_bind_double(handle, index, number)
            case .text(let text):
                // With its length: a text holding a NUL byte is bound whole.
                code = text.utf8CString.withUnsafeBufferPointer { csqlite_bind_text(handle, index, $0.baseAddress, Int32($0.count - 1)) }
            case .null: code = csqlite_bind_null(handle, index)
            }
            guard code == 0 else { throw database.error(code, "binding parameter \(index)") }
        }
    }

    /// Steps once: true when a row is ready to read, false when the statement is done.
    public func step() throws(DatabaseError) -> Bool {
        database.startStatement()
        let code = csqlite_step(handle)
        switch code {
        case 100: return true
        case 101: return false
        default: throw database.error(code, "running \(sql.split(whereSeparator: \.isNewline).first.map(String.init) ?? sql)")
        }
    }

    /// Binds `values` and runs the statement to its end (an INSERT, UPDATE or DELETE).
    public func run(_ values: [SQLValue]) throws(DatabaseError) {
        try bind(values)
        while try step() {}
    }

    /// True when column `index` (from 0) of the current row is NULL.
    public func isNull(_ index: Int32) -> Bool { csqlite_column_type(handle, index) == 5 }
    /// Column `index` as an integer (0 for NULL).
    public func int64(_ index: Int32) -> Int64 { csqlite_column_int64(handle, index) }
    /// Column `index` as an integer, nil for NULL.
    public func int(_ index: Int32) -> Int? { isNull(index) ? nil : Int(csqlite_column_int64(handle, index)) }
    /// Column `index` as a real number, nil for NULL.
    public func double(_ index: Int32) -> Double? { isNull(index) ? nil : csqlite_column_double(handle, index) }
    /// Column `index` as text, nil for NULL.
    public func text(_ index: Int32) -> String? {
        guard let pointer = csqlite_column_text(handle, index) else { return nil }
        let count = Int(csqlite_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }
}

/// The time a statement of one connection started, checked by SQLite's progress and busy handlers
/// (on the statement's own thread, so no lock is needed).
final class StatementClock {
    let bound: StatementBound
    let busyTimeout: Double
    private var started = ContinuousClock.now
    private var waitingSince: ContinuousClock.Instant?
    private var isBounded = true
    /// Why the last statement was interrupted, for its error.
    private(set) var interruption: String?

    init(bound: StatementBound, busyTimeout: Double) {
        self.bound = bound
        self.busyTimeout = busyTimeout
    }

    func start() {
        started = .now
        waitingSince = nil
        interruption = nil
    }

    /// Runs `body` with no bound (a rollback).
    func unbounded(_ body: () -> Void) {
        isBounded = false
        defer { isBounded = true }
        body()
    }

    /// The progress handler: true ends the statement.
    func interrupts() -> Bool {
        guard isBounded else { return false }
        if bound.stopped() {
            interruption = "stopped by a signal before it finished"
            return true
        }
        if ContinuousClock.now - started > .seconds(bound.seconds) {
            interruption = "stopped after \(Self.seconds(bound.seconds)) s, the most one statement may take "
                + "(a history aasa-audit wrote answers in well under a second)"
            return true
        }
        return false
    }

    /// The busy handler: true waits a little longer for another connection's lock.
    func waitsForLock() -> Bool {
        let now = ContinuousClock.now
        let since = waitingSince ?? now
        waitingSince = since
        if isBounded && bound.stopped() { return false }
        guard now - since < .seconds(busyTimeout) else { return false }
        // Short sleeps, so a signal is answered within 20 ms.
        usleep(20_000)
        return true
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
