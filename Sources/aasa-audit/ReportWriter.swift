import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes report files so that no reader ever sees half of one: each file goes to a temporary
/// name in the same folder and is renamed into place; `reports/latest` moves only after every
/// file of a run is complete.
struct ReportWriter {
    /// Why reports could not be written.
    struct WriteError: Error, CustomStringConvertible {
        var path: String
        var reason: String
        var description: String { "cannot write \(path): \(reason)" }
    }

    /// The folder for this run: `out` when given, else a fresh `reports/<UTC timestamp>` folder.
    static func runDirectory(out: String?, reportsRoot: String = "reports", now: Date) throws -> URL {
        let manager = FileManager.default
        if let out {
            let url = URL(fileURLWithPath: out)
            try create(url)
            return url
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let stamp = formatter.string(from: now)
        let root = URL(fileURLWithPath: reportsRoot)
        try create(root)
        // Two runs in the same second get distinct folders.
        for suffix in 0..<1000 {
            let url = root.appendingPathComponent(suffix == 0 ? stamp : "\(stamp)-\(suffix)")
            if !manager.fileExists(atPath: url.path) {
                try create(url)
                return url
            }
        }
        throw WriteError(path: root.path, reason: "too many runs in one second")
    }

    /// Writes `data` to `directory/name` atomically (temporary file, fsync, rename).
    static func write(_ data: Data, named name: String, in directory: URL) throws {
        try write(named: name, in: directory) { emit in try emit(data) }
    }

    /// Writes what `produce` emits, piece by piece, to `directory/name` atomically (temporary file,
    /// fsync, rename), so a large report is never held whole in memory.
    static func write(named name: String, in directory: URL, _ produce: ((Data) throws -> Void) throws -> Void) throws {
        let final = directory.appendingPathComponent(name)
        let temporary = directory.appendingPathComponent(".\(name).tmp-\(getpid())")
        // POSIX calls rather than FileHandle, so a failure says why in the system's words
        // ("No space left on device", "File too large"), not as a Foundation error number.
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw WriteError(path: final.path, reason: "cannot create a file in \(directory.path) (\(describe(errno)))")
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
                        let written = Glibc.write(fd, base + offset, raw.count - offset)
                        if written < 0 {
                            if errno == EINTR { continue }
                            throw SystemCallFailure(code: errno)
                        }
                        offset += written
                    }
                }
            }
            if fsync(fd) != 0 { throw SystemCallFailure(code: errno) }
        } catch let failure as SystemCallFailure {
            reason = describe(failure.code)
        } catch {
            reason = "\(error)"
        }
        if close(fd) != 0 && reason == nil { reason = describe(errno) }
        if let reason {
            unlink(temporary.path)
            throw WriteError(path: final.path, reason: reason)
        }
        guard rename(temporary.path, final.path) == 0 else {
            let reason = describe(errno)
            try? FileManager.default.removeItem(at: temporary)
            throw WriteError(path: final.path, reason: reason)
        }
    }

    /// Points `reports/latest` at `directory` by renaming a fresh symlink over the old one.
    static func markLatest(_ directory: URL, reportsRoot: String = "reports") throws {
        let link = URL(fileURLWithPath: reportsRoot).appendingPathComponent("latest")
        let temporary = URL(fileURLWithPath: reportsRoot).appendingPathComponent(".latest.tmp-\(getpid())")
        try? FileManager.default.removeItem(at: temporary)
        guard symlink(directory.lastPathComponent, temporary.path) == 0 else {
            throw WriteError(path: temporary.path, reason: describe(errno))
        }
        guard rename(temporary.path, link.path) == 0 else {
            let reason = describe(errno)
            try? FileManager.default.removeItem(at: temporary)
            throw WriteError(path: link.path, reason: reason)
        }
    }

    private static func create(_ url: URL) throws {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw WriteError(path: url.path, reason: "cannot create the folder (\(error.localizedDescription))")
        }
    }

    private static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
