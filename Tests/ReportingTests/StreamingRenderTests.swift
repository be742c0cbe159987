import Audit
import Foundation
import Testing
@testable import Reporting

/// The piecewise renderers (used for large reports, so they are never held whole) write exactly
/// what the one-piece renderers write.
@Suite struct StreamingRenderTests {
    static let reports: [AuditReport] = {
        var empty = ReportFixtures.small
        empty.domains = []
        empty.summary = Summary(domains: [])
        var sharded = ReportFixtures.report
        sharded.shard = Shard(index: 2, count: 3)
        var many = ReportFixtures.report
        many.domains = (0..<40).flatMap { _ in ReportFixtures.report.domains }
        return [ReportFixtures.report, ReportFixtures.small, empty, sharded, many]
    }()

    @Test(arguments: reports.indices)
    func jsonPiecesEqualOneEncoding(index: Int) throws {
        let report = Self.reports[index]
        var pieces: [Data] = []
        try JSONReporter.render(report) { pieces.append($0) }
        let joined = pieces.reduce(into: Data()) { $0.append($1) }
        let whole = try JSONReporter.renderWhole(report)
        #expect(String(decoding: joined, as: UTF8.self) == String(decoding: whole, as: UTF8.self))
        #expect(try JSONReporter.decode(joined) == report)
        if report.domains.count > 1 { #expect(pieces.count >= report.domains.count, "one piece per domain at least") }
    }

    @Test(arguments: reports.indices)
    func htmlPiecesEqualOneString(index: Int) throws {
        let report = Self.reports[index]
        var pieces: [String] = []
        try HTMLReporter.render(report) { pieces.append($0) }
        #expect(pieces.joined() == HTMLReporter.render(report))
        if report.domains.count > 100 { #expect(pieces.count > 1, "a large report goes out in pieces") }
    }

    struct SinkFailure: Error {}

    @Test func htmlStopsAtTheFirstSinkError() throws {
        var calls = 0
        #expect(throws: SinkFailure.self) {
            try HTMLReporter.render(Self.reports[4]) { _ in
                calls += 1
                throw SinkFailure()
            }
        }
        #expect(calls == 1)
    }
}
