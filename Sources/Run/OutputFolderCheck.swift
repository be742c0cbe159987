import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension ReportOutput {
    /// The folder the reports will go to: `--out DIR`, or the store's root (`reports`).
    public var folderPath: String {
        switch destination {
        case .folder(let path): return path
        case .store(let store): return store.root
        }
    }

    /// Fails fast: creates the output folder (and its parents) and makes sure a file can be created
    /// in it, before anything is fetched, so a folder that cannot be written (read-only file system,
    /// no permission, a file where a folder is expected) is reported within a second, with the
    /// system's reason, rather than after every fetch. Writes nothing outside that folder: the probe
    /// is a file created exclusively inside it and removed at once.
    public func checkWritable() throws(ReportWriteError) {
        let folder = folderPath
        try Self.createFolders(folder)
        // An unpredictable name, created exclusively: nothing planted there is followed or overwritten.
        let probe = "\(folder)/.aasa-audit-probe-\(UUID().uuidString)"
        let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw ReportWriteError(path: folder, reason: AtomicFile.describe(errno)) }
        close(fd)
        unlink(probe)
    }

    /// `mkdir -p` with the system's words on failure: each missing folder of `path` is created;
    /// an existing one must be a folder (a symlink to one is fine).
    static func createFolders(_ path: String) throws(ReportWriteError) {
        let absolute = path.hasPrefix("/")
        var prefix = absolute ? "" : "."
        for component in path.split(separator: "/") where !component.isEmpty {
            prefix += "/" + component
            if mkdir(prefix, 0o755) == 0 { continue }
            let code = errno
            var info = stat()
            if stat(prefix, &info) == 0 {
                guard info.st_mode & S_IFMT == S_IFDIR else {
                    throw ReportWriteError(path: path, reason: "\(prefix.hasPrefix("./") ? String(prefix.dropFirst(2)) : prefix) is not a folder")
                }
                continue
            }
            throw ReportWriteError(path: path, reason: AtomicFile.describe(code == EEXIST ? errno : code))
        }
    }
}
