import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One run at a time per reports folder (the store's root, or `--out DIR`): an exclusive `flock`
/// on the folder itself, held while this value lives and released by the kernel however the
/// process ends (a crash or SIGKILL included), so no stale lock can be left behind.
///
/// The folder is locked rather than a file in it: a lock file that is removed at the end lets a
/// waiting run lock a removed file while a third locks its replacement, and one that stays is a
/// file in the reports folder this tool did not write as a report. Who holds the lock is read
/// from the kernel (`/proc/locks`: the process holding the folder's flock, then its start), so the
/// name is never stale and nothing is put in the folder. A folder the lock made and nothing was
/// written to is removed again.
public final class RunLock: @unchecked Sendable {

    /// Who holds a lock, as the kernel tells it; the start when `/proc` says it.
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
    /// The folder, when the lock made it (removed at the end if still empty).
    private let made: String?

    private init(descriptor: Int32, made: String?) {
        self.descriptor = descriptor
        self.made = made
    }

    deinit {
        if let made { rmdir(made) }
        close(descriptor)
    }

    /// This machine's name (`gethostname`), nil when it has none.
    public static var hostName: String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        let name = String(cString: buffer)
        return name.isEmpty ? nil : name
    }

    /// Takes the lock of `folder` (created if needed). While another
    /// run holds it, tries again every tenth of a second for `wait` seconds (0: not at all), asking
    /// `signal` each time; `waiting` is called once, when the first try finds it held.
    public static func acquire(folder: String, wait: Int, signal: () -> Int32?,
                               waiting: (Holder?) -> Void = { _ in }) throws(Failure) -> RunLock {
        let path = folder.isEmpty ? "." : folder
        let existed = FileManager.default.fileExists(atPath: path)
        do {
            try AtomicFile.createFolder(URL(fileURLWithPath: path))
        } catch {
            throw .unusable(folder: path, reason: error.reason)
        }
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unusable(folder: path, reason: AtomicFile.describe(errno)) }
        let deadline = Date().addingTimeInterval(Double(wait))
        var told = false
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            guard code == EWOULDBLOCK || code == EINTR else {
                close(descriptor)
                throw .unusable(folder: path, reason: AtomicFile.describe(code))
            }
            if code == EINTR { continue }
            let holder = readHolder(descriptor)
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
        return RunLock(descriptor: descriptor, made: existed ? nil : path)
    }

    /// The process holding the flock of the folder open at `descriptor` (`/proc/locks`: lines
    /// `1: FLOCK  ADVISORY  WRITE 4242 08:01:1234567 0 EOF`; waiting ones say `->` and are skipped),
    /// with its start; nil when the kernel does not say.
    static func readHolder(_ descriptor: Int32) -> Holder? {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        let device = UInt64(info.st_dev)
        let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~UInt64(0xfff))
        let minor = (device & 0xff) | ((device >> 12) & ~UInt64(0xff))
        let wanted = String(format: "%02llx:%02llx:%llu", major, minor, UInt64(info.st_ino))
        guard let data = FileManager.default.contents(atPath: "/proc/locks") else { return nil }
        for line in String(decoding: data.prefix(1 << 20), as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 6, fields[1] == "FLOCK", fields[5] == wanted, let pid = Int32(fields[4]), pid > 0 else { continue }
            return Holder(processID: pid, startedAt: startTime(of: pid)?.formatted(.iso8601), host: hostName)
        }
        return nil
    }

    /// When process `pid` started: its start in clock ticks after boot (`/proc/PID/stat`, field 22)
    /// plus the boot time (`/proc/stat`, `btime`).
    static func startTime(of pid: Int32) -> Date? {
        guard let stat = FileManager.default.contents(atPath: "/proc/\(pid)/stat").map({ String(decoding: $0, as: UTF8.self) }),
              let close = stat.lastIndex(of: ")") else { return nil }
        // Fields after the command name (which may hold spaces), from field 3 on.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let ticks = Double(fields[19]),
              let system = FileManager.default.contents(atPath: "/proc/stat").map({ String(decoding: $0, as: UTF8.self) }),
              let line = system.split(separator: "\n").first(where: { $0.hasPrefix("btime ") }),
              let boot = Double(line.dropFirst(6)) else { return nil }
        let perSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        guard perSecond > 0 else { return nil }
        return Date(timeIntervalSince1970: (boot + ticks / perSecond).rounded(.down))
    }
}
