import Foundation

/// Combines the reports of shards of one domain list (`aasa-audit --shard K/N`) into one report,
/// as if one machine had audited the whole list. Pure: reports in, report out.
///
/// - Every input must be a shard report, all with the same schema version and the same N, no
///   shard twice, no domain in two shards.
/// - Domains are sorted by ASCII name: the original list's order is not in the shard reports, and a
///   sorted order is the same whichever way the list was split.
/// - Input errors (lines of the list that are not domains) are reported by every shard; identical
///   ones are kept once.
/// - `generatedAt` is the earliest shard's; `complete` is true only when every shard 1...N is present
///   and complete; the summary is recomputed; the merged report has no `shard`.
/// - Shards of different tool versions, or started more than `maximumStartSpread` apart, are merged
///   with a warning (`Outcome.warnings`).
public enum ReportMerge {
    /// One input: where it came from (shown in errors) and what it holds.
    public struct Input: Sendable {
        public var source: String
        public var report: AuditReport
        public init(source: String, report: AuditReport) {
            self.source = source
            self.report = report
        }
    }

    /// The merged report, and the shards of 1...N that were not given (the report is then incomplete).
    public struct Outcome: Sendable, Equatable {
        public var report: AuditReport
        /// The first `maxMissingListed` missing shards, in order.
        public var missingShards: [Int]
        /// How many shards of 1...N are missing (may be more than `missingShards` lists).
        public var missingShardCount = 0
        /// The inputs whose run was interrupted (`"complete": false`): the report is then incomplete too.
        public var interruptedSources: [String] = []
        /// What does not stop the merge but may make it misleading: shards written by different
        /// versions of the tool, or started so far apart that one is likely left over from an earlier run.
        public var warnings: [String] = []
    }

    /// Shards started further apart than this are probably not one run (a shard left from the night before).
    public static let maximumStartSpread: TimeInterval = 12 * 3600

    /// Merges `inputs`; throws `ReportMergeError` naming the offending source.
    public static func merge(_ inputs: [Input]) throws(ReportMergeError) -> Outcome {
        guard let first = inputs.first else { throw .noReports }
        guard let firstShard = first.report.shard else { throw .notAShard(source: first.source) }
        var sources: [Int: String] = [:]
        var domainSources: [String: String] = [:]
        var domains: [DomainResult] = []
        var inputErrors: [InputProblem] = []
        var notAudited: [String] = []
        // Every shard repeats the list's input errors, and a list of binary junk has hundreds of
        // thousands: kept once each through a set, not by searching the array (quadratic).
        var seenProblems = Set<ProblemKey>()
        for input in inputs {
            let report = input.report
            guard report.schemaVersion == first.report.schemaVersion else {
                throw .schemaVersionDiffers(source: input.source, found: report.schemaVersion,
                                            expected: first.report.schemaVersion, firstSource: first.source)
            }
            guard let shard = report.shard else { throw .notAShard(source: input.source) }
            guard shard.count == firstShard.count else {
                throw .shardCountDiffers(source: input.source, shard: shard, firstSource: first.source, firstShard: firstShard)
            }
            if let other = sources[shard.index] { throw .duplicateShard(source: input.source, shard: shard, otherSource: other) }
            sources[shard.index] = input.source
            for domain in report.domains {
                if let other = domainSources[domain.domain] {
                    throw .duplicateDomain(domain: domain.domain, source: input.source, otherSource: other)
                }
                domainSources[domain.domain] = input.source
                domains.append(domain)
            }
            // An interrupted shard's unfinished domains stay named in the merged report.
            notAudited += report.notAudited ?? []
            for problem in report.inputErrors where seenProblems.insert(ProblemKey(problem)).inserted {
                inputErrors.append(problem)
            }
        }
        domains.sort { $0.domain < $1.domain }
        // N comes from a file: list at most `maxMissingListed` of the missing shards, found without
        // walking 1...N (N may be huge), and count the rest.
        var missing: [Int] = []
        var candidate = 1
        while candidate <= firstShard.count && missing.count < maxMissingListed {
            if sources[candidate] == nil { missing.append(candidate) }
            candidate += 1
        }
        let missingCount = firstShard.count - sources.count
        let generatedAt = inputs.map(\.report.generatedAt).min() ?? first.report.generatedAt
        let complete = missing.isEmpty && inputs.allSatisfy(\.report.complete)
        var report = AuditReport(tool: first.report.tool, generatedAt: generatedAt, complete: complete,
                                 inputErrors: inputErrors, domains: domains)
        if !notAudited.isEmpty { report.notAudited = notAudited.sorted() }
        // Every shard lists the same first problems of the one list and counts the same rest.
        var omitted = inputs.map { $0.report.inputErrorsOmitted ?? 0 }.max() ?? 0
        if report.inputErrors.count > DomainList.maximumKeptProblems {
            omitted = omitted.addingClamped(report.inputErrors.count - DomainList.maximumKeptProblems)
            report.inputErrors.removeLast(report.inputErrors.count - DomainList.maximumKeptProblems)
        }
        if omitted > 0 { report.inputErrorsOmitted = omitted }
        return Outcome(report: report, missingShards: missing, missingShardCount: missingCount,
                       interruptedSources: inputs.filter { !$0.report.complete }.map(\.source),
                       warnings: warnings(inputs))
    }

