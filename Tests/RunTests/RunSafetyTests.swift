import Audit
import Fetching
import Foundation
import Reporting
import TestSupport
import Testing
@testable import Run
#if canImport(Glibc)
import Glibc
#endif

/// When `latest` moves, what a one-off check compares with, the output folder found unwritable
/// before the fetch, and the files a run is given that are not regular files.
@Suite(.serialized) struct RunSafetyTests {
    static func report(domains: [String], complete: Bool = true) -> AuditReport {
        let results = domains.map { DomainResult(domain: $0, verdict: .fail, usedLocation: nil, findings: [], locations: []) }
        let tool = ToolInfo(name: "aasa-audit", version: "0.1.0"), time = Date(timeIntervalSince1970: 0)
        return complete ? AuditReport(tool: tool, generatedAt: time, domains: results)
            : AuditReport(tool: tool, generatedAt: time, domains: results, notAudited: ["x.example"])
    }

    // MARK: - When latest moves

    @Test func latestMovesOnlyForACompleteRunOfTheListThatAuditedADomain() {
        let store = ReportOutput(destination: .store(ReportStore(root: "r")))
        #expect(store.movesLatest(for: Self.report(domains: ["a.example"])))
        #expect(!store.movesLatest(for: Self.report(domains: [])), "zero domains audited")
        #expect(!store.movesLatest(for: Self.report(domains: ["a.example"], complete: false)), "interrupted")
        var oneOff = store
        oneOff.updatesLatest = false
        #expect(!oneOff.movesLatest(for: Self.report(domains: ["a.example"])), "a one-off check")
        #expect(!ReportOutput(destination: .folder("out")).movesLatest(for: Self.report(domains: ["a.example"])), "--out")
    }

    static func run(_ domains: AuditRun.Domains, in folder: URL, baseline: BaselineReport.Choice? = nil,
                    caFile: String? = nil, stop: StopSwitch? = nil) -> (AuditOutcome, RecordingObserver, ReportStore) {
        let store = ReportStore(root: folder.appendingPathComponent("reports").path)
        let fetch = FetchOptions(userAgent: "aasa-audit/test", caFile: caFile, connectTo: ["::127.0.0.1:9"], connectTimeout: 2,
                                 totalTimeout: 4, concurrency: 4)
        let run = AuditRun(domains: domains, fetch: fetch, audit: AuditSettings(userAgent: "aasa-audit/test"),
                           baseline: baseline ?? .latest(store), output: ReportOutput(destination: .store(store), formats: [.json]),
                           tool: ToolInfo(name: "aasa-audit", version: "0.1.0"))
        let observer = RecordingObserver()
        return (run.run(observer: observer, stop: stop, signal: { stop?.isStopped == true ? SIGINT : nil }), observer, store)
    }

    @Test func aOneOffCheckWritesUnderReportsButNeitherMovesLatestNorComparesWithIt() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let list = folder.appendingPathComponent("domains.txt")
        try Data("a.example\nb.example\n".utf8).write(to: list)
        let (night, _, store) = Self.run(.file(list.path, given: true), in: folder)
        let nightFolder = try #require(night.directory).lastPathComponent
        #expect(store.latestFolderName == nightFolder)

        let (oneOff, observer, _) = Self.run(.arguments(["partner.example"]), in: folder)
        let oneOffFolder = try #require(oneOff.directory)
        #expect(oneOffFolder.lastPathComponent != nightFolder)
        #expect(FileManager.default.fileExists(atPath: oneOffFolder.appendingPathComponent("report.json").path))
        #expect(store.latestFolderName == nightFolder, "latest stays on the run of the list")
        #expect(oneOff.report?.changes == nil, "not compared with the list's baseline")
        #expect(observer.events == [.oneOffCheck(storeRoot: store.root, hostsFromEntitlements: false, notCompared: true)])

        // --baseline FILE: compared, still not the latest.
        let baseline = "\(store.root)/\(nightFolder)/report.json"
        let (compared, comparedObserver, _) = Self.run(.arguments(["a.example"]), in: folder, baseline: .file(baseline))
        #expect(compared.report?.changes?.baselinePath == baseline)
        #expect(comparedObserver.events.first == .oneOffCheck(storeRoot: store.root, hostsFromEntitlements: false, notCompared: false))
        #expect(store.latestFolderName == nightFolder)

