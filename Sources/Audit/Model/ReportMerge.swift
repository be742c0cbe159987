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
        /// The route of the first shard (by number) whose run used one (`RunProvenance.route`), for
        /// the merged report's own `run`; nil when none did.
        public var route: RunRoute?
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
        var builder = Builder()
        var domains: [DomainResult] = []
        for input in inputs {
            try builder.add(shell: input.report, source: input.source)
            for domain in input.report.domains {
                try builder.add(domain: domain.domain, source: input.source)
                domains.append(domain)
            }
        }
        domains.sort { $0.domain < $1.domain }
        return try builder.finish(domains: domains)
    }

    /// The merge one shard at a time, so the shards' domains need not be held together (`merge`
    /// streams them from the files through a results spool): each shard's report without its
    /// domains (`add(shell:source:)`), then the name of each of its domains (`add(domain:source:)`),
    /// then `finish`. Checks each step as `merge` does, naming the source.
    public struct Builder: Sendable {
        /// What is kept of each shard: not its domains.
        private struct ShardFacts: Sendable {
            var source: String
            var tool: ToolInfo
            var generatedAt: Date
            var complete: Bool
            var inputErrorsOmitted: Int?
            var index: Int
            var expiryWarningDays: Int
            var route: RunRoute?
        }
        private var shards: [ShardFacts] = []
        private var schemaVersion = 0
        private var firstShard: Shard?
        private var sources: [Int: String] = [:]
        private var domainSources: [String: String] = [:]
        private var inputErrors: [InputProblem] = []
        private var notAudited: [String] = []
        // Every shard repeats the list's input errors, and a list of binary junk has hundreds of
        // thousands: kept once each through a set, not by searching the array (quadratic).
        private var seenProblems = Set<ProblemKey>()

        public init() {}

        /// How many shards were added.
        public var shardCount: Int { shards.count }

        /// Adds a shard's report; its `domains` are not looked at (give each with `add(domain:source:)`).
        public mutating func add(shell report: AuditReport, source: String) throws(ReportMergeError) {
            if let first = shards.first, report.schemaVersion != schemaVersion {
                throw .schemaVersionDiffers(source: source, found: report.schemaVersion, expected: schemaVersion, firstSource: first.source)
            }
            guard let shard = report.shard else { throw .notAShard(source: source) }
            if let first = shards.first, let firstShard {
                guard shard.count == firstShard.count else {
                    throw .shardCountDiffers(source: source, shard: shard, firstSource: first.source, firstShard: firstShard)
                }
            } else {
                schemaVersion = report.schemaVersion
                firstShard = shard
            }
            if let other = sources[shard.index] { throw .duplicateShard(source: source, shard: shard, otherSource: other) }
            sources[shard.index] = source
            shards.append(ShardFacts(source: source, tool: report.tool, generatedAt: report.generatedAt, complete: report.complete,
                                     inputErrorsOmitted: report.inputErrorsOmitted, index: shard.index,
                                     expiryWarningDays: report.expiryWarningDays, route: report.run?.route))
            // An interrupted shard's unfinished domains stay named in the merged report.
            notAudited += report.notAudited ?? []
            for problem in report.inputErrors where seenProblems.insert(ProblemKey(problem)).inserted {
                inputErrors.append(problem)
            }
        }

        /// Adds the name of a domain of the shard `source` (added before): no domain in two shards.
        public mutating func add(domain: String, source: String) throws(ReportMergeError) {
            if let other = domainSources.updateValue(source, forKey: domain) {
                domainSources[domain] = other
                throw .duplicateDomain(domain: domain, source: source, otherSource: other)
            }
        }

        /// The merged report's start: the earliest shard's.
        public var generatedAt: Date? { shards.map(\.generatedAt).min() }

        /// The expiry warning threshold of the first shard added: the shards' certificates were judged by it.
        public var expiryWarningDays: Int? { shards.first?.expiryWarningDays }

        /// The route of the first shard (by shard number) that used one: the merged report shows a
        /// staging route when any of its shards was checked through one.
        public var route: RunRoute? {
            shards.compactMap { shard in shard.route.map { (shard.index, $0) } }.min { $0.0 < $1.0 }?.1
        }

        /// The merged report with `domains` (sorted by name; `[]` for a report whose domains are
        /// streamed: its `summary` is then counted by the caller); throws `noReports` when nothing
        /// was added.
        public func finish(domains: [DomainResult]) throws(ReportMergeError) -> Outcome {
            guard let first = shards.first, let firstShard, let generatedAt else { throw .noReports }
            // N comes from a file: list at most `maxMissingListed` of the missing shards, found without
            // walking 1...N (N may be huge), and count the rest.
            var missing: [Int] = []
            var candidate = 1
            while candidate <= firstShard.count && missing.count < maxMissingListed {
                if sources[candidate] == nil { missing.append(candidate) }
                candidate += 1
            }
            let missingCount = firstShard.count - sources.count
            let complete = missing.isEmpty && shards.allSatisfy(\.complete)
            var report = AuditReport(tool: first.tool, generatedAt: generatedAt, complete: complete,
                                     inputErrors: inputErrors, domains: domains)
            if !notAudited.isEmpty { report.notAudited = notAudited.sorted() }
            // Every shard lists the same first problems of the one list and counts the same rest.
            var omitted = shards.map { $0.inputErrorsOmitted ?? 0 }.max() ?? 0
            if report.inputErrors.count > DomainList.maximumKeptProblems {
                omitted = omitted.addingClamped(report.inputErrors.count - DomainList.maximumKeptProblems)
                report.inputErrors.removeLast(report.inputErrors.count - DomainList.maximumKeptProblems)
            }
            if omitted > 0 { report.inputErrorsOmitted = omitted }
            // Named in the report itself, so a reader of report.json sees which shards it lacks.
            if !missing.isEmpty { report.missingShards = missing }
            if missingCount > missing.count { report.missingShardsOmitted = missingCount - missing.count }
            report.expiryWarningDays = first.expiryWarningDays
            return Outcome(report: report, missingShards: missing, missingShardCount: missingCount, route: route,
                           interruptedSources: shards.filter { !$0.complete }.map(\.source),
                           warnings: warnings(shards.map { ($0.source, $0.tool, $0.generatedAt) }))
        }
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
        warnings(inputs.map { ($0.source, $0.report.tool, $0.report.generatedAt) })
    }

    /// `warnings` of the inputs' sources, tools and start times.
    private static func warnings(_ inputs: [(source: String, tool: ToolInfo, generatedAt: Date)]) -> [String] {
        var warnings: [String] = []
        guard let first = inputs.first else { return warnings }
        if let other = inputs.first(where: { $0.tool != first.tool }) {
            warnings.append("\(other.source) was written by \(other.tool.name) \(other.tool.version), "
                            + "\(first.source) by \(first.tool.name) \(first.tool.version): checks may differ between "
                            + "versions; the merged report names \(first.tool.version)")
        }
        if let earliest = inputs.min(by: { $0.generatedAt < $1.generatedAt }),
           let latest = inputs.max(by: { $0.generatedAt < $1.generatedAt }),
           latest.generatedAt.timeIntervalSince(earliest.generatedAt) > maximumStartSpread {
            let hours = Int((latest.generatedAt.timeIntervalSince(earliest.generatedAt) / 3600).rounded())
            warnings.append("the shards started \(hours) hours apart (\(earliest.source) at "
                            + "\(earliest.generatedAt.formatted(.iso8601)), \(latest.source) at "
                            + "\(latest.generatedAt.formatted(.iso8601))): is one left over from an earlier run?")
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
