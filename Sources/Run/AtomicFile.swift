import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Why reports could not be written.
public struct ReportWriteError: Error, CustomStringConvertible {
    /// The file or folder that could not be written.
    public var path: String
    /// The system's words for why.
    public var reason: String
    public var description: String { "cannot write \(path): \(reason)" }
}

/// An open folder reports are written into. Every file is made, renamed and removed relative to
/// this descriptor (`openat`, `renameat`, `unlinkat`), so a symlink planted in the folder's path
/// after it was opened changes nothing.
final class FolderHandle {
    /// The descriptor (`O_DIRECTORY`), closed with the handle.
    let descriptor: Int32
    /// The folder's path, for messages.
    let url: URL

    /// Opens the folder at `url` as given: a path from the command line (`--out DIR`, the reports
    /// root), where a symlink is the user's own choice.
    init(opening url: URL) throws(ReportWriteError) {
        let descriptor = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ReportWriteError(path: url.path, reason: "cannot open the folder (\(AtomicFile.describe(errno)))")
        }
        self.descriptor = descriptor
        self.url = url
    }

    /// Opens the folder `name` inside `parent`, never through a symlink (`O_NOFOLLOW`): something
    /// this tool made a moment ago and someone may have swapped for a link since.
    init(named name: String, in parent: FolderHandle) throws(ReportWriteError) {
        let url = parent.url.appendingPathComponent(name)
        let descriptor = openat(parent.descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            let reason = code == ELOOP || code == ENOTDIR ? "it is no longer the folder this run created (a symlink or a file took its place)"
                                                          : AtomicFile.describe(code)
            throw ReportWriteError(path: url.path, reason: "cannot open the folder (\(reason))")
        }
        self.descriptor = descriptor
        self.url = url
    }

    deinit { close(descriptor) }

    /// Syncs the folder itself, so the renames done in it survive a crash.
    func sync() {
        // Best effort: a few file systems refuse fsync on a folder (EINVAL), and the files are synced.
        _ = fsync(descriptor)
    }
}

/// The files of one report set, written under temporary names in their folder, synced, and only
/// then renamed into place together: a failed write (full disk, renderer error) leaves the earlier
/// set as it was, never some files of a new run beside others of an old one.
///
/// Temporary names are unpredictable (`.NAME.tmp-` and 64 bits from the system's random source)
/// and created exclusively without following links (`O_CREAT | O_EXCL | O_NOFOLLOW`): something
/// already at such a name, a planted symlink included, is never opened, written or removed; another
/// name is drawn. The final names are reached only by `renameat`, which replaces whatever is at the
/// name (a symlink too: the link itself, never what it points to).
final class StagedFiles {
    private let folder: FolderHandle
    private let temporaryName: (String) -> String
    /// Written and synced, waiting for `commit`: (temporary name, final name).
    private var staged: [(temporary: String, name: String)] = []

    /// A set to be written in `folder`; `temporaryName` makes a fresh temporary name for a final
    /// name (tests give a predictable one to plant something there).
    init(in folder: FolderHandle, temporaryName: @escaping (String) -> String = AtomicFile.temporaryName(for:)) {
        self.folder = folder
        self.temporaryName = temporaryName
    }

    deinit { discard() }

    /// Removes what a run killed while staging (SIGKILL, a crash) left in `folder`: regular files
    /// named exactly as `AtomicFile.temporaryName(for:)` names a temporary file of one of `names`
    /// (`.report.json.tmp-` and 16 lowercase hexadecimal digits), last changed before this process
    /// started, so never a file another run is writing now. Links and anything else are left.
    /// Returns how many were removed.
    @discardableResult
    static func removeLeftovers(in folder: FolderHandle, names: [String], startedAt: Date = ProcessStart.date) -> Int {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder.url.path) else { return 0 }
        let prefixes = Set(names.map { ".\($0).tmp-" })
        var removed = 0
        for entry in entries {
            guard let cut = entry.range(of: ".tmp-", options: .backwards) else { continue }
            let prefix = String(entry[..<cut.upperBound]), digits = entry[cut.upperBound...]
            guard prefixes.contains(prefix), digits.count == 16,
                  digits.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else { continue }
            var info = stat()
            guard fstatat(folder.descriptor, entry, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            let changed = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
            guard changed < startedAt.timeIntervalSince1970 else { continue }
            if unlinkat(folder.descriptor, entry, 0) == 0 { removed += 1 }
        }
        return removed
    }

    /// How many fresh names are tried when something already sits at the temporary name.
    static let attempts = 16

