import Audit
import Foundation
import Reporting
#if canImport(Glibc)
import Glibc
#endif

/// The reports folder (`reports/` by default): one `reports/<UTC time>` folder per run, `latest`
/// pointing at the newest complete one, `--keep` pruning, and the default baseline (the report
/// `latest` points at).
///
/// Deletes only what this tool made: a real folder (not a symlink) directly in the root, named like
/// `20261129T190000Z` or `20261129T190000Z-2`, holding nothing but report files (regular files with
/// the names this tool writes). Never the folder `latest` points to, never the one just written.
public struct ReportStore: Sendable, Equatable {
    /// The folder holding the run folders and `latest`, as given (relative to the working folder).
    public var root: String

    /// The store in `root` (default: `reports`).
    public init(root: String = "reports") {
        self.root = root
    }

    /// What could not be deleted, or was left alone, for a warning.
    public struct Note: Sendable, Equatable, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "--keep: left \(path) in place: \(reason)" }
    }

    private var rootURL: URL { URL(fileURLWithPath: root) }

    /// A fresh `root/<UTC time>` folder for a run started at `now` (`-1`, `-2`... for a second run
    /// in the same second), created.
    public func newRunFolder(startedAt now: Date) throws(ReportWriteError) -> URL {
        try createRunFolder(startedAt: now).folder.url
    }

    /// Creates the run folder for `now` (see `newRunFolder`) and opens it and the root.
    ///
    /// Each name is taken with `mkdirat`, which never follows a link: anything already at the name,
    /// a symlink (dangling or not) included, is not this run's folder and is left alone; the next
    /// name is tried. The new folder is then opened without following a link, so one swapped in
    /// meanwhile is refused rather than written through.
    func createRunFolder(startedAt now: Date) throws(ReportWriteError) -> (root: FolderHandle, folder: FolderHandle) {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let stamp = formatter.string(from: now)
        try AtomicFile.createFolder(rootURL)
        let root = try FolderHandle(opening: rootURL)
        // Two runs in the same second get distinct folders.
        for suffix in 0..<1000 {
            let name = suffix == 0 ? stamp : "\(stamp)-\(suffix)"
            if mkdirat(root.descriptor, name, 0o755) == 0 {
                return (root, try FolderHandle(named: name, in: root))
            }
            guard errno == EEXIST else {
                throw ReportWriteError(path: rootURL.appendingPathComponent(name).path,
                                       reason: "cannot create the folder (\(AtomicFile.describe(errno)))")
            }
        }
        throw ReportWriteError(path: rootURL.path, reason: "too many runs in one second")
    }

    /// The name of the folder `latest` points to, or nil when there is no `latest` link.
    public var latestFolderName: String? {
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: rootURL.appendingPathComponent("latest").path) else {
            return nil
        }
        return URL(fileURLWithPath: target).lastPathComponent
    }

    /// Points `latest` at `directory` (a folder in the root) by renaming a fresh symlink over the
    /// old one, so `latest` always names a whole run. The fresh link gets an unpredictable name and
    /// is made with `symlinkat`, which never follows or replaces anything already there; the
    /// rename replaces `latest` itself, never what it points to.
    public func markLatest(_ directory: URL) throws(ReportWriteError) {
        try markLatest(directory, temporaryName: { AtomicFile.temporaryName(for: $0) })
    }

    /// `markLatest`, with the temporary name's maker (tests plant something at a predictable one).
    func markLatest(_ directory: URL, temporaryName: (String) -> String) throws(ReportWriteError) {
        let link = rootURL.appendingPathComponent("latest")
        let root = try FolderHandle(opening: rootURL)
        for _ in 0..<StagedFiles.attempts {
            let temporary = temporaryName("latest")
            guard symlinkat(directory.lastPathComponent, root.descriptor, temporary) == 0 else {
                if errno == EEXIST { continue }
                throw ReportWriteError(path: rootURL.appendingPathComponent(temporary).path, reason: AtomicFile.describe(errno))
            }
            guard renameat(root.descriptor, temporary, root.descriptor, "latest") == 0 else {
                let reason = AtomicFile.describe(errno)
                unlinkat(root.descriptor, temporary, 0)
                throw ReportWriteError(path: link.path, reason: reason)
            }
            root.sync()
            return
        }
        throw ReportWriteError(path: link.path, reason: "\(StagedFiles.attempts) fresh temporary names were all taken")
    }

    /// The report `latest` points at (`root/<UTC time>/report.json`), the default baseline; nil when
    /// there is no `latest`, or that run wrote no JSON (`--format html`): nothing to compare with.
    public var defaultBaselinePath: String? {
        let latest = rootURL.appendingPathComponent("latest")
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: latest.path) else { return nil }
        let resolved = target.hasPrefix("/") ? target : "\(root)/\(target)"
        let path = "\(resolved)/\(ReportFormat.json.fileName)"
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// Names of run folders: `yyyyMMdd'T'HHmmss'Z'` with an optional `-N` suffix.
    public static func isRunFolderName(_ name: String) -> Bool {
        let scalars = Array(name.unicodeScalars)
        guard scalars.count >= 16 else { return false }
        func digits(_ range: Range<Int>) -> Bool { range.allSatisfy { ("0"..."9").contains(scalars[$0]) } }
        guard digits(0..<8), scalars[8] == "T", digits(9..<15), scalars[15] == "Z" else { return false }
        if scalars.count == 16 { return true }
        return scalars.count > 17 && scalars[16] == "-" && digits(17..<scalars.count)
    }

    /// Files a run writes into its folder, and the temporary names they have while being written.
    public static func isReportFile(_ name: String) -> Bool {
        if ReportFormat.allCases.contains(where: { $0.fileName == name }) { return true }
        return name.hasPrefix(".report.") && name.contains(".tmp-")
    }

    /// `--keep N`: removes the run folders beyond the `keep` newest; returns what was removed and
    /// notes about folders left alone. `current` (the folder just written) and the folder `latest`
    /// points to are always kept, and count among the N.
    public func prune(keep: Int, current: URL) -> (removed: [String], notes: [Note]) {
        let manager = FileManager.default
        let root = rootURL
        guard let names = try? manager.contentsOfDirectory(atPath: root.path) else { return ([], []) }
        let protected: Set<String> = [current.lastPathComponent, latestFolderName ?? ""]
        var runs: [String] = []
        for name in names where Self.isRunFolderName(name) {
            let path = root.appendingPathComponent(name).path
            guard let type = try? manager.attributesOfItem(atPath: path)[.type] as? FileAttributeType, type == .typeDirectory else { continue }
            runs.append(name)
        }
        // The names sort in time order (fixed-width UTC stamps; "-N" runs come after their second).
        runs.sort { (Self.stamp($0), Self.suffix($0)) > (Self.stamp($1), Self.suffix($1)) }
        var removed: [String] = [], notes: [Note] = []
        var kept = 0
        for name in runs {
            if protected.contains(name) || kept < keep {
                kept += 1
                continue
            }
            let folder = root.appendingPathComponent(name)
            let shown = "\(self.root)/\(name)"
            let contents = (try? manager.contentsOfDirectory(atPath: folder.path)) ?? []
            // By name and by kind: a folder (or link) named report.json is not a report this tool wrote,
            // and removing the run folder would delete whatever it holds.
            if let stranger = contents.first(where: { name in
                guard Self.isReportFile(name) else { return true }
                let type = (try? manager.attributesOfItem(atPath: folder.appendingPathComponent(name).path))?[.type] as? FileAttributeType
                return type != .typeRegular
            }) {
                notes.append(Note(path: shown, reason: "it holds \(stranger), which this tool did not write"))
                continue
            }
            do {
                try manager.removeItem(at: folder)
                removed.append(shown)
            } catch {
                notes.append(Note(path: shown, reason: error.localizedDescription))
            }
        }
        return (removed, notes)
    }

    /// Whether the run folder `name` started after the one `latest` points to (by their names:
    /// the UTC start, then the same second's `-N`); true without a `latest` that names a run folder.
    public func isNewerThanLatest(_ name: String) -> Bool {
        guard let latest = latestFolderName, Self.isRunFolderName(latest), Self.isRunFolderName(name) else { return true }
        return (Self.stamp(name), Self.suffix(name)) >= (Self.stamp(latest), Self.suffix(latest))
    }

    private static func stamp(_ name: String) -> Substring { name.prefix(16) }
    private static func suffix(_ name: String) -> Int { name.count > 17 ? Int(name.dropFirst(17)) ?? 0 : 0 }
}

