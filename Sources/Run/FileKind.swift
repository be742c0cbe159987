import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Why a file named on the command line (`--domains`, `--cacert`) cannot be used, found with
/// `stat` before anything opens it: opening a FIFO waits for a writer, reading a device may never
/// end, so such files are refused at once with a reason rather than blocking the run.
enum FileKind {
    /// Nil when `path` (symlinks followed) is a regular file, or a pipe and `pipes` allows one;
    /// otherwise the reason in words: the system's ("No such file or directory", "Permission
    /// denied"), or what the path is instead ("it is a folder").
    static func problem(at path: String, pipes: Bool = false) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return String(cString: strerror(errno)) }
        return problem(mode: info.st_mode, pipes: pipes)
    }

    /// `problem(at:)` for a regular file this process must be able to read (`--cacert`, which
    /// curl opens itself): also "Permission denied" when it cannot.
    static func problemReading(_ path: String) -> String? {
        if let problem = problem(at: path) { return problem }
        return access(path, R_OK) == 0 ? nil : String(cString: strerror(errno))
    }

    /// The same judgement on a mode already read (`fstat` of an open file).
    static func problem(mode: mode_t, pipes: Bool) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFIFO: return pipes ? nil : "it is a pipe (FIFO), not a regular file"
        case S_IFDIR: return "it is a folder, not a file"
        case S_IFCHR, S_IFBLK: return "it is a device, not a regular file"
        case S_IFSOCK: return "it is a socket, not a regular file"
        default: return "it is not a regular file"
        }
    }
}
