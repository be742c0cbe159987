import Audit
import Foundation
import Reporting
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The binary writing its reports where someone planted symlinks, and on a disk that fills up
/// half-way through a set (issue 19, points 1, 9, 10).
@Suite(.serialized) struct ReportSetEndToEndTests {
    static let secret = Data("someone else's file: must stay exactly like this\n".utf8)

    /// A run of a domain list naming `domain` (a list run, so `reports/latest` moves; the list lives
    /// in a folder of its own, outside the file systems these tests fill).
    static func run(_ domain: String, out: String? = nil, in directory: URL? = nil) throws -> ShellCommand.Outcome {
        let sites = try HostileSites.shared.get()
        let list = try AuditBinary.temporaryDirectory().appendingPathComponent("domains.txt")
        try Data("\(domain)\n".utf8).write(to: list)
        return try AuditBinary.run(["--no-cdn", "--cacert", sites.certificateAuthority.certificatePath, "--domains", list.path]
                                   + (out.map { ["--out", $0] } ?? []) + sites.connectToArguments, in: directory)
    }

    /// A folder holding `outside/victim` (the secret bytes).
    static func outside(in base: URL) throws -> (outside: URL, victim: URL) {
        let outside = base.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        let victim = outside.appendingPathComponent("victim")
        try secret.write(to: victim)
        return (outside, victim)
    }

    static func expectUntouched(_ outside: URL, _ victim: URL) throws {
        #expect(try Data(contentsOf: victim) == secret, "the file outside was written")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path) == ["victim"], "something was made outside")
    }

