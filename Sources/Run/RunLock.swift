import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One run at a time per reports folder (the store's root, or `--out DIR`): an exclusive `flock`
/// on the folder itself, held while this value lives and released by the kernel however the
/// process ends (a crash or SIGKILL included), so no stale lock can be left behind.
///
/// The folder is locked rather than a file in it: a lock file that is removed at the end lets a
/// waiting run lock a removed file while a third locks its replacement. Who holds the lock is
/// written to `.aasa-audit.lock` in the folder for a second run to name; that file is only
/// information, removed when the lock is let go (and overwritten by the next holder if a killed
/// run left it).
public final class RunLock: @unchecked Sendable {
    /// The file naming the holder, in the locked folder.
    public static let holderFileName = ".aasa-audit.lock"

    /// Who holds a lock, as its holder wrote it: each part may be missing from a file cut short.
    public struct Holder: Sendable, Equatable, CustomStringConvertible {
        public var processID: Int32?
        /// The holder's start, ISO 8601 UTC, as written.
        public var startedAt: String?
        public var host: String?

        public init(processID: Int32?, startedAt: String?, host: String?) {
            self.processID = processID
            self.startedAt = startedAt
            self.host = host
        }

        /// The file's text: `pid=123 started=2026-12-01T21:00:00Z host=night-1`.
        var fileText: String {
            "pid=\(processID.map(String.init) ?? "?") started=\(startedAt ?? "?") host=\(host ?? "?")\n"
        }

        /// Reads `fileText` back; nil when none of its parts is there. Foreign words are ignored.
        init?(fileText: String) {
            var parts: [String: String] = [:]
            for word in fileText.prefix(1024).split(whereSeparator: { $0 == " " || $0 == "\n" }) {
                guard let equals = word.firstIndex(of: "=") else { continue }
                let value = String(word[word.index(after: equals)...])
                if value != "?" && !value.isEmpty { parts[String(word[..<equals])] = value }
            }
            guard !parts.isEmpty else { return nil }
            processID = parts["pid"].flatMap { Int32($0) }
            startedAt = parts["started"]
            host = parts["host"]
        }

        /// "process 123 on night-1, started 2026-12-01T21:00:00Z".
        public var description: String {
            var words = ["process " + (processID.map(String.init) ?? "(unknown)")]
            if let host { words.append("on \(host)") }
            return words.joined(separator: " ") + (startedAt.map { ", started \($0)" } ?? "")
        }
    }

    /// Why the lock was not taken.
    public enum Failure: Error, Equatable, Sendable {
        /// Another run holds it (its holder, when the file says); `waited`: the seconds waited for it.
        case held(folder: String, holder: Holder?, waited: Int)
        /// The folder cannot be made or locked; the system's reason.
        case unusable(folder: String, reason: String)
        /// A signal came while waiting (its number).
        case stopped(signal: Int32)
    }

    private let descriptor: Int32
    private let holderPath: String

    private init(descriptor: Int32, holderPath: String) {
        self.descriptor = descriptor
        self.holderPath = holderPath
    }

    deinit {
        // The holder file first, then the lock: a run that locks next finds no stale name.
        unlink(holderPath)
        close(descriptor)
    }

    /// This machine's name (`gethostname`), nil when it has none.
    public static var hostName: String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        let name = String(cString: buffer)
        return name.isEmpty ? nil : name
    }

    /// Takes the lock of `folder` (created if needed) for a run started at `startedAt`. While another
    /// run holds it, tries again every tenth of a second for `wait` seconds (0: not at all), asking
    /// `signal` each time; `waiting` is called once, when the first try finds it held.
    public static func acquire(folder: String, wait: Int, startedAt: Date, signal: () -> Int32?,
                               waiting: (Holder?) -> Void = { _ in }) throws(Failure) -> RunLock {
        let path = folder.isEmpty ? "." : folder
        do {
            try AtomicFile.createFolder(URL(fileURLWithPath: path))
        } catch {
            throw .unusable(folder: path, reason: error.reason)
        }
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unusable(folder: path, reason: AtomicFile.describe(errno)) }
        let holderPath = path + "/" + holderFileName
        let deadline = Date().addingTimeInterval(Double(wait))
        var told = false
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            guard code == EWOULDBLOCK || code == EINTR else {
                close(descriptor)
                throw .unusable(folder: path, reason: AtomicFile.describe(code))
            }
            if code == EINTR { continue }
            let holder = readHolder(holderPath)
            if let number = signal() {
                close(descriptor)
                throw .stopped(signal: number)
            }
            guard Date() < deadline else {
                close(descriptor)
                throw .held(folder: path, holder: holder, waited: wait)
            }
            if !told {
                waiting(holder)
                told = true
            }
            usleep(100_000)
        }
        let holder = Holder(processID: getpid(), startedAt: startedAt.formatted(.iso8601), host: hostName)
        writeHolder(holder, to: holderPath)
        return RunLock(descriptor: descriptor, holderPath: holderPath)
    }

    /// The holder file's content, if it can be read (a small regular file, never followed through a link).
    static func readHolder(_ path: String) -> Holder? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 1024)
        let count = read(fd, &bytes, bytes.count)
        guard count > 0 else { return nil }
        return Holder(fileText: String(decoding: bytes[0..<count], as: UTF8.self))
    }

    /// Writes the holder file; best effort (a full disk leaves the lock held and unnamed), never
    /// through a link planted at its name (that is removed and replaced).
    static func writeHolder(_ holder: Holder, to path: String) {
        unlink(path)
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let bytes = Array(holder.fileText.utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }
}
