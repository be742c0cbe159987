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

/// Writes a file so that no reader ever sees half of it: it goes to a temporary name in the same
/// folder (`.NAME.tmp-PID`), is synced, and is renamed into place.
enum AtomicFile {
    /// Writes what `produce` emits, piece by piece, to `directory/name` atomically (temporary file,
    /// fsync, rename), so a large report is never held whole in memory. On failure nothing is left:
    /// neither the temporary file nor a partial `name`; an earlier `name` stays as it was.
    static func write(named name: String, in directory: URL, _ produce: ((Data) throws -> Void) throws -> Void) throws(ReportWriteError) {
        let final = directory.appendingPathComponent(name)
        let temporary = directory.appendingPathComponent(temporaryName(for: name))
        // POSIX calls rather than FileHandle, so a failure says why in the system's words
        // ("No space left on device", "File too large"), not as a Foundation error number.
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw ReportWriteError(path: final.path, reason: "cannot create a file in \(directory.path) (\(describe(errno)))")
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
            throw ReportWriteError(path: final.path, reason: reason)
        }
        guard rename(temporary.path, final.path) == 0 else {
            let reason = describe(errno)
            try? FileManager.default.removeItem(at: temporary)
            throw ReportWriteError(path: final.path, reason: reason)
        }
    }

    /// The temporary name `name` has while it is written.
    static func temporaryName(for name: String) -> String {
        ".\(name).tmp-\(getpid())"
    }

    /// Creates `url` and its parents.
    static func createFolder(_ url: URL) throws(ReportWriteError) {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw ReportWriteError(path: url.path, reason: "cannot create the folder (\(error.localizedDescription))")
        }
    }

    /// The system's words for `errno` `code`.
    static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