/// Where and how a run's reports are written: the folder (`--out DIR`, or a new run folder of the
/// store), the formats, the exit policy (for JUnit) and `--keep`. Used by the audit and the merge.
public struct ReportOutput: Sendable, Equatable {
    /// Where the folder of a run is.
    public enum Destination: Sendable, Equatable {
        /// `--out DIR`: this folder, created if needed; `latest` is not moved, nothing is pruned.
        case folder(String)
        /// A new `<UTC time>` folder in the store; `latest` moves to it when the report is complete.
        case store(ReportStore)
    }

    public var destination: Destination
    public var formats: [ReportFormat]
    public var policy: ExitPolicy
    /// `--keep N` (only for `.store`).
    public var keep: Int?
    /// `--wait SECONDS`: how long to wait for another run's lock on the folder (0: not at all).
    public var lockWait = 0
    /// False for a one-off check (domains given as arguments): its reports go to the store, but
    /// `latest` stays on the last run of the domain list (see `movesLatest(for:)`).
    public var updatesLatest = true
    /// `--prom-file PATH`: the metrics (`ReportFormat.prom`) also written there, atomically, after
    /// the report set: the one file written outside the run's folder, where a node_exporter
    /// textfile collector reads it.
    public var promFile: String?

    /// The output; `formats` in the order they are written.
    public init(destination: Destination, formats: [ReportFormat] = ReportFormat.defaults, policy: ExitPolicy = ExitPolicy(), keep: Int? = nil,
                promFile: String? = nil) {
        self.promFile = promFile
        self.destination = destination
        self.formats = formats
        self.policy = policy
        self.keep = keep
    }

