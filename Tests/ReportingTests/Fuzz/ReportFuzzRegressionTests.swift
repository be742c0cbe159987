import Audit
import Foundation
@testable import Reporting
import Testing

/// The report target's crashers (scripts/fuzz.sh report) and the third red-team round's crafted
/// reports, replayed: each is refused when decoded with the field out of range named, or decodes
/// and goes through everything the tool does with a report read back, without a trap.
@Suite struct ReportFuzzRegressionTests {
    static let inputs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Inputs")

    /// Input file, and the field decoding refuses (nil: it decodes, and is rendered, merged, compared).
    static let cases: [(file: String, refused: String?)] = [
        ("crash-days-left-int64-min.json", "certificate.daysLeft is -9223372036854775808, outside ±4000000 days"),
        ("crash-location-days-left-int64-min.json", "locations[0].tls.certificate.daysLeft is -9223372036854775808"),
        ("crash-summary-pass-int64-max.json", "summary.pass is 9223372036854775807, outside 0…2147483647"),
        ("crash-input-errors-omitted-int64-max.json", "inputErrorsOmitted is 9223372036854775807, outside 0…2147483647"),
        ("crash-trend-pass-int64-max.json", "history.trend[0].pass is 9223372036854775807"),
        ("crash-timing-1e300.json", "locations[0].timings.totalMs is 1e+300, outside 0…10^12 ms"),
        ("crash-changes-days-left.json", "changes.certificates[0].daysLeftBefore is -9223372036854775808"),
        ("crash-dates-far-apart.json", nil),
    ]

    @Test(arguments: cases)
    func replay(_ file: String, refused: String?) throws {
        let data = try Data(contentsOf: Self.inputs.appendingPathComponent(file))
        do {
            let report = try JSONReporter.decode(data)
            #expect(refused == nil, "\(file) decoded")
            Self.exercise(report)
        } catch let error as DecodingError {
            guard case .dataCorrupted(let context) = error, let range = context.underlyingError as? ReportValueOutOfRange else {
                Issue.record("\(file): \(error)")
                return
            }
            #expect(refused.map { range.description.hasPrefix($0) } == true, "\(file): \(range)")
        }
    }

    /// Every input in the folder is listed above: a crasher added there is replayed.
    @Test func everyInputIsReplayed() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.inputs.path).filter { $0.hasSuffix(".json") }.sorted()
        #expect(files == Self.cases.map(\.file).sorted())
    }

    /// As Fuzz/ReportTarget.swift does with a decoded report.
    static func exercise(_ report: AuditReport) {
        for format in ReportFormat.allCases { try? format.render(report, policy: ExitPolicy(), to: { _ in }) }
        _ = ConsoleSummary.render(report, colour: true, width: 80, details: true)
        _ = ConsoleSummary.inputProblemLines(report.inputErrors, total: report.inputErrorCount)
        var shard = report
        shard.shard = Shard(index: 1, count: 1)
        _ = try? ReportMerge.merge([ReportMerge.Input(source: "a", report: shard)])
        _ = ReportChanges.between(baseline: report, current: report, baselinePath: "b", expiryWarningDays: 30)
        _ = ReportChanges.between(baseline: ReportChanges.essentials(of: report), current: report, baselinePath: "b", expiryWarningDays: 30)
    }

    /// The arithmetic on such values holds at the edges even when it is reached another way.
    @Test(arguments: [Int.min, Int.min + 1, -1, 0, 1, Int.max])
    func daysLeftTextNeverTraps(_ days: Int) {
        #expect(!Formatting.daysLeftText(days).isEmpty)
    }

    @Test func clampedSumsHoldAtTheEdges() {
        #expect(Int.max.addingClamped(1) == .max && Int.min.addingClamped(-1) == .min && 2.addingClamped(3) == 5)
    }
}
