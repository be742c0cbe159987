import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import Run

@Suite struct LocalFileTests {
    @Test func readsAFileWholeAndSaysWhyNot() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let file = folder.appendingPathComponent("aasa.json")
        try Data("{}".utf8).write(to: file)
        #expect(try LocalFile.read(file.path) == Data("{}".utf8))
        let empty = folder.appendingPathComponent("empty")
        try Data().write(to: empty)
        #expect(try LocalFile.read(empty.path) == Data())
        #expect(throws: LocalFile.ReadError.unusable("it is a folder, not a file")) { try LocalFile.read(folder.path) }
        #expect(throws: LocalFile.ReadError.unusable("No such file or directory")) {
            try LocalFile.read(folder.appendingPathComponent("missing").path)
        }
        #expect(LocalFile.ReadError.standardInputFailed.description == "standard input failed")
    }

    /// A FIFO (a named one, or `<(…)`'s /dev/fd/N) or a device is named as what it is, never as
    /// "no such file": the file is there. Nothing waits for a writer.
    @Test func aPipeOrADeviceIsNamedAsSuch() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let fifo = folder.appendingPathComponent("p").path
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: LocalFile.ReadError.unusable("it is a pipe (FIFO), not a regular file (give its content on standard input as -)")) {
            try LocalFile.read(fifo)
        }
        #expect(throws: LocalFile.ReadError.unusable("it is a device, not a regular file")) { try LocalFile.read("/dev/zero") }
        #expect(LocalFile.ReadError.unusable("it is a device, not a regular file").description == "it is a device, not a regular file")
    }
}