    /// What a write did.
    public struct Written: Sendable, Equatable {
        /// The folder the reports are in.
        public var directory: URL
        /// Run folders `--keep` left in place, and why.
        public var notes: [ReportStore.Note]
    }

    /// Whether writing `report` moves `latest` to it: only in the store, only when `updatesLatest`
    /// (a run of the domain list), only for a complete report that audited at least one domain.
    /// Anything else would make the next night compare with a run that is not a night's.
    public func movesLatest(for report: AuditReport) -> Bool {
        store != nil && updatesLatest && report.complete && !report.domains.isEmpty
    }

    /// `movesLatest(for:)` of a streamed report.
    public func movesLatest(for streamed: StreamedReport) -> Bool {
        store != nil && updatesLatest && streamed.report.complete && !streamed.domains.isEmpty
    }

    /// The store reports go to, nil with `--out`.
    public var store: ReportStore? {
        if case .store(let store) = destination { return store }
        return nil
    }

    /// Writes `report` in every format as one set (see `StagedFiles`: every file is written and
    /// synced before any is renamed into place, so a failure leaves the earlier set whole and
    /// nothing new; a new run folder left empty is removed); then, in the store and only for a
    /// complete report, moves `latest` to it and prunes (`--keep`). An interrupted run keeps its
    /// report but never becomes the latest one.
    public func write(_ report: AuditReport, ending: RunEnding? = nil) throws(ReportWriteError) -> Written {
        try write(StreamedReport(report), ending: ending)
    }

    /// `write(_:)` of a streamed report: each file is rendered reading the domains one at a time.
    /// `ending`: how the run ends (its exit status and when the reports were written, for the metrics).
    public func write(_ streamed: StreamedReport, ending: RunEnding? = nil) throws(ReportWriteError) -> Written {
        let report = streamed.report
        let folder: FolderHandle
        var runFolderRoot: FolderHandle?
        switch destination {
        case .folder(let path):
            let url = URL(fileURLWithPath: path)
            try AtomicFile.createFolder(url)
            folder = try FolderHandle(opening: url)
            // A run killed while it staged (SIGKILL during a merge) left its temporary files here.
            StagedFiles.removeLeftovers(in: folder, names: ReportFormat.allCases.map(\.fileName))
        case .store(let store):
            (runFolderRoot, folder) = try store.createRunFolder(startedAt: report.generatedAt)
        }
        let directory = folder.url
        let files = StagedFiles(in: folder)
        do {
            for format in formats {
                try files.stage(named: format.fileName) { emit in
                    try format.render(streamed, policy: policy, ending: ending, to: emit)
                }
            }
            try files.commit()
            if let promFile {
                try PromFile.write(to: promFile) { emit in try ReportFormat.prom.render(streamed, policy: policy, ending: ending, to: emit) }
            }
        } catch {
            files.discard()
            // Only an empty folder is removed: this run's, since it created it with nothing in it.
            if let runFolderRoot { unlinkat(runFolderRoot.descriptor, directory.lastPathComponent, AT_REMOVEDIR) }
            throw error
        }
        var notes: [ReportStore.Note] = []
        if let store, report.complete {
            // A slower run that started earlier never moves `latest` back past a newer one.
            if movesLatest(for: streamed) && store.isNewerThanLatest(directory.lastPathComponent) { try store.markLatest(directory) }
            if let keep { notes = store.prune(keep: keep, current: directory).notes }
        }
        return Written(directory: directory, notes: notes)
    }
}
