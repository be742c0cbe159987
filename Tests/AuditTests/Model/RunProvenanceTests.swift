import Foundation
import Testing
@testable import Audit

/// Issue 32 item 8 and 33: a report records where and how it was made, read back range-checked;
/// a merge names its missing shards and keeps its shards' route and threshold.
@Suite struct RunProvenanceTests {
    static let tool = ToolInfo(name: "aasa-audit", version: "0.1.0")

    static func report(_ run: RunProvenance?) -> AuditReport {
        var report = AuditReport(tool: tool, generatedAt: Date(timeIntervalSince1970: 1_800_000_000), domains: [])
        report.run = run
        return report
    }

    static func encoded(_ report: AuditReport) throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(report)
    }

    static func decoded(_ data: Data) throws -> AuditReport {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(AuditReport.self, from: data)
    }

    static let route = RunRoute(connectTo: ["shop.test:443:127.0.0.1:8443"], resolve: [],
                                caFile: .init(path: "ca.pem", sha256: String(repeating: "ab", count: 32)),
                                proxy: "http://proxy.test:3128", proxySource: "https_proxy")

    @Test func readsBackWhatItWrote() throws {
        let report = Self.report(RunProvenance(host: "night-1", exitStatus: 143, durationSeconds: 12.5, route: Self.route))
        #expect(try Self.decoded(Self.encoded(report)).run == report.run)
        #expect(try Self.decoded(Self.encoded(Self.report(nil))).run == nil, "a report written before it was recorded has none")
    }

    /// A number of `run` no run writes makes the report unusable, naming the field (issue 31's rule).
    @Test(arguments: [
        (#""exitStatus":7,"durationSeconds":1"#, "run.exitStatus"),
        (#""exitStatus":-1,"durationSeconds":1"#, "run.exitStatus"),
        (#""exitStatus":0,"durationSeconds":-0.5"#, "run.durationSeconds"),
        (#""exitStatus":0,"durationSeconds":1e300"#, "run.durationSeconds"),
    ])
    func outOfRangeNumbersAreRefused(fields: String, field: String) throws {
        var text = String(decoding: try Self.encoded(Self.report(nil)), as: UTF8.self)
        text.removeLast()
        text += #","run":{"# + fields + "}}"
        #expect {
            try Self.decoded(Data(text.utf8))
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error,
                  let range = context.underlyingError as? ReportValueOutOfRange else { return false }
            return range.field == field
        }
    }

    @Test(arguments: [(#""missingShards":[0]"#, "missingShards[0]"), (#""missingShardsOmitted":-3"#, "missingShardsOmitted")])
    func outOfRangeShardNumbersAreRefused(fields: String, field: String) throws {
        var text = String(decoding: try Self.encoded(Self.report(nil)), as: UTF8.self)
        text.removeLast()
        text += "," + fields + "}"
        #expect {
            try Self.decoded(Data(text.utf8))
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error,
                  let range = context.underlyingError as? ReportValueOutOfRange else { return false }
            return range.field == field
        }
    }

    /// A staging route sends transfers elsewhere than DNS, or trusts a private CA; a proxy alone is none.
    @Test(arguments: [
        (RunRoute(connectTo: ["a:443:b:443"]), true, true),
        (RunRoute(resolve: ["a:443:10.0.0.1"]), true, true),
        (RunRoute(caFile: .init(path: "ca.pem", sha256: nil)), true, true),
        (RunRoute(proxy: "http://p:3128", proxySource: "--proxy"), false, true),
        (RunRoute(), false, false),
    ])
    func stagingRoutes(route: RunRoute, staging: Bool, kept: Bool) {
        #expect(route.isStaging == staging)
        #expect((route.orNilWhenDirect != nil) == kept)
    }

    static func shard(_ index: Int, of count: Int, route: RunRoute? = nil, warningDays: Int = 30) -> ReportMerge.Input {
        var report = AuditReport(tool: tool, generatedAt: Date(timeIntervalSince1970: 1_800_000_000), domains: [])
        report.shard = Shard(index: index, count: count)
        report.expiryWarningDays = warningDays
        if let route { report.run = RunProvenance(host: "pod-\(index)", exitStatus: 0, durationSeconds: 3, route: route) }
        return ReportMerge.Input(source: "shard\(index).json", report: report)
    }

    @Test func aMergedReportNamesEachMissingShard() throws {
        let two = try ReportMerge.merge([Self.shard(1, of: 5), Self.shard(3, of: 5), Self.shard(5, of: 5)]).report
        #expect(two.missingShards == [2, 4] && two.missingShardsOmitted == nil && !two.complete)
        let whole = try ReportMerge.merge([Self.shard(1, of: 2), Self.shard(2, of: 2)]).report
        #expect(whole.missingShards == nil && whole.missingShardsOmitted == nil)
        let many = try ReportMerge.merge([Self.shard(1, of: 1_000)]).report
        #expect(many.missingShards == Array(2...101) && many.missingShardsOmitted == 1_000 - 1 - 100)
    }

    @Test func aMergeKeepsItsShardsRouteAndThreshold() throws {
        let staging = RunRoute(resolve: ["shop.test:443:10.0.0.7"])
        let outcome = try ReportMerge.merge([Self.shard(3, of: 3, route: Self.route, warningDays: 14), Self.shard(1, of: 3, warningDays: 14),
                                             Self.shard(2, of: 3, route: staging, warningDays: 14)])
        #expect(outcome.route == staging, "the first shard by number that used a route")
        #expect(outcome.report.expiryWarningDays == 14, "the shards judged their certificates by 14 days")
        #expect(try ReportMerge.merge([Self.shard(1, of: 1)]).route == nil)
    }
}
