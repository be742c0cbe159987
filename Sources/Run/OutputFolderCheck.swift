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

    /// Fails fast: finds, before anything is fetched, that the reports could not be written
    /// (read-only file system, no permission, a file where a folder is expected), with the system's
    /// reason, rather than after every fetch. Creates nothing: an existing folder is probed with a
    /// file created exclusively inside it and removed at once; for a folder still to be created, the
    /// nearest existing folder above it must let folders be made in it.
    public func checkWritable() throws(ReportWriteError) {
        if let promFile { try PromFile.checkWritable(promFile) }
        let folder = folderPath.isEmpty ? "." : folderPath
        let existing = try Self.nearestExistingFolder(of: folder)
        guard existing == folder else {
            if access(existing, W_OK | X_OK) != 0 {
                throw ReportWriteError(path: folder, reason: "cannot create it in \(existing) (\(AtomicFile.describe(errno)))")
            }
            return
        }
        // An unpredictable name, created exclusively: nothing planted there is followed or overwritten.
        let probe = "\(folder)/.aasa-audit-probe-\(UUID().uuidString)"
        let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw ReportWriteError(path: folder, reason: AtomicFile.describe(errno)) }
        close(fd)
        unlink(probe)
    }

    /// `path` itself when it exists, else the longest leading part of it that does ("." for a
    /// relative path none of which exists). Every existing part must be a folder (or a symlink to one).
    static func nearestExistingFolder(of path: String) throws(ReportWriteError) -> String {
        let absolute = path.hasPrefix("/")
        let components = path.split(separator: "/").map(String.init)
        var found = absolute ? "/" : "."
        for count in 1...max(components.count, 1) where count <= components.count {
            let prefix = (absolute ? "/" : "") + components[0..<count].joined(separator: "/")
            var info = stat()
            guard stat(prefix, &info) == 0 else {
                let code = errno
                if code == ENOENT { return found }
                throw ReportWriteError(path: path, reason: AtomicFile.describe(code))
            }
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw ReportWriteError(path: path, reason: "\(prefix) is not a folder")
            }
            found = prefix
        }
        return path
    }
}
