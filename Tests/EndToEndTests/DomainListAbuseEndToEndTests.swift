import Audit
import Foundation
import Testing
import TestSupport

/// `domains.txt` abuse through the binary: files that are too big or binary are refused at once,
/// a million repeats of one domain are one audit, and nothing is ever written outside `--out`.
@Suite struct DomainListAbuseEndToEndTests {
    static let memoryLimitKilobytes = 200 * 1024

    /// Writes `data` as `name` in a fresh folder and runs the audit on it, measured.
    static func audit(_ data: Data, name: String = "domains.txt", extra: [String] = []) throws -> (RunningAudit.Result, URL) {
        let folder = try AuditBinary.temporaryDirectory()
        try data.write(to: folder.appendingPathComponent(name))
        let result = try RunningAudit.measure(["--domains", name, "--out", "out", "--no-cdn", "--timeout", "2"] + extra,
                                              in: folder, limit: 60)
        return (result, folder)
    }

    @Test func aHundredMegabyteFileIsRefusedQuickly() throws {
        // Text, so that only the size stops it: 100 MB of one valid line repeated.
        let line = Data("example.test\n".utf8)
        var data = Data(capacity: 100 << 20)
        while data.count < 100 << 20 { data.append(line) }
        let (result, folder) = try Self.audit(data)
        #expect(result.outcome.status == 2)
        #expect(result.outcome.stderr.contains("is \(data.count) bytes; the limit is 16777216 bytes"), "\(result.outcome.stderr)")
        #expect(result.outcome.seconds < 10)
        #expect(result.peakKilobytes < Self.memoryLimitKilobytes, "peak \(result.peakKilobytes) KB")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path), "no report for a refused list")
    }

    @Test func binaryJunkIsRefusedAsAWhole() throws {
        var generator = SystemRandomNumberGenerator()
        let junk = Data((0..<(1 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) }) + Data([0])
        let (result, _) = try Self.audit(Data("good.test\n".utf8) + junk)
        #expect(result.outcome.status == 2)
        #expect(result.outcome.stderr.contains("holds a NUL byte on line"), "\(result.outcome.stderr)")
        #expect(result.outcome.stderr.contains("binary file"))
    }

    /// How long it takes is `make bench-inputs`' `million-lines` case, not checked here.
    @Test func aMillionLinesOfOneDomainAreOneAudit() throws {
        let sites = try HostileSites.shared.get()
        let data = Data(String(repeating: HostileSites.nul + "\r\n", count: 1_000_000).utf8)
        let (result, folder) = try Self.audit(data, extra: ["--cacert", sites.certificateAuthority.certificatePath] + sites.connectToArguments)
        #expect(result.outcome.status == 1, "\(result.outcome.stderr)")
        #expect(result.outcome.stderr.contains("999999 duplicate lines audited once"))
        #expect(result.peakKilobytes < Self.memoryLimitKilobytes, "peak \(result.peakKilobytes) KB")
        let report = try AuditBinary.readReport(at: folder.appendingPathComponent("out/report.json"))
        #expect(report.domains.map(\.domain) == [HostileSites.nul])
    }

    /// Issue 14 (9) and 19 (6): a list of bad lines made a report as big as the list. Now the first
    /// 1,000 problems are listed and the rest counted, in every format, and the memory stays small.
    @Test func manyBadLinesMakeASmallReport() throws {
        var text = ""
        for index in 0..<200_000 { text += "bad_\(index).test stays=nope\n" }
        let (result, folder) = try Self.audit(Data(text.utf8), extra: ["--format", "json,html,md,junit"])
        #expect(result.outcome.status == 2)
        let lines = result.outcome.stderr.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("aasa-audit: domains.txt:") }.count == 20)
        #expect(lines.contains("aasa-audit: … and 199980 more input errors: report.json lists the first 1000 (inputErrors) and counts the rest (inputErrorsOmitted)"),
                "\(result.outcome.stderr.prefix(3000))")
        #expect(result.peakKilobytes < Self.memoryLimitKilobytes, "peak \(result.peakKilobytes) KB")
        let out = folder.appendingPathComponent("out")
        let report = try AuditBinary.readReport(at: out.appendingPathComponent("report.json"))
        #expect(report.inputErrors.count == 1000)
        #expect(report.inputErrorsOmitted == 199_000)
        #expect(report.inputErrors.last?.line == 1000)
        for name in ["report.json", "report.html", "report.md", "report.junit.xml"] {
            let size = try FileManager.default.attributesOfItem(atPath: out.appendingPathComponent(name).path)[.size] as? Int ?? .max
            #expect(size < 1 << 20, "\(name) is \(size) bytes")
        }
        let html = try String(contentsOf: out.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(html.contains("… and 199000 more input errors"))
    }

    /// Names that would climb out of `--out` if a file name were made from them. None is: the only
    /// files written are report.json and report.html, inside `--out`.
    @Test func namesThatWouldEscapeOutWriteNothingElsewhere() throws {
        let sites = try HostileSites.shared.get()
        let list = ["../escaped.test", "../../escaped.test", "/tmp/escaped.test", "..", "out/../../escaped.test",
                    "https://evil.test/../../escaped", "  \t ", "# ../../etc/passwd", HostileSites.nul].joined(separator: "\r\n")
        let (result, folder) = try Self.audit(Data(list.utf8), extra: ["--cacert", sites.certificateAuthority.certificatePath] + sites.connectToArguments)
        #expect(result.outcome.status == 2, "input errors: \(result.outcome.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["domains.txt", "out"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("out").path).sorted() == ["report.html", "report.json"])
        let report = try AuditBinary.readReport(at: folder.appendingPathComponent("out/report.json"))
        #expect(report.domains.map(\.domain) == ["evil.test", HostileSites.nul])
        #expect(report.inputErrors.map(\.line) == [1, 2, 3, 4, 5])
    }
}
