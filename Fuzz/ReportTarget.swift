import Audit
import Foundation
import Reporting

/// libFuzzer entry point for a report.json the tool reads back (`merge` shards, `--baseline`,
/// `history import`): bytes in, decoded as the tool decodes them, then everything the tool does
/// with a decoded report: every format rendered, the console summary, a merge with itself as a
/// shard, the changes against itself as a baseline, the baseline's essentials. A crash, a trap
/// (overflow, bad index), a hang or a huge allocation here is a bug; a decoding error is fine.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReport(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    guard let report = try? JSONReporter.decode(data) else { return 0 }
    ReportExercise.run(report)
    return 0
}

/// What the tool does with a decoded report (ReportFuzzRegressionTests replays crashers the same way).
enum ReportExercise {
    static func run(_ report: AuditReport) {
        for format in ReportFormat.allCases {
            try? format.render(report, policy: ExitPolicy(), to: { _ in })
        }
        _ = ConsoleSummary.render(report, colour: true, width: 80, details: true)
        _ = ConsoleSummary.quietLines(report.domains, program: "aasa-audit", width: 80)
        _ = ConsoleSummary.inputProblemLines(report.inputErrors, total: report.inputErrorCount)
        var shard = report
        shard.shard = Shard(index: 1, count: 1)
        _ = try? ReportMerge.merge([ReportMerge.Input(source: "a", report: shard)])
        _ = ReportChanges.between(baseline: report, current: report, baselinePath: "b", expiryWarningDays: 30)
        _ = ReportChanges.between(baseline: ReportChanges.essentials(of: report), current: report, baselinePath: "b", expiryWarningDays: 30)
        _ = ExitPolicy(strict: true).status(for: report)
    }
}
