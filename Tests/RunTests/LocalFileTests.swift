import Foundation
import TestSupport
import Testing
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
        #expect(throws: LocalFile.ReadError.directory) { try LocalFile.read(folder.path) }
        #expect(throws: LocalFile.ReadError.unreadable) { try LocalFile.read(folder.appendingPathComponent("missing").path) }
        #expect(LocalFile.ReadError.directory.description == "it is a directory")
        #expect(LocalFile.ReadError.unreadable.description == "no such file, or not readable")
        #expect(LocalFile.ReadError.standardInputFailed.description == "standard input failed")
    }
}
