import Audit
import Foundation
import TestSupport
import Testing
@testable import Run

/// One run at a time per reports folder (issue 33): the lock, who holds it, and `latest` moving
/// only forward.
@Suite struct RunLockTests {
    static let started = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func aSecondRunIsToldWhoHoldsTheFolderAndTheLockGoesWithItsHolder() throws {
        let folder = try AuditBinary.temporaryDirectory().appendingPathComponent("reports").path
        var first: RunLock? = try RunLock.acquire(folder: folder, wait: 0, signal: { nil })
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [], "the folder was made, and nothing put in it")
        let me = RunLock.Holder(processID: getpid(), startedAt: RunLock.startTime(of: getpid())?.formatted(.iso8601), host: RunLock.hostName)
        #expect(me.startedAt != nil && me.host != nil)
        #expect(throws: RunLock.Failure.held(folder: folder, holder: me, waited: 0), "the kernel names the holder: this process") {
            try RunLock.acquire(folder: folder, wait: 0, signal: { nil })
        }
        #expect(throws: RunLock.Failure.stopped(signal: 15), "a signal ends the wait") {
            try RunLock.acquire(folder: folder, wait: 3600, signal: { 15 })
        }
        withExtendedLifetime(first) {}
        first = nil
        #expect(!FileManager.default.fileExists(atPath: folder), "the folder it made is removed, still empty")
        let second = try RunLock.acquire(folder: folder, wait: 0, signal: { nil })
        withExtendedLifetime(second) {}
    }

    @Test func theHolderIsNamedInWords() {
        #expect(RunLock.Holder(processID: 42, startedAt: "2026-12-01T21:00:00Z", host: "night-1").description
                == "process 42 on night-1, started 2026-12-01T21:00:00Z")
        #expect(RunLock.Holder(processID: nil, startedAt: nil, host: nil).description == "process (unknown)")
    }

    @Test func aFolderThatCannotBeMadeIsUnusable() throws {
        let file = try AuditBinary.temporaryDirectory().appendingPathComponent("plain")
        try Data().write(to: file)
        #expect {
            try RunLock.acquire(folder: file.path + "/reports", wait: 0, signal: { nil })
        } throws: { error in
            if case .unusable = error as? RunLock.Failure { true } else { false }
        }
    }

    /// A slower run that started earlier (an older folder name) never moves `latest` back.
    @Test(arguments: [
        ("20270115T080000Z", "20270115T080001Z", true),
        ("20270115T080001Z", "20270115T080000Z", false),
        ("20270115T080000Z", "20270115T080000Z-1", true),
        ("20270115T080000Z-2", "20270115T080000Z-1", false),
        ("20270115T080000Z-2", "20270115T080000Z-10", true),
        ("20270115T080000Z", "20270115T080000Z", true),
    ])
    func latestMovesOnlyToANewerRun(latest: String, written: String, moves: Bool) throws {
        let store = ReportStore(root: try AuditBinary.temporaryDirectory().appendingPathComponent("reports").path)
        try FileManager.default.createDirectory(atPath: store.root + "/" + latest, withIntermediateDirectories: true)
        try store.markLatest(URL(fileURLWithPath: store.root + "/" + latest))
        #expect(store.isNewerThanLatest(written) == moves)
    }

    @Test func withoutALatestAnyRunIsNewer() throws {
        let store = ReportStore(root: try AuditBinary.temporaryDirectory().appendingPathComponent("reports").path)
        #expect(store.isNewerThanLatest("20270115T080000Z"))
    }
}
