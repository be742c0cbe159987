import AASA
import Audit
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Numbers at the edge of Int64 in reports the tool reads back (the third red-team round): each
/// reproduction ends with a clear message and no signal, leaves nothing behind, and the next run works.
@Suite struct HostileReportNumbersTests {
    static let generatedAt = Date(timeIntervalSince1970: 1_800_000_000)

    /// A one-domain report (a shard when `shard`), its certificate expiring 60 days after its start.
    static func report(shard: Shard? = Shard(index: 1, count: 1)) -> AuditReport {
        let certificate = ServerCertificate(subject: "CN=a.test", issuer: "Test CA", subjectAltNames: ["a.test"], notBefore: nil,
                                            notAfter: generatedAt.addingTimeInterval(60 * 86_400))
        let location = LocationResult(path: AASAFile.wellKnownPath, url: "https://a.test" + AASAFile.wellKnownPath, verdict: .pass,
                                      httpStatus: 200, contentType: "application/json", headers: [], bytes: BodySize(),
                                      redirect: nil, tls: TLSConnection(version: "TLSv1.3", certificate: certificate),
                                      timings: TransferTimings(totalMs: 10), error: nil, body: "{}", findings: [])
        var report = AuditReport(tool: ToolInfo(name: "aasa-audit", version: "test"), generatedAt: generatedAt,
                                 domains: [DomainResult(domain: "a.test", verdict: .pass, usedLocation: AASAFile.wellKnownPath,
                                                        findings: [], locations: [location])])
        report.shard = shard
        return report
    }

