import Audit
import Fetching
import Foundation
import History
#if canImport(Glibc)
import Glibc
#endif

/// What a run asks of the history database: what it adds to the report, before the reports are
/// written, and to record the run, after. A failure is the caller's warning, never the run's end:
/// history never costs a report. `HistoryFile` is the real one; tests give their own.
public protocol RunHistory: Sendable {
    /// Where the history is, for warnings.
    var path: String { get }
    /// What the history adds to `run`'s report (earlier runs of the list and this one).
    func insights(for run: RunRecord) throws -> ReportHistory
    /// Records `run` (one transaction).
    func record(_ run: RunRecord) throws
}

/// The history in a SQLite file (`reports/history.sqlite` by default).
public struct HistoryFile: RunHistory, Equatable {
    public var path: String
    /// True for the default file in the report store: its folder is created when missing, and a
    /// symbolic link at its name (or at SQLite's `-wal`, `-shm`, `-journal` beside it) is refused, so
    /// a link planted in `reports/` never makes the run write outside it.
    public var createsFolder: Bool
    /// Flipped by Ctrl-C or SIGTERM: a statement running (or waiting for a lock) then gives up, and
    /// the run ends as the signal says, not after the history's bound.
    public var stop: StopSwitch?

    public init(path: String, createsFolder: Bool = false, stop: StopSwitch? = nil) {
        self.path = path
        self.createsFolder = createsFolder
        self.stop = stop
    }

    /// The same file; the stop switch is no part of which history it is.
    public static func == (left: HistoryFile, right: HistoryFile) -> Bool {
        left.path == right.path && left.createsFolder == right.createsFolder
    }

    /// The history the options choose: none with `--no-history`, `--history FILE`, else
    /// `history.sqlite` in the report store when the reports go there (with `--out DIR` only when
    /// `--history` names a file: a run never writes outside the folders it is given).
    public static func choice(file: String?, noHistory: Bool, output: ReportOutput.Destination, stop: StopSwitch? = nil) -> HistoryFile? {
        if noHistory { return nil }
        if let file { return HistoryFile(path: file, stop: stop) }
        if case .store(let store) = output {
            return HistoryFile(path: (store.root as NSString).appendingPathComponent(HistoryStore.defaultFileName), createsFolder: true, stop: stop)
        }
        return nil
    }

    public func insights(for run: RunRecord) throws -> ReportHistory {
        try open().insights(for: run)
    }

    public func record(_ run: RunRecord) throws {
        try open().record(run)
    }

    /// Opens the store, refusing what is not a regular file (a FIFO would block the run).
    public func open() throws -> HistoryStore {
        if FileManager.default.fileExists(atPath: path), let problem = FileKind.problem(at: path) {
            throw DatabaseError(action: "opening \(path)", code: 0, message: problem)
        }
        if createsFolder, let link = Self.symbolicLink(besides: path) {
            throw DatabaseError(action: "opening \(path)", code: 0,
                                message: (link == path ? "it" : "\(link) beside it") + " is a symbolic link; the history in the report folder is never written through one "
                                    + "(delete it, or name a file with --history FILE)")
        }
        if createsFolder {
            let folder = (path as NSString).deletingLastPathComponent
            if !folder.isEmpty { try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        }
        let stop = self.stop
        return try HistoryStore(path: path, bound: StatementBound { stop?.isStopped ?? false })
    }

    /// The first of the database file and SQLite's files beside it that is a symbolic link.
    static func symbolicLink(besides path: String) -> String? {
        ["", "-wal", "-shm", "-journal"].map { path + $0 }.first { name in
            var info = stat()
            return lstat(name, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
        }
    }
}

extension RunHistory {
    /// `insights(for:)`, a failure told to `observer` (a warning: the reports are written without it).
    func insights(for run: RunRecord, observer: AuditRunObserver) -> ReportHistory? {
        do {
            return try insights(for: run)
        } catch {
            observer.event(.historyNotRead(path: path, error: error))
            return nil
        }
    }

    /// `record(_:)`, a failure told to `observer` (a warning: the reports were written).
    func record(_ run: RunRecord, observer: AuditRunObserver) {
        do {
            try record(run)
        } catch {
            observer.event(.runNotRecorded(path: path, error: error))
        }
    }
}
