import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a path is, found with `stat` (symlinks followed) before anything opens it: opening a FIFO
/// waits for a writer and a device may never end, so only regular files and folders are read.
enum PathKind: Equatable {
    case regularFile
    case folder
    /// Something else, or nothing: the reason in words (`it is a pipe (FIFO), not a regular file`,
    /// or the system's `No such file or directory`).
    case unusable(String)

    /// The reason given for a path that does not exist.
    static let missing = "no such file or folder"

    init(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            self = .unusable(errno == ENOENT ? Self.missing : String(cString: strerror(errno)))
            return
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: self = .regularFile
        case S_IFDIR: self = .folder
        case S_IFIFO: self = .unusable("is a pipe (FIFO), not a regular file")
        case S_IFCHR, S_IFBLK: self = .unusable("is a device, not a regular file")
        case S_IFSOCK: self = .unusable("is a socket, not a regular file")
        default: self = .unusable("is not a regular file")
        }
    }
}