        // The next run of the list compares with the previous run of the list, not the one-off checks.
        let (next, nextObserver, _) = Self.run(.file(list.path, given: true), in: folder)
        #expect(next.report?.changes?.baselinePath == baseline)
        #expect(next.report?.changes?.domainsRemoved.isEmpty == true && next.report?.changes?.domainsAdded.isEmpty == true)
        #expect(!nextObserver.events.contains { if case .oneOffCheck = $0 { true } else { false } })
        #expect(store.latestFolderName == next.directory?.lastPathComponent)
    }

    @Test func aListWithNoDomainToAuditNeverMovesLatest() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let list = folder.appendingPathComponent("domains.txt")
        try Data("a.example\n".utf8).write(to: list)
        let (night, _, store) = Self.run(.file(list.path, given: true), in: folder)
        let nightFolder = try #require(night.directory).lastPathComponent
        try Data("not a domain\nhelp\n".utf8).write(to: list)
        let (empty, observer, _) = Self.run(.file(list.path, given: true), in: folder)
        #expect(empty.status == .usageOrInputError)
        #expect(empty.report?.domains.isEmpty == true && empty.report?.complete == true && empty.directory != nil)
        #expect(store.latestFolderName == nightFolder)
        #expect(observer.events.contains(.latestNotMovedNothingAudited(storeRoot: store.root)), "\(observer.events)")
    }

    // MARK: - Output folders that cannot be written, found before the fetch


    @Test func anUnwritableFolderIsFoundBeforeTheFetchWithTheSystemsReason() throws {
        // A read-only tmpfs: root ignores file permissions, a read-only mount it cannot.
        let scratch = try ScratchFileSystem.readOnly()
        defer { scratch.unmount() }
        let point = scratch.mountPoint
        for path in [point.path, point.appendingPathComponent("reports/deeper").path] {
            #expect(throws: ReportWriteError.self) { try ReportOutput(destination: .folder(path)).checkWritable() }
            do {
                try ReportOutput(destination: .folder(path)).checkWritable()
            } catch {
                #expect(error.path == path && error.reason.contains("Read-only file system"), "\(error)")
            }
        }
        // The run: refused before the fetch (no "fetching" line), nothing written.
        let store = ReportStore(root: point.appendingPathComponent("reports").path)
        let run = AuditRun(domains: .arguments(["a.example"]), fetch: FetchOptions(userAgent: "t", connectTo: ["::127.0.0.1:9"]),
                           audit: AuditSettings(), baseline: .none, output: ReportOutput(destination: .store(store)),
                           tool: ToolInfo(name: "aasa-audit", version: "0.1.0"))
        let observer = RecordingObserver()
        let outcome = run.run(observer: observer)
        #expect(outcome.status == .usageOrInputError && outcome.report == nil)
        #expect(!observer.lines.contains { $0.hasPrefix("fetching") }, "\(observer.lines)")
        #expect(observer.events.last == .outputUnwritable(ReportWriteError(path: store.root, reason: "cannot create it in \(point.path) (Read-only file system)"),
                                                          before: .audit), "\(observer.events)")
    }

    @Test func aMergeFindsAnUnwritableFolderBeforeWriting() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let files = [try MergeRunTests.shard(1, of: 1, [.pass], in: folder)]
        let file = folder.appendingPathComponent("reports")
        try Data("x".utf8).write(to: file)
        let (outcome, observer, _) = MergeRunTests.merge(files, in: folder)
        #expect(outcome.status == .usageOrInputError && outcome.directory == nil)
        #expect(observer.events == [.outputUnwritable(ReportWriteError(path: file.path, reason: "\(file.path) is not a folder"), before: .merge)],
                "\(observer.events)")
    }

    @Test func aFileWhereAFolderIsExpectedAndAWritableFolder() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let file = folder.appendingPathComponent("file")
        try Data("x".utf8).write(to: file)
        do {
            try ReportOutput(destination: .folder(file.appendingPathComponent("out").path)).checkWritable()
            Issue.record("a folder inside a file was accepted")
        } catch {
            #expect(error.reason == "\(file.path) is not a folder", "\(error)")
        }
        do {
            try ReportOutput(destination: .folder(file.path)).checkWritable()
            Issue.record("a file was accepted as the folder")
        } catch {
            #expect(error.reason == "\(file.path) is not a folder", "\(error)")
        }
        // Writable: nothing is created, nothing left behind.
        try ReportOutput(destination: .folder(folder.appendingPathComponent("new/out").path)).checkWritable()
        try ReportOutput(destination: .folder(folder.path)).checkWritable()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["file"])
    }

    // MARK: - Files that are not regular files

    @Test func theDomainListSaysWhyItCannotBeRead() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let missing = folder.appendingPathComponent("nope.txt").path
        #expect(throws: DomainListFile.ReadError.unreadable(missing, reason: "No such file or directory")) { try DomainListFile.read(missing) }
        #expect(throws: DomainListFile.ReadError.unreadable(folder.path, reason: "it is a folder, not a file")) { try DomainListFile.read(folder.path) }
        #expect(throws: DomainListFile.ReadError.unreadable("/dev/zero", reason: "it is a device, not a regular file")) {
            try DomainListFile.read("/dev/zero")
        }
        let inFile = folder.appendingPathComponent("f")
        try Data().write(to: inFile)
        #expect(throws: DomainListFile.ReadError.unreadable(inFile.path + "/x", reason: "Not a directory")) { try DomainListFile.read(inFile.path + "/x") }
    }

    @Test func aPipeIsReadToItsEndAndAFIFOWithoutWriterWaitsOnlyUntilStopped() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let fifo = folder.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // Nobody writes: the wait ends when the switch flips, and says it is waiting first.
        let stop = StopSwitch()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.6) { stop.stop() }
        let started = Date()
        var told = false
        #expect(throws: DomainListFile.ReadError.stopped(fifo)) {
            try DomainListFile.read(fifo, stop: stop, waitingNoticeSeconds: 0.2) { told = true }
        }
        // A bound on a hang, not a speed target (speed is `make bench`'s): without the switch the
        // read would wait forever; the switch flips at 0.6 s.
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(told)
        // A writer: read to its end.
        let writer = Thread {
            let fd = open(fifo, O_WRONLY)
            _ = "a.example\nb.example\n".withCString { Glibc.write(fd, $0, 20) }
            close(fd)
        }
        writer.start()
        #expect(try DomainListFile.read(fifo, stop: StopSwitch()) == Data("a.example\nb.example\n".utf8))
    }

    @Test func aFIFOAsCAFileIsRefusedAtOnce() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let fifo = folder.appendingPathComponent("ca.pem").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let started = Date()
        let (outcome, observer, store) = Self.run(.arguments(["a.example"]), in: folder, caFile: fifo)
        #expect(outcome.status == .usageOrInputError)
        #expect(observer.events == [.caFileUnusable(path: fifo, problem: "it is a pipe (FIFO), not a regular file")])
        #expect(Date().timeIntervalSince(started) < 2)
        #expect(!FileManager.default.fileExists(atPath: store.root))
        let (device, deviceObserver, _) = Self.run(.arguments(["a.example"]), in: folder, caFile: "/dev/zero")
        #expect(device.status == .usageOrInputError)
        #expect(deviceObserver.events == [.caFileUnusable(path: "/dev/zero", problem: "it is a device, not a regular file")])
    }

    @Test func aSignalWhileWaitingForTheListEndsTheRunWithNothingWritten() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let fifo = folder.appendingPathComponent("domains.txt").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let stop = StopSwitch()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { stop.stop() }
        let (outcome, observer, store) = Self.run(.file(fifo, given: true), in: folder, stop: stop)
        #expect(outcome.status == .interrupted && outcome.report == nil)
        #expect(observer.events == [.stopped(.interrupt, .waitingForDomainList(path: fifo))] && observer.lines.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: store.root))
    }
}