    static func isLink(_ url: URL) -> Bool {
        var info = stat()
        return lstat(url.path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    static func isRegular(_ url: URL) -> Bool {
        var info = stat()
        return lstat(url.path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    // MARK: Planted links

    @Test func linksAtTheReportNamesInOutAreReplacedNotFollowed() throws {
        let base = try AuditBinary.temporaryDirectory()
        let (outside, victim) = try Self.outside(in: base)
        let out = base.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: out.appendingPathComponent("report.json").path, withDestinationPath: victim.path)
        try FileManager.default.createSymbolicLink(atPath: out.appendingPathComponent("report.html").path,
                                                   withDestinationPath: outside.appendingPathComponent("new").path)
        // The temporary names the tool used to use, for the next few process ids.
        let pid = getpid()
        for next in pid..<(pid + 200) {
            for name in ["report.json", "report.html"] {
                try FileManager.default.createSymbolicLink(atPath: out.appendingPathComponent(".\(name).tmp-\(next)").path,
                                                           withDestinationPath: victim.path)
            }
        }
        let outcome = try Self.run(HostileSites.nul, out: out.path)
        #expect(outcome.status != 2 && !outcome.stderr.contains("cannot write"), "\(outcome.stderr)")
        try Self.expectUntouched(outside, victim)
        #expect(Self.isRegular(out.appendingPathComponent("report.json")) && Self.isRegular(out.appendingPathComponent("report.html")))
        let report = try AuditBinary.readReport(at: out.appendingPathComponent("report.json"))
        #expect(report.domains.map(\.domain) == [HostileSites.nul])
        let left = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasPrefix(".") }
        #expect(left.count == 400 && left.allSatisfy { Self.isLink(out.appendingPathComponent($0)) }, "the planted links are left alone")
    }

    /// Dangling links at the next run folder names (the run used to stop with exit 2 on one) and a
    /// link to a folder outside: skipped, never followed.
    @Test func linksAtTheNextRunFolderNamesAreSkipped() throws {
        let base = try AuditBinary.temporaryDirectory()
        let (outside, victim) = try Self.outside(in: base)
        let reports = base.appendingPathComponent("reports")
        try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        var planted: [String] = []
        // Every second the run may start in, and the names for a second run in each.
        for second in -2..<30 {
            let stamp = formatter.string(from: Date().addingTimeInterval(Double(second)))
            for (index, name) in [stamp, "\(stamp)-1"].enumerated() {
                let target = index == 0 ? outside.appendingPathComponent("missing-\(name)").path : outside.path
                try FileManager.default.createSymbolicLink(atPath: reports.appendingPathComponent(name).path, withDestinationPath: target)
                planted.append(name)
            }
        }
        let outcome = try Self.run(HostileSites.nul, in: base)
        #expect(outcome.status != 2 && !outcome.stderr.contains("cannot write"), "\(outcome.stderr)")
        try Self.expectUntouched(outside, victim)
        let latest = try FileManager.default.destinationOfSymbolicLink(atPath: reports.appendingPathComponent("latest").path)
        #expect(latest.hasSuffix("-2"), "the first free name: \(latest)")
        #expect(Self.isRegular(reports.appendingPathComponent(latest).appendingPathComponent("report.json")))
        #expect(planted.allSatisfy { Self.isLink(reports.appendingPathComponent($0)) })
    }

    // MARK: A full disk

    /// The size of the set a run over `absurd.test` writes (about 290 KB of JSON, 50 KB of HTML:
    /// its certificate's 3,001 names).
    static func newSetSizes() throws -> (json: Int, html: Int) {
        let out = try AuditBinary.temporaryDirectory()
        _ = try Self.run(HostileSites.absurdCertificate, out: out.path)
        func size(_ name: String) throws -> Int {
            try FileManager.default.attributesOfItem(atPath: out.appendingPathComponent(name).path)[.size] as? Int ?? 0
        }
        return (try size("report.json"), try size("report.html"))
    }

    static func contents(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return files
    }

    /// `--out DIR` reused: last run's set is there; this run's report.json would fit on the disk,
    /// its HTML would not. The folder must still hold last run's set, byte for byte (it used to hold
    /// the new report.json beside the old report.html); once there is room, the new set whole.
    @Test func aFullDiskKeepsLastRunsSetInOut() throws {
        let sizes = try Self.newSetSizes()
        let page = 4096
        let scratch = try ScratchFileSystem(bytes: 2 << 20)
        defer { scratch.unmount() }
        let point = scratch.mountPoint
        let out = point.appendingPathComponent("out")
        let first = try Self.run(HostileSites.nul, out: out.path)
        #expect(first.status != 2, "\(first.stderr)")
        let previous = try Self.contents(out)
        #expect(previous.keys.sorted() == ["report.html", "report.json"])

        // Room for the new report.json and a page more, not for its HTML besides.
        let keep = (sizes.json / page + 2) * page
        #expect(sizes.html > keep - sizes.json, "the HTML (\(sizes.html) bytes) must not fit beside the JSON (\(sizes.json) in \(keep))")
        let filler = try scratch.fill(leaving: keep)
        let free = scratch.freeBytes
        #expect(free >= sizes.json && free < sizes.json + sizes.html, "free \(free) bytes: the new report.json alone must fit")

        let failed = try Self.run(HostileSites.absurdCertificate, out: out.path)
        print("ReportSetEndToEndTests: --out on a full tmpfs: \(free) bytes free for a new set of \(sizes.json) + \(sizes.html) bytes; "
              + "exit \(failed.status) in \(String(format: "%.2f", failed.seconds)) s")
        #expect(failed.status == 2, "\(failed.stderr)")
        #expect(failed.stderr.contains("cannot write") && failed.stderr.contains("No space left on device"), "\(failed.stderr)")
        #expect(try Self.contents(out) == previous, "the folder no longer holds last run's set whole")

        try FileManager.default.removeItem(at: filler)
        let again = try Self.run(HostileSites.absurdCertificate, out: out.path)
        #expect(again.status != 2, "\(again.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == ["report.html", "report.json"])
        #expect(try AuditBinary.readReport(at: out.appendingPathComponent("report.json")).domains.map(\.domain) == [HostileSites.absurdCertificate])
        #expect(try String(contentsOf: out.appendingPathComponent("report.html"), encoding: .utf8).contains(HostileSites.absurdCertificate))
    }

    /// In `reports/`: a run that cannot write its whole set leaves no run folder (not even an empty
    /// or half-filled one), and `latest` with last run's set as they were.
    @Test func aFullDiskLeavesNoHalfRunFolderInReports() throws {
        let sizes = try Self.newSetSizes()
        let page = 4096
        let scratch = try ScratchFileSystem(bytes: 2 << 20)
        defer { scratch.unmount() }
        let point = scratch.mountPoint
        let first = try Self.run(HostileSites.nul, in: point)
        #expect(first.status != 2, "\(first.stderr)")
        let reports = point.appendingPathComponent("reports")
        let latest = try FileManager.default.destinationOfSymbolicLink(atPath: reports.appendingPathComponent("latest").path)
        let previous = try Self.contents(reports.appendingPathComponent(latest))

        // A new folder takes a page of its own on some file systems: room for it and the JSON.
        _ = try scratch.fill(leaving: (sizes.json / page + 3) * page)
        let failed = try Self.run(HostileSites.absurdCertificate, in: point)
        #expect(failed.status == 2, "\(failed.stderr)")
        #expect(failed.stderr.contains("No space left on device"), "\(failed.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: reports.path).filter { !$0.hasPrefix("history.sqlite") }.sorted() == [latest, "latest"])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: reports.appendingPathComponent("latest").path) == latest)
        #expect(try Self.contents(reports.appendingPathComponent(latest)) == previous)
    }
}