    /// At most this many missing shards are named in `Outcome.missingShards`.
    public static let maxMissingListed = 100

    /// An input problem as a set element (`InputProblem` is only Equatable).
    private struct ProblemKey: Hashable {
        var file: String?, line: Int, text: String, reason: String
        init(_ problem: InputProblem) {
            (file, line, text, reason) = (problem.file, problem.line, problem.text, problem.reason)
        }
    }

    /// Differences between the inputs that a person should know about (see `Outcome.warnings`).
    static func warnings(_ inputs: [Input]) -> [String] {
        var warnings: [String] = []
        guard let first = inputs.first else { return warnings }
        if let other = inputs.first(where: { $0.report.tool != first.report.tool }) {
            warnings.append("\(other.source) was written by \(other.report.tool.name) \(other.report.tool.version), "
                            + "\(first.source) by \(first.report.tool.name) \(first.report.tool.version): checks may differ between "
                            + "versions; the merged report names \(first.report.tool.version)")
        }
        if let earliest = inputs.min(by: { $0.report.generatedAt < $1.report.generatedAt }),
           let latest = inputs.max(by: { $0.report.generatedAt < $1.report.generatedAt }),
           latest.report.generatedAt.timeIntervalSince(earliest.report.generatedAt) > maximumStartSpread {
            let hours = Int((latest.report.generatedAt.timeIntervalSince(earliest.report.generatedAt) / 3600).rounded())
            warnings.append("the shards started \(hours) hours apart (\(earliest.source) at "
                            + "\(earliest.report.generatedAt.formatted(.iso8601)), \(latest.source) at "
                            + "\(latest.report.generatedAt.formatted(.iso8601))): is one left over from an earlier run?")
        }
        return warnings
    }
}

/// Why shard reports cannot be merged; each case names the file.
public enum ReportMergeError: Error, Equatable, CustomStringConvertible {
    case noReports
    case notAShard(source: String)
    case schemaVersionDiffers(source: String, found: Int, expected: Int, firstSource: String)
    case shardCountDiffers(source: String, shard: Shard, firstSource: String, firstShard: Shard)
    case duplicateShard(source: String, shard: Shard, otherSource: String)
    case duplicateDomain(domain: String, source: String, otherSource: String)

    public var description: String {
        switch self {
        case .noReports:
            return "no reports to merge (name the report.json of each shard)"
        case .notAShard(let source):
            return "\(source): not a shard report (it was written without --shard K/N, so it covers its whole list already)"
        case .schemaVersionDiffers(let source, let found, let expected, let firstSource):
            return "\(source): schema version \(found), but \(firstSource) has \(expected); rerun the shards with one version of aasa-audit"
        case .shardCountDiffers(let source, let shard, let firstSource, let firstShard):
            return "\(source): shard \(shard), but \(firstSource) is shard \(firstShard); every shard of one run must use the same N"
        case .duplicateShard(let source, let shard, let otherSource):
            return "\(source): shard \(shard) is also in \(otherSource); give each shard once"
        case .duplicateDomain(let domain, let source, let otherSource):
            return "\(source): \(domain) is also in \(otherSource); were the shards run over different lists?"
        }
    }
}
