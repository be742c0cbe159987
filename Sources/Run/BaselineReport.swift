import Audit
import Foundation

/// The earlier report a run is compared with: `--baseline FILE`, or by default (without `--out`)
/// the report the store's `latest` points at. Read before the run writes anything, since the run
/// moves `latest`.
public struct BaselineReport: Sendable {
    /// The baseline without its domains (its facts: start, shard, completeness).
    public var report: AuditReport
    /// What is compared of each of its domains, in file order.
    public var domains: [BaselineDomain]
    /// Where it was read from: the file as given, or `reports/<UTC time>/report.json` for the
    /// default (the folder `latest` pointed to, which stays where it is).
    public var path: String

    /// Which baseline a run asks for.
    public enum Choice: Sendable, Equatable {
        /// `--no-baseline`, or `--out` without `--baseline`: compare with nothing.
        case none
        /// `--baseline FILE`.
        case file(String)
        /// The report `latest` of this store points at, when there is one.
        case latest(ReportStore)

        /// The choice the options make: `--no-baseline` wins, then `--baseline FILE`, then the
        /// store's latest report when the reports go to the store.
        public init(file: String?, noBaseline: Bool, output: ReportOutput.Destination) {
            if noBaseline {
                self = .none
            } else if let file {
                self = .file(file)
            } else if case .store(let store) = output {
                self = .latest(store)
            } else {
                self = .none
            }
        }
    }

    /// Why a baseline could not be used; the run goes on without one.
    public struct Problem: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "cannot use the baseline \(path): \(reason); the reports will not say what changed" }
    }

    /// The baseline `choice` names: nil when there is none to use (none asked for, none by default);
    /// a `Problem` when one was asked for, or found by default, and cannot be read.
    public static func load(_ choice: Choice) -> Result<BaselineReport, Problem>? {
        let path: String
        switch choice {
        case .none: return nil
        case .file(let given): path = given
        case .latest(let store):
            guard let found = store.defaultBaselinePath else { return nil }
            path = found
        }
        // Read one domain at a time, each reduced to the essentials: a baseline is held for the whole run.
        switch ReportFile.loadBaseline(path) {
        case .success(let (report, domains)): return .success(BaselineReport(report: report, domains: domains, path: path))
        case .failure(let problem): return .failure(Problem(path: path, reason: problem.description))
        }
    }
}