    /// Writes what `produce` emits, piece by piece (a large report is never held whole in memory),
    /// to a new temporary file for `name`, and syncs it. On failure nothing of it is left.
    func stage(named name: String, _ produce: ((Data) throws -> Void) throws -> Void) throws(ReportWriteError) {
        let path = folder.url.appendingPathComponent(name).path
        var descriptor: Int32 = -1
        var temporary = ""
        for _ in 0..<Self.attempts {
            temporary = temporaryName(name)
            // POSIX calls rather than FileHandle, so a failure says why in the system's words
            // ("No space left on device", "File too large"), not as a Foundation error number.
            descriptor = openat(folder.descriptor, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if descriptor >= 0 || errno != EEXIST { break }
        }
        guard descriptor >= 0 else {
            let reason = errno == EEXIST ? "\(Self.attempts) fresh temporary names were all taken" : AtomicFile.describe(errno)
            throw ReportWriteError(path: path, reason: "cannot create a file in \(folder.url.path) (\(reason))")
        }
        /// A failed system call, by its errno, so the message can use the system's words.
        struct SystemCallFailure: Error { var code: Int32 }
        var reason: String?
        do {
            try produce { data in
                try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
                    guard let base = raw.baseAddress else { return }
                    var offset = 0
                    while offset < raw.count {
                        let written = Glibc.write(descriptor, base + offset, raw.count - offset)
                        if written < 0 {
                            if errno == EINTR { continue }
                            throw SystemCallFailure(code: errno)
                        }
                        offset += written
                    }
                }
            }
            if fsync(descriptor) != 0 { throw SystemCallFailure(code: errno) }
        } catch let failure as SystemCallFailure {
            reason = AtomicFile.describe(failure.code)
        } catch {
            reason = "\(error)"
        }
        if close(descriptor) != 0 && reason == nil { reason = AtomicFile.describe(errno) }
        if let reason {
            unlinkat(folder.descriptor, temporary, 0)
            throw ReportWriteError(path: path, reason: reason)
        }
        staged.append((temporary, name))
    }

    /// Renames every staged file into place. Checked first: no final name may be a folder (the one
    /// rename that would fail for what is at the name), so a set is refused whole rather than
    /// half-renamed. Renames take no new space, so a full disk cannot stop them half-way.
    func commit() throws(ReportWriteError) {
        for file in staged {
            var info = stat()
            if fstatat(folder.descriptor, file.name, &info, AT_SYMLINK_NOFOLLOW) == 0 && info.st_mode & S_IFMT == S_IFDIR {
                let path = folder.url.appendingPathComponent(file.name).path
                discard()
                throw ReportWriteError(path: path, reason: "a folder has that name; the earlier reports were left as they were")
            }
        }
        var done: [String] = []
        while let file = staged.first {
            guard renameat(folder.descriptor, file.temporary, folder.descriptor, file.name) == 0 else {
                let reason = AtomicFile.describe(errno)
                let path = folder.url.appendingPathComponent(file.name).path
                discard()
                let replaced = done.isEmpty ? "" : " (already replaced: \(done.joined(separator: ", ")))"
                throw ReportWriteError(path: path, reason: reason + replaced)
            }
            staged.removeFirst()
            done.append(file.name)
        }
        folder.sync()
    }

    /// Removes the staged temporary files (a failed set); the final names are untouched.
    func discard() {
        for file in staged { unlinkat(folder.descriptor, file.temporary, 0) }
        staged = []
    }
}

/// Writes a file so that no reader ever sees half of it; see `StagedFiles` for how.
enum AtomicFile {
    /// Writes what `produce` emits, piece by piece, to `directory/name` atomically (temporary file,
    /// fsync, rename), so a large report is never held whole in memory. On failure nothing is left:
    /// neither the temporary file nor a partial `name`; an earlier `name` stays as it was.
    static func write(named name: String, in directory: URL, _ produce: ((Data) throws -> Void) throws -> Void) throws(ReportWriteError) {
        let files = StagedFiles(in: try FolderHandle(opening: directory))
        try files.stage(named: name, produce)
        try files.commit()
    }

    /// A fresh temporary name for `name` (`.report.json.tmp-` and 16 hexadecimal digits from the
    /// system's random source: unpredictable, so no one can plant something there beforehand).
    static func temporaryName(for name: String) -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = String(generator.next(), radix: 16)
        return ".\(name).tmp-\(String(repeating: "0", count: 16 - digits.count))\(digits)"
    }

    /// Creates `url` and its parents (a path from the command line, followed as given).
    static func createFolder(_ url: URL) throws(ReportWriteError) {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            // Foundation's own words ("The file doesn't exist") hide the system's; its underlying
            // POSIX error names the reason, and the path it failed at may be a parent.
            let info = (error as NSError).userInfo
            if let underlying = info[NSUnderlyingErrorKey] as? Error, case let posix = underlying as NSError, posix.domain == NSPOSIXErrorDomain {
                let at = (info[NSFilePathErrorKey] as? String).flatMap { $0 == url.path ? nil : " at \($0)" } ?? ""
                throw ReportWriteError(path: url.path, reason: "cannot create the folder\(at) (\(describe(Int32(posix.code))))")
            }
            throw ReportWriteError(path: url.path, reason: "cannot create the folder (\(error.localizedDescription))")
        }
    }

    /// The system's words for `errno` `code`.
    static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}

/// When this process started (from `/proc/self/stat` and the boot time in `/proc/stat`; the first
/// time it is asked, where those cannot be read).
enum ProcessStart {
    static let date: Date = {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
              let close = stat.range(of: ")", options: .backwards),
              let system = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
              let bootLine = system.split(separator: "\n").first(where: { $0.hasPrefix("btime ") }),
              let boot = Double(bootLine.dropFirst(6).trimmingCharacters(in: .whitespaces)) else { return Date() }
        // Field 22 is the start in clock ticks after boot; the fields after ")" begin at field 3.
        let fields = stat[close.upperBound...].split(separator: " ")
        let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        guard fields.count > 19, let ticks = Double(fields[19]), ticksPerSecond > 0 else { return Date() }
        return Date(timeIntervalSince1970: boot + ticks / ticksPerSecond)
    }()
}
