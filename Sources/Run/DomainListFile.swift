import Fetching
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads a `domains.txt` with limits, before any of it is parsed: a file too big to be a domain list,
/// or one holding a NUL byte (so binary, not text), is refused as a whole with a clear error rather
/// than turned into hundreds of thousands of rejected lines.
///
/// A regular file, or a pipe: `--domains <(grep -v staging domains.txt)` (process substitution)
/// and `--domains /dev/stdin` are pipes, and scripts use them. A pipe is read without ever blocking
/// in a system call: it is opened non-blocking and polled, so a named FIFO nobody writes to waits
/// only until Ctrl-C or SIGTERM (`stop`). A folder, a device or a socket is refused at once.
public enum DomainListFile {
    /// 16 MiB: half a million domains of 30 characters; a million repeats of one short name fit too.
    public static let maximumBytes = 16 << 20
    /// How often a pipe with nothing to read yet looks at the stop switch.
    static let pollMilliseconds: Int32 = 100

    /// Why the list was not read.
    public enum ReadError: Error, Equatable, CustomStringConvertible {
        /// Missing, not readable, a folder, not a regular file: the path and the reason.
        case unreadable(String, reason: String)
        case tooLarge(String, bytes: Int)
        case binary(String, line: Int)
        /// A signal stopped the run while the list (a pipe) was still being waited for.
        case stopped(String)

        public var description: String {
            switch self {
            case .unreadable(let path, let reason):
                return "cannot read the domain list \(path): \(reason)"
            case .tooLarge(let path, let bytes):
                return "the domain list \(path) is \(bytes) bytes; the limit is \(DomainListFile.maximumBytes) bytes (16 MiB): "
                    + "split it into several runs"
            case .binary(let path, let line):
                return "the domain list \(path) holds a NUL byte on line \(line): it is a binary file, not a list of domains"
            case .stopped(let path):
                return "the domain list \(path) was still being waited for"
            }
        }
    }

    /// The bytes of `path`, at most `maximumBytes` of them; reads no more than that even from a
    /// pipe or a file that grows while it is read. `stop` ends the wait for a pipe's writer;
    /// `waiting` is called once when a pipe has given nothing for `waitingNoticeSeconds`.
    public static func read(_ path: String, stop: StopSwitch? = nil, waitingNoticeSeconds: Double = 2,
                            waiting: () -> Void = {}) throws(ReadError) -> Data {
        if let problem = FileKind.problem(at: path, pipes: true) { throw .unreadable(path, reason: problem) }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadable(path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(path, reason: String(cString: strerror(errno))) }
        // Checked again on what was opened: the path may have changed since `stat`.
        if let problem = FileKind.problem(mode: info.st_mode, pipes: true) { throw .unreadable(path, reason: problem) }
        let isPipe = info.st_mode & S_IFMT == S_IFIFO

        var data = Data()
        let chunk = 1 << 16
        var buffer = [UInt8](repeating: 0, count: chunk)
        let started = Date()
        var toldWaiting = false
        while data.count <= maximumBytes {
            if isPipe {
                // Wait for data (or the writer's end) a little at a time, so a signal is seen.
                var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&entry, 1, pollMilliseconds)
                if stop?.isStopped == true { throw .stopped(path) }
                if ready == 0 || (ready < 0 && errno == EINTR) {
                    if !toldWaiting && Date().timeIntervalSince(started) >= waitingNoticeSeconds {
                        toldWaiting = true
                        waiting()
                    }
                    continue
                }
                if ready < 0 { throw .unreadable(path, reason: String(cString: strerror(errno))) }
            }
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, chunk) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw .unreadable(path, reason: String(cString: strerror(errno)))
            }
            data.append(contentsOf: buffer[0..<count])
        }
        if data.count > maximumBytes {
            let size = !isPipe && info.st_size > data.count ? Int(info.st_size) : data.count
            throw .tooLarge(path, bytes: size)
        }
        if let nul = data.firstIndex(of: 0) {
            let line = data[data.startIndex..<nul].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
            throw .binary(path, line: line)
        }
        return data
    }
}
