import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `--prom-file PATH`: the metrics written where a node_exporter textfile collector reads them, the
/// one file a run writes outside its output folder. Written as the report files are (a temporary
/// file in the same folder, synced, renamed over the name), so the collector never reads half of
/// it; and refused, before anything is fetched and again when written, when something other than a
/// regular file is at the name (a symlink, a folder, a pipe): the user named a file, and a link
/// planted there must not send the metrics elsewhere or be silently replaced.
enum PromFile {
    /// Fails when `path` cannot be the metrics file: its folder does not exist or cannot be written,
    /// or something other than a regular file is at the name.
    static func checkWritable(_ path: String) throws(ReportWriteError) {
        let (folder, name) = try split(path)
        var info = stat()
        guard stat(folder, &info) == 0 else { throw ReportWriteError(path: path, reason: "its folder \(folder): \(AtomicFile.describe(errno))") }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw ReportWriteError(path: path, reason: "\(folder) is not a folder") }
        guard access(folder, W_OK | X_OK) == 0 else { throw ReportWriteError(path: path, reason: "its folder \(folder): \(AtomicFile.describe(errno))") }
        try refuseNonRegular(path: path, lstatAt: AT_FDCWD, "\(folder)/\(name)")
    }

    /// Writes what `produce` emits to `path` atomically.
    static func write(to path: String, _ produce: ((Data) throws -> Void) throws -> Void) throws(ReportWriteError) {
        let (folder, name) = try split(path)
        let handle = try FolderHandle(opening: URL(fileURLWithPath: folder))
        try refuseNonRegular(path: path, lstatAt: handle.descriptor, name)
        let files = StagedFiles(in: handle)
        try files.stage(named: name, produce)
        // Checked again just before the rename: the rename would replace a link put there meanwhile.
        do {
            try refuseNonRegular(path: path, lstatAt: handle.descriptor, name)
        } catch {
            files.discard()
            throw error
        }
        try files.commit()
    }

    /// The folder (`.` for a bare name) and the file name of `path`.
    static func split(_ path: String) throws(ReportWriteError) -> (folder: String, name: String) {
        guard !path.isEmpty, !path.hasSuffix("/") else { throw ReportWriteError(path: path, reason: "not a file name") }
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let name = String(path[path.index(after: slash)...])
        guard name != ".", name != ".." else { throw ReportWriteError(path: path, reason: "not a file name") }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, name)
    }

    /// Throws when something other than a regular file is at `name` (relative to `descriptor`);
    /// nothing there is fine.
    private static func refuseNonRegular(path: String, lstatAt descriptor: Int32, _ name: String) throws(ReportWriteError) {
        var info = stat()
        guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
            if errno == ENOENT { return }
            throw ReportWriteError(path: path, reason: AtomicFile.describe(errno))
        }
        let kind: String
        switch info.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFLNK: kind = "a symbolic link"
        case S_IFDIR: kind = "a folder"
        case S_IFIFO: kind = "a pipe"
        default: kind = "not a regular file"
        }
        throw ReportWriteError(path: path, reason: "it is \(kind); the metrics are written only to a regular file or a new name")
    }
}
