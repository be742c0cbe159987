import Audit
import Foundation
import Reporting
import TestSupport
import Testing
@testable import Run

/// A baseline is read one domain at a time, each reduced to what the comparison needs: the same
/// report, and the same errors, as reading it whole and reducing it after.
@Suite struct BaselineStreamingTests {
    static func write(_ data: Data) throws -> String {
        let url = try AuditBinary.temporaryDirectory().appendingPathComponent("report.json")
        try data.write(to: url)
        return url.path
    }

    /// Reports with what a baseline may hold: hostile strings (brackets and quotes in names,
    /// escapes), changes, unfinished domains, no domains at all.
    static let reports: [AuditReport] = {
        var withChanges = HostileReport.report()
        withChanges.changes = HostileReport.changes()
        var none = HostileReport.report()
        none.domains = []
        none.summary = Summary(domains: [])
        var many = HostileReport.report()
        many.domains = (1...30).map(HostileReport.result)
        return [HostileReport.report(), withChanges, none, many]
    }()

    @Test(arguments: reports.indices)
    func readOneDomainAtATimeItIsTheSameBaseline(index: Int) throws {
        let path = try Self.write(try JSONReporter.render(Self.reports[index]))
        let whole = try ReportFile.load(path).get()
        #expect(try ReportFile.loadEssentials(path).get() == ReportChanges.essentials(of: whole))
        // Written compactly too (the splitter follows structure, not layout).
        let compact = try Self.write(try HostileReport.json(Self.reports[index]))
        #expect(try ReportFile.loadEssentials(compact).get() == ReportChanges.essentials(of: try ReportFile.load(compact).get()))
    }

    @Test func piecesOfAnySizeSplitTheSame() throws {
        let data = try JSONReporter.render(HostileReport.report())
        func split(_ size: Int) -> (Data, [Data], [Data]) {
            var splitter = ReportJSONSplitter()
            var elements: [Data] = []
            var bodies: [Data] = []
            data.withUnsafeBytes { raw in
                var start = 0
                while start < raw.count {
                    let end = min(start + size, raw.count)
                    splitter.feed(UnsafeRawBufferPointer(rebasing: raw[start..<end]), take: { elements.append($0) },
                                  takeBody: { bodies.append($0); bodies.append($1) })
                    start = end
                }
            }
            #expect(splitter.isBalanced && !splitter.stray && !splitter.strayBody)
            return (splitter.shell, elements, bodies)
        }
        let (shell, elements, bodies) = split(data.count)
        // Both domains serve the one hostile body: stored once, by its SHA-256, and not in the shell.
        let payload = try #require(HostileReport.report().domains.first?.locations.first?.body)
        #expect(try bodies.map { try JSONDecoder().decode(String.self, from: $0) } == [BodyDigest.sha256(of: payload), payload])
        #expect(String(decoding: shell, as: UTF8.self).contains("\"bodies\" : {}"))
        #expect(elements.count == 2)
        // The domains refer to their bodies, stored once in `bodies` (split apart, kept out of the shell).
        #expect(try elements.map(JSONReporter.decodeDomain) == HostileReport.report().domains.map { $0.bodiesApart { _, _ in } })
        var empty = HostileReport.report()
        empty.domains = []
        #expect(try JSONReporter.decode(shell).domains.isEmpty)
        #expect(try JSONReporter.decode(shell).notAudited == empty.notAudited)
        for size in [1, 2, 3, 7, 64] {
            let (otherShell, otherElements, otherBodies) = split(size)
            #expect(otherShell == shell && otherElements == elements && otherBodies == bodies, "pieces of \(size) bytes")
        }
    }

    @Test func theErrorsAreTheErrorsOfTheWholeReport() throws {
        let good = String(decoding: try JSONReporter.render(HostileReport.report()), as: UTF8.self)
        let cases = [
            "not json",
            "{\"tool\": 3}",
            "{",
            good.replacingOccurrences(of: "\"verdict\" : \"fail\"", with: "\"verdict\" : \"broken\""),
            good.replacingOccurrences(of: "\"schemaVersion\" : \(AuditReport.currentSchemaVersion)", with: "\"schemaVersion\" : 9"),
        ]
        for text in cases {
            let path = try Self.write(Data(text.utf8))
            let whole = ReportFile.load(path).map(ReportChanges.essentials(of:))
            #expect(ReportFile.loadEssentials(path) == whole, "\(text.prefix(40))")
            #expect(throws: (any Error).self) { try whole.get() }
        }
        // A scalar where a domain should be is refused, not skipped.
        let stray = good.replacingOccurrences(of: "\"domains\" : [", with: "\"domains\" : [ 7,")
        #expect(throws: (any Error).self) { try ReportFile.loadEssentials(try Self.write(Data(stray.utf8))).get() }
    }
}
