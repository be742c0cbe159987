import Foundation
import TestSupport
import Testing
@testable import Run

@Suite struct AtomicFileTests {
    struct Boom: Error, CustomStringConvertible {
        var description: String { "the renderer failed" }
    }

    @Test func writesInPiecesAndLeavesNoTemporaryFile() throws {
        let folder = try AuditBinary.temporaryDirectory()
        try AtomicFile.write(named: "report.json", in: folder) { emit in
            try emit(Data("{\"a\":".utf8))
            try emit(Data())
            try emit(Data("1}".utf8))
        }
        #expect(try String(contentsOf: folder.appendingPathComponent("report.json"), encoding: .utf8) == "{\"a\":1}")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["report.json"])
    }

    @Test func aFailedWriteKeepsTheEarlierFileWhole() throws {
        let folder = try AuditBinary.temporaryDirectory()
        try AtomicFile.write(named: "report.md", in: folder) { emit in try emit(Data("good".utf8)) }
        do {
            try AtomicFile.write(named: "report.md", in: folder) { emit in
                try emit(Data("half of a new".utf8))
                throw Boom()
            }
            Issue.record("the write must fail")
        } catch {
            #expect(error.description == "cannot write \(folder.appendingPathComponent("report.md").path): the renderer failed")
        }
        #expect(try String(contentsOf: folder.appendingPathComponent("report.md"), encoding: .utf8) == "good")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["report.md"], "no temporary file left")
    }

    @Test func anUnwritableFolderSaysWhy() throws {
        let folder = try AuditBinary.temporaryDirectory().appendingPathComponent("missing")
        do {
            try AtomicFile.write(named: "report.json", in: folder) { emit in try emit(Data("x".utf8)) }
            Issue.record("the write must fail")
        } catch {
            #expect(error.path == folder.path)
            #expect(error.reason == "cannot open the folder (No such file or directory)")
        }
    }

    @Test func aFolderCannotBeCreatedInsideAFile() throws {
        let file = try AuditBinary.temporaryDirectory().appendingPathComponent("file")
        try Data().write(to: file)
        #expect(throws: ReportWriteError.self) { try ReportStore(root: file.appendingPathComponent("reports").path).newRunFolder(startedAt: Date()) }
    }
}

@Suite struct FolderCreationTests {
    /// The system's reason, not Foundation's "The operation could not be completed. The file doesn't exist.".
    @Test func aFolderThatCannotBeCreatedGivesTheSystemsReason() throws {
        let error = #expect(throws: ReportWriteError.self) { try AtomicFile.createFolder(URL(fileURLWithPath: "/proc/aasa-audit-test/out")) }
        #expect(error?.description == "cannot write /proc/aasa-audit-test/out: cannot create the folder at /proc/aasa-audit-test (No such file or directory)")
    }
}