    /// `report` as report.json with `change` made to its JSON object.
    static func json(_ report: AuditReport, _ change: (inout [String: Any]) -> Void) throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        var object = try #require(try JSONSerialization.jsonObject(with: try encoder.encode(report)) as? [String: Any])
        change(&object)
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }

    static func setFirstDomain(_ object: inout [String: Any], _ body: (inout [String: Any]) -> Void) {
        var domains = object["domains"] as? [[String: Any]] ?? []
        body(&domains[0])
        object["domains"] = domains
    }

    /// The crafted reports: how each is changed and the reason the tool gives.
    static let crafted: [(name: String, reason: String, change: @Sendable (inout [String: Any]) -> Void)] = [
        ("daysLeft", "certificate.daysLeft is -9223372036854775808, outside ±4000000 days at .domains[0]", { object in
            setFirstDomain(&object) { domain in
                var certificate = domain["certificate"] as? [String: Any] ?? [:]
                certificate["daysLeft"] = Int64.min
                domain["certificate"] = certificate
            }
        }),
        ("pass", "summary.pass is 9223372036854775807, outside 0…2147483647", { object in
            var summary = object["summary"] as? [String: Any] ?? [:]
            summary["pass"] = Int64.max
            object["summary"] = summary
        }),
        ("omitted", "inputErrorsOmitted is 9223372036854775807, outside 0…2147483647", { object in object["inputErrorsOmitted"] = Int64.max }),
        ("date", "not a date (ISO 8601, as aasa-audit writes)", { object in object["generatedAt"] = "+292277026596-12-04T15:30:07Z" }),
    ]

    static func status(_ outcome: ShellCommand.Outcome) -> String { "status \(outcome.status): \(outcome.stdout)\(outcome.stderr)" }

    /// Leftover temporary files of the tool's own pattern in `folder`.
    static func temporaries(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.contains(".tmp-") }
    }

    @Test func mergeOfACraftedShardIsRefusedAndTheNextMergeWorks() throws {
        let folder = try AuditBinary.temporaryDirectory()
        try Self.json(Self.report()) { _ in }.write(to: folder.appendingPathComponent("good.json"))
        for (name, reason, change) in Self.crafted {
            try Self.json(Self.report(), change).write(to: folder.appendingPathComponent("\(name).json"))
            let merge = try AuditBinary.run(["merge", "\(name).json", "--out", "out-\(name)", "--no-history"], in: folder)
            #expect(merge.status == 2, "\(name): \(Self.status(merge))")
            #expect(merge.stderr.contains(reason), "\(name): \(merge.stderr)")
            #expect(Self.temporaries(in: folder.appendingPathComponent("out-\(name)")).isEmpty)
            let next = try AuditBinary.run(["merge", "good.json", "--out", "out-\(name)", "--no-history"], in: folder)
            #expect(next.status == 0, "\(name), the merge after: \(Self.status(next))")
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out-\(name)/report.json").path))
        }
    }

    @Test func aCraftedBaselineIsAWarningAndTheReportIsWritten() throws {
        let sites = try LocalSites.shared.get()
        let folder = try AuditBinary.temporaryDirectory()
        for (name, reason, change) in Self.crafted {
            try Self.json(Self.report(shard: nil), change).write(to: folder.appendingPathComponent("\(name).json"))
            let audit = try AuditBinary.run(
                ["good.test", "--baseline", "\(name).json", "--cacert", sites.certificateAuthority.certificatePath, "--no-cdn",
                 "--timeout", "3", "--connect-timeout", "2", "--out", "out-\(name)", "--no-history"] + sites.connectToArguments, in: folder)
            #expect(audit.status == 0, "\(name): \(Self.status(audit))")
            #expect(audit.stderr.contains("warning: ") && audit.stderr.contains(reason), "\(name): \(audit.stderr)")
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out-\(name)/report.json").path))
        }
    }

    /// `history import` of a crafted report is refused with its reason; the history still works for
    /// the runs after (before, every later run of the list trapped on the trend's sums).
    @Test func aCraftedReportIsNotImportedAndTheHistoryKeepsWorking() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let history = folder.appendingPathComponent("history.sqlite").path
        for (name, reason, change) in Self.crafted {
            try Self.json(Self.report(shard: nil), change).write(to: folder.appendingPathComponent("\(name).json"))
            let imported = try AuditBinary.run(["history", "import", "\(name).json", "--history", history], in: folder)
            #expect(imported.status == 2 && imported.stderr.contains(reason), "\(name): \(Self.status(imported))")
        }
        try Self.json(Self.report(shard: nil)) { _ in }.write(to: folder.appendingPathComponent("good.json"))
        let good = try AuditBinary.run(["history", "import", "good.json", "--history", history], in: folder)
        #expect(good.status == 0 && good.stdout.contains("imported 1 report"), "\(Self.status(good))")
        let shown = try AuditBinary.run(["history", "--history", history], in: folder)
        #expect(shown.status == 0 && shown.stdout.contains("1 domain: 1 pass"), "\(Self.status(shown))")
        // A following merge recorded in the same history reads its trend.
        try Self.json(Self.report()) { object in object["generatedAt"] = "2027-01-16T08:00:00Z" }.write(to: folder.appendingPathComponent("next.json"))
        let merge = try AuditBinary.run(["merge", "next.json", "--out", "out", "--history", history], in: folder)
        #expect(merge.status == 0 && !merge.stderr.contains("warning"), "\(Self.status(merge))")
    }

    /// What a merge killed while staging left in --out (`.report.json.tmp-` and 16 hex digits, older
    /// than the next run) is removed by the next run; nothing else is.
    @Test func leftoversOfAKilledMergeAreRemovedByTheNextRunAndNothingElse() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let out = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let leftovers = [".report.json.tmp-0123456789abcdef", ".report.html.tmp-fedcba9876543210"]
        let kept = [".report.json.tmp-0123", ".report.json.tmp-0123456789ABCDEF", ".notes.txt.tmp-0123456789abcdef", "report.json.tmp-0123456789abcdef",
                    "mine.txt"]
        for name in leftovers + kept { try Data("x".utf8).write(to: out.appendingPathComponent(name)) }
        // A link of the pattern is never followed nor removed.
        try FileManager.default.createSymbolicLink(atPath: out.appendingPathComponent(".report.md.tmp-00000000000000aa").path,
                                                   withDestinationPath: folder.appendingPathComponent("mine.txt").path)
        let old = Date().addingTimeInterval(-60)
        for name in leftovers + kept { try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: out.appendingPathComponent(name).path) }
        try Self.json(Self.report()) { _ in }.write(to: folder.appendingPathComponent("good.json"))
        let merge = try AuditBinary.run(["merge", "good.json", "--out", "out", "--no-history"], in: folder)
        #expect(merge.status == 0, "\(Self.status(merge))")
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: out.path))
        for name in leftovers { #expect(!left.contains(name), "\(name) left") }
        for name in kept + [".report.md.tmp-00000000000000aa"] { #expect(left.contains(name), "\(name) removed") }
    }
}
