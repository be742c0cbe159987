import Audit
import Foundation
import Reporting
import TestSupport
import Testing
@testable import Run
#if canImport(Glibc)
import Glibc
#endif

/// Someone who can write into `--out` or `reports/` plants symlinks (and folders) where the tool
/// writes: at temporary names, at final report names, at the next run folder's name, at `latest`'s
/// temporary name. Nothing outside the folder may change, byte for byte, and nothing planted is
/// followed or deleted. Then: a report set is replaced whole or not at all (issue 19, points 1, 9, 10).
@Suite struct PlantedLinkTests {
    static let secret = Data("someone else's file: must stay exactly like this\n".utf8)

    /// A folder to write in and, beside it, an "outside" folder holding `victim` (the secret bytes).
    static func setUp() throws -> (folder: URL, outside: URL, victim: URL) {
        let base = try AuditBinary.temporaryDirectory()
        let folder = base.appendingPathComponent("out"), outside = base.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        let victim = outside.appendingPathComponent("victim")
        try secret.write(to: victim)
        return (folder, outside, victim)
    }

    /// The kind of what is at `url`, without following a link.
    static func kind(_ url: URL) -> mode_t? {
        var info = stat()
        return lstat(url.path, &info) == 0 ? info.st_mode & S_IFMT : nil
    }

