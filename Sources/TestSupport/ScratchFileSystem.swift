import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A small tmpfs a test mounts for itself: a real full file system (writes fail with "No space left on
/// device") or a real read-only folder (remounted `ro`, writes fail with "Read-only file system").
///
/// A chmod'ed folder is no substitute: root ignores permission bits. Mounting needs root with
/// CAP_SYS_ADMIN (as in CI's container); where the machine cannot mount, `init` throws with the
/// reason, so the test that needs the file system fails instead of testing something else.
/// Unmounted when released; call `unmount()` to do it earlier.
public final class ScratchFileSystem: @unchecked Sendable {
    /// Where the file system is mounted (a fresh temporary folder).
    public let mountPoint: URL
    private var mounted = true

    /// Mounts a tmpfs of `bytes` (rounded up to whole pages by the kernel) on a fresh temporary folder.
    public init(bytes: Int) throws {
        guard let mount = ShellCommand.which("mount") else { throw HarnessError.missingProgram("mount (Debian package mount)") }
        mountPoint = try Self.temporaryFolder()
        let outcome = try ShellCommand.run(mount, ["-t", "tmpfs", "-o", "size=\(bytes),mode=0755", "tmpfs", mountPoint.path], checked: false)
        guard outcome.status == 0 else {
            mounted = false
            try? FileManager.default.removeItem(at: mountPoint)
            throw HarnessError.scratchFileSystem(
                "`mount -t tmpfs` on \(mountPoint.path) failed (status \(outcome.status)): \(outcome.stderr.trimmingCharacters(in: .whitespacesAndNewlines)); "
                + "this test needs root with CAP_SYS_ADMIN (uid \(geteuid()))")
        }
    }

    /// A tmpfs holding whatever `prepare` puts in it, then remounted read-only, and checked: creating
    /// a file in it fails with EROFS.
    public static func readOnly(bytes: Int = 64 * 1024, prepare: (URL) throws -> Void = { _ in }) throws -> ScratchFileSystem {
        let scratch = try ScratchFileSystem(bytes: bytes)
        try prepare(scratch.mountPoint)
        try scratch.remountReadOnly()
        return scratch
    }

    /// Remounts the file system read-only and proves it: a new file cannot be created in it.
    public func remountReadOnly() throws {
        guard let mount = ShellCommand.which("mount") else { throw HarnessError.missingProgram("mount (Debian package mount)") }
        let outcome = try ShellCommand.run(mount, ["-o", "remount,ro", mountPoint.path], checked: false)
        guard outcome.status == 0 else {
            throw HarnessError.scratchFileSystem("`mount -o remount,ro \(mountPoint.path)` failed: \(outcome.stderr)")
        }
        let probe = mountPoint.appendingPathComponent(".probe")
        let fd = open(probe.path, O_CREAT | O_WRONLY, 0o644)
        let error = errno
        if fd >= 0 { close(fd); throw HarnessError.scratchFileSystem("\(mountPoint.path) was remounted read-only but a file could still be created") }
        guard error == EROFS else {
            throw HarnessError.scratchFileSystem("creating a file in \(mountPoint.path) failed with errno \(error), not EROFS")
        }
    }

    /// Bytes free to an unprivileged writer, or -1 when the file system cannot be asked.
    public var freeBytes: Int {
        var info = statvfs()
        return statvfs(mountPoint.path, &info) == 0 ? Int(info.f_bavail) * Int(info.f_bsize) : -1
    }

    /// Writes a filler file until about `keep` bytes stay free (the kernel counts whole pages), and
    /// returns it, so a test can make room again by removing it.
    public func fill(leaving keep: Int) throws -> URL {
        let free = freeBytes
        guard free >= 0 else { throw HarnessError.scratchFileSystem("statvfs \(mountPoint.path) failed") }
        let filler = mountPoint.appendingPathComponent("filler")
        try Data(count: max(0, free - keep)).write(to: filler)
        return filler
    }

    /// Unmounts (lazily, so a file still open elsewhere cannot keep it) and removes the mount point.
    public func unmount() {
        guard mounted else { return }
        mounted = false
        if let umount = ShellCommand.which("umount") { _ = try? ShellCommand.run(umount, ["-l", mountPoint.path], checked: false) }
        try? FileManager.default.removeItem(at: mountPoint)
    }

    deinit { unmount() }

    private static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-audit-scratch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