    static func link(_ url: URL, to target: String) throws {
        try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: target)
    }

    static func text(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    static func expectOutsideUntouched(_ outside: URL, _ victim: URL) throws {
        #expect(try Data(contentsOf: victim) == secret, "the file outside was written")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path) == ["victim"], "something was made outside")
    }

    /// Hands out `planted` names first, then fresh random ones.
    final class Names: @unchecked Sendable {
        private var planted: [String]
        private(set) var given: [String] = []
        init(_ planted: [String]) { self.planted = planted }
        func next(_ name: String) -> String {
            let next = planted.isEmpty ? AtomicFile.temporaryName(for: name) : planted.removeFirst()
            given.append(next)
            return next
        }
    }

    // MARK: Temporary names

    @Test func temporaryNamesAreUnpredictable() {
        let names = (0..<100).map { _ in AtomicFile.temporaryName(for: "report.json") }
        #expect(Set(names).count == 100)
        for name in names {
            #expect(name.hasPrefix(".report.json.tmp-") && name.count == ".report.json.tmp-".count + 16, "\(name)")
            let hexadecimal = name.dropFirst(".report.json.tmp-".count).allSatisfy { $0.isHexDigit }
            #expect(hexadecimal, "\(name)")
            #expect(ReportStore.isReportFile(name), "--keep still recognises a left-over temporary file")
        }
        #expect(!names.contains(".report.json.tmp-\(getpid())"), "no longer the process id")
    }

    @Test func aLinkAtTheTemporaryNameIsNeitherFollowedNorRemoved() throws {
        let (folder, outside, victim) = try Self.setUp()
        let planted = ".report.json.tmp-planted"
        try Self.link(folder.appendingPathComponent(planted), to: victim.path)
        // And the name the tool used before (its process id), as the attacker planted it.
        let old = ".report.json.tmp-\(getpid())"
        try Self.link(folder.appendingPathComponent(old), to: victim.path)
        let names = Names([planted, old])
        let files = StagedFiles(in: try FolderHandle(opening: folder), temporaryName: names.next)
        try files.stage(named: "report.json") { emit in try emit(Data("{\"new\":1}".utf8)) }
        try files.commit()
        #expect(names.given.count == 3, "two planted names taken, a fresh one drawn: \(names.given)")
        try Self.expectOutsideUntouched(outside, victim)
        #expect(try Self.text(folder.appendingPathComponent("report.json")) == "{\"new\":1}")
        #expect(Self.kind(folder.appendingPathComponent("report.json")) == S_IFREG)
        for name in [planted, old] {
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.appendingPathComponent(name).path) == victim.path,
                    "the planted link is not ours to remove")
        }
    }

    @Test func aTemporaryNameAlwaysTakenFailsWithoutWriting() throws {
        let (folder, outside, victim) = try Self.setUp()
        try Self.link(folder.appendingPathComponent(".report.json.tmp-x"), to: victim.path)
        let files = StagedFiles(in: try FolderHandle(opening: folder), temporaryName: { _ in ".report.json.tmp-x" })
        #expect {
            try files.stage(named: "report.json") { emit in try emit(Data("new".utf8)) }
        } throws: { error in
            (error as? ReportWriteError)?.reason.contains("16 fresh temporary names were all taken") == true
        }
        try Self.expectOutsideUntouched(outside, victim)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [".report.json.tmp-x"])
    }

    // MARK: Final names

    /// A link at a final name (to a file outside, or dangling) is replaced by the report: the
    /// rename replaces the link itself, so the reports are ours and the outside is untouched.
    @Test func aLinkAtAFinalNameIsReplacedNotFollowed() throws {
        let (folder, outside, victim) = try Self.setUp()
        try Self.link(folder.appendingPathComponent("report.json"), to: victim.path)
        try Self.link(folder.appendingPathComponent("report.html"), to: outside.appendingPathComponent("made-by-the-tool").path)
        try Self.link(folder.appendingPathComponent("report.md"), to: "../outside/victim")
        let written = try ReportOutput(destination: .folder(folder.path), formats: [.json, .html, .md]).write(ReportStoreTests.report())
        #expect(written.directory.path == folder.path)
        try Self.expectOutsideUntouched(outside, victim)
        for name in ["report.json", "report.html", "report.md"] {
            #expect(Self.kind(folder.appendingPathComponent(name)) == S_IFREG, "\(name) is the report, not a link")
        }
        #expect(try JSONReporter.decode(try Data(contentsOf: folder.appendingPathComponent("report.json"))) == ReportStoreTests.report())
    }

    // MARK: The run folder and latest

    /// Links at the next run folder names — to a folder outside, dangling (issue 19, point 10: it
    /// used to stop the run with exit 2) — are not this run's folder: the next free name is taken,
    /// the links are left, nothing is written through them.
    @Test func linksAtTheNextRunFolderNamesAreSkipped() throws {
        let (folder, outside, victim) = try Self.setUp()
        let store = ReportStore(root: folder.path)
        try Self.link(folder.appendingPathComponent("20270115T080000Z"), to: outside.path)
        try Self.link(folder.appendingPathComponent("20270115T080000Z-1"), to: outside.appendingPathComponent("missing").path)
        try Data("a file".utf8).write(to: folder.appendingPathComponent("20270115T080000Z-2"))
        let written = try ReportOutput(destination: .store(store), formats: [.json, .html]).write(ReportStoreTests.report())
        #expect(written.directory.lastPathComponent == "20270115T080000Z-3")
        try Self.expectOutsideUntouched(outside, victim)
        #expect(try FileManager.default.contentsOfDirectory(atPath: written.directory.path).sorted() == ["report.html", "report.json"])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.appendingPathComponent("latest").path) == "20270115T080000Z-3")
        #expect(Self.kind(folder.appendingPathComponent("20270115T080000Z")) == S_IFLNK)
        #expect(Self.kind(folder.appendingPathComponent("20270115T080000Z-1")) == S_IFLNK)
        #expect(try Self.text(folder.appendingPathComponent("20270115T080000Z-2")) == "a file")
    }

    /// The folder the run created, swapped for a link before it is opened, is refused.
    @Test func aRunFolderSwappedForALinkIsRefused() throws {
        let (folder, outside, victim) = try Self.setUp()
        let root = try FolderHandle(opening: folder)
        try Self.link(folder.appendingPathComponent("20270115T080000Z"), to: outside.path)
        #expect {
            _ = try FolderHandle(named: "20270115T080000Z", in: root)
        } throws: { error in
            (error as? ReportWriteError)?.reason.contains("no longer the folder this run created") == true
        }
        try Self.expectOutsideUntouched(outside, victim)
    }

    @Test func aLinkOrFolderAtLatestsTemporaryNameIsLeftAlone() throws {
        let (folder, outside, victim) = try Self.setUp()
        let store = ReportStore(root: folder.path)
        let run = try store.newRunFolder(startedAt: ReportStoreTests.started)
        try Self.link(folder.appendingPathComponent(".latest.tmp-planted"), to: outside.path)
        // A folder at the name the tool used before (its process id), which it used to delete.
        let old = folder.appendingPathComponent(".latest.tmp-\(getpid())")
        try FileManager.default.createDirectory(at: old, withIntermediateDirectories: true)
        try Data("kept".utf8).write(to: old.appendingPathComponent("someone's"))
        let names = Names([".latest.tmp-planted", ".latest.tmp-\(getpid())"])
        try store.markLatest(run, temporaryName: names.next)
        #expect(names.given.count == 3)
        #expect(store.latestFolderName == run.lastPathComponent)
        try Self.expectOutsideUntouched(outside, victim)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.appendingPathComponent(".latest.tmp-planted").path) == outside.path)
        #expect(try Self.text(old.appendingPathComponent("someone's")) == "kept")
        // The public entry point draws random names: nothing is left behind but `latest`.
        try store.markLatest(run)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
                == [".latest.tmp-\(getpid())", ".latest.tmp-planted", run.lastPathComponent, "latest"])
    }

    /// `latest` pointing outside (planted) is replaced as a link; what it pointed to is untouched.
    @Test func aLatestPointingOutsideIsReplacedNotFollowed() throws {
        let (folder, outside, victim) = try Self.setUp()
        try Self.link(folder.appendingPathComponent("latest"), to: outside.path)
        let store = ReportStore(root: folder.path)
        let written = try ReportOutput(destination: .store(store), formats: [.json]).write(ReportStoreTests.report())
        #expect(store.latestFolderName == written.directory.lastPathComponent)
        try Self.expectOutsideUntouched(outside, victim)
    }

    // MARK: A set replaced whole

    struct Boom: Error, CustomStringConvertible { var description: String { "the renderer failed" } }

    /// Writes `files` (name → text; nil text: the renderer fails) as one set in `folder`.
    static func writeSet(_ files: [(String, String?)], in folder: URL) throws(ReportWriteError) {
        let set = StagedFiles(in: try FolderHandle(opening: folder))
        for (name, text) in files {
            try set.stage(named: name) { emit in
                try emit(Data((text ?? "half of a new").utf8))
                if text == nil { throw Boom() }
            }
        }
        try set.commit()
    }

    @Test func aFailedSetLeavesTheEarlierSetWhole() throws {
        let (folder, _, _) = try Self.setUp()
        try Self.writeSet([("report.json", "json 1"), ("report.html", "html 1")], in: folder)
        #expect(throws: ReportWriteError.self) {
            try Self.writeSet([("report.json", "json 2"), ("report.html", nil)], in: folder)
        }
        #expect(try Self.text(folder.appendingPathComponent("report.json")) == "json 1", "the new JSON was not put in place alone")
        #expect(try Self.text(folder.appendingPathComponent("report.html")) == "html 1")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["report.html", "report.json"])
        try Self.writeSet([("report.json", "json 3"), ("report.html", "html 3")], in: folder)
        #expect(try Self.text(folder.appendingPathComponent("report.json")) == "json 3")
        #expect(try Self.text(folder.appendingPathComponent("report.html")) == "html 3")
    }

    /// A folder at a final name (the one thing a rename cannot replace) refuses the set before any
    /// file is renamed.
    @Test func aFolderAtAFinalNameRefusesTheWholeSet() throws {
        let (folder, _, _) = try Self.setUp()
        try Self.writeSet([("report.json", "json 1")], in: folder)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("report.html"), withIntermediateDirectories: true)
        #expect {
            try Self.writeSet([("report.json", "json 2"), ("report.html", "html 2")], in: folder)
        } throws: { error in
            (error as? ReportWriteError)?.reason == "a folder has that name; the earlier reports were left as they were"
        }
        #expect(try Self.text(folder.appendingPathComponent("report.json")) == "json 1")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["report.html", "report.json"])
    }
}
