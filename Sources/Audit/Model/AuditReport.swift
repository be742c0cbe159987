import Foundation

/// The whole result of one run: what every reporter renders. Versioned; see docs/report-format.md.
public struct AuditReport: Sendable, Equatable, Codable {
    /// Bumped on any incompatible change to this model. 2: the served bodies are stored once each,
    /// in the top-level `bodies` by SHA-256, and a location refers to its body by `bodySHA256`
    /// (docs/report-format.md, "Bodies"); a reader of version 1 would take such a body for missing.
    public static let currentSchemaVersion = 2
    /// The versions this build reads: 1 (bodies inline) and 2 (bodies stored apart).
    public static let readableSchemaVersions = 1...currentSchemaVersion

    public var schemaVersion: Int
    public var tool: ToolInfo
    /// When the run started (UTC).
    public var generatedAt: Date
    /// False when the run was interrupted and `domains` holds only what was finished.
    public var complete: Bool
    public var summary: Summary
    /// Lines of the domain list that were not domains, and expectation tokens that could not be
    /// read; they were skipped. At most the first `DomainList.maximumKeptProblems` (1,000).
    public var inputErrors: [InputProblem]
    /// How many more input errors there were than `inputErrors` lists; nil (absent from
    /// report.json) when it lists them all. A hostile list of millions of bad lines so makes a small report.
    public var inputErrorsOmitted: Int?
    public var domains: [DomainResult]
    /// What changed since a baseline report (`--baseline`, or the previous `reports/latest`);
    /// nil when there was none. Set after the run by the caller (see `ReportChanges.between`).
    public var changes: ReportChanges?
    /// When the run was interrupted: the domains (ASCII form, input order) that were not finished and
    /// so are not in `domains`. Nil for a run that was not interrupted.
    public var notAudited: [String]?
    /// The shard of the domain list this run audited (`--shard K/N`); nil when it audited the whole list.
    public var shard: Shard?
    /// What the history database adds (failing since, fixed, flapping, expiring certificates, the
    /// trend); nil when no history was used (`--no-history`, or it could not be read). Set by the caller.
    public var history: ReportHistory?
    /// One section per app named with `--entitlements`: its entries, the host each resolves to, which
    /// work and why not (`AppResult.Builder`); nil when the run named none. Set by the caller.
    public var apps: [AppResult]?
    /// With both `--entitlements` and `--apk`: the link hosts one platform's apps claim and the other's
    /// do not; nil otherwise. Set by the caller.
    public var appLinkHosts: AppLinkHostComparison?
    /// The days before a certificate's end from which it counts as expiring soon
    /// (`--expiry-warning-days`; `CertificateExpiry`). Reports written before it was recorded read
    /// as the default, 30.
    public var expiryWarningDays: Int = CertificateExpiry.defaultWarningDays
    /// Where and how the report was made: host, exit status, duration, route (`RunProvenance`);
    /// nil in a report written before it was recorded. Set by the run that writes the report.
    public var run: RunProvenance?
    /// A merged report's shards of 1...N that were not given, in order: the first
    /// `ReportMerge.maxMissingListed`; nil when none is missing (or the report is no merge).
    public var missingShards: [Int]?
    /// How many more shards are missing than `missingShards` lists; nil when it lists them all.
    public var missingShardsOmitted: Int?

    public init(tool: ToolInfo, generatedAt: Date, complete: Bool = true,
                inputErrors: [InputProblem] = [], domains: [DomainResult]) {
        self.schemaVersion = AuditReport.currentSchemaVersion
        self.tool = tool
        self.generatedAt = generatedAt
        self.complete = complete
        self.inputErrors = inputErrors
        // Judged again against the run's start: a result changed after it was made (a merge, a
        // baseline built by hand) is shown by what it holds now.
        self.domains = domains.map { var domain = $0; domain.judge(at: generatedAt); return domain }
        self.summary = Summary(domains: domains)
    }

    /// Reads report.json. A report written before days left were recorded gets them counted from
    /// its own start (`generatedAt`), as the run that wrote it would have.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
        tool = try container.decode(ToolInfo.self, forKey: .tool)
        generatedAt = try container.decode(Date.self, forKey: .generatedAt)
        complete = try container.decode(Bool.self, forKey: .complete)
        summary = try container.decode(Summary.self, forKey: .summary)
        inputErrors = try container.decode([InputProblem].self, forKey: .inputErrors)
        inputErrorsOmitted = try container.decodeIfPresent(Int.self, forKey: .inputErrorsOmitted)
        domains = try container.decode([DomainResult].self, forKey: .domains)
        changes = try container.decodeIfPresent(ReportChanges.self, forKey: .changes)
        notAudited = try container.decodeIfPresent([String].self, forKey: .notAudited)
        shard = try container.decodeIfPresent(Shard.self, forKey: .shard)
        history = try container.decodeIfPresent(ReportHistory.self, forKey: .history)
        apps = try container.decodeIfPresent([AppResult].self, forKey: .apps)
        appLinkHosts = try container.decodeIfPresent(AppLinkHostComparison.self, forKey: .appLinkHosts)
        expiryWarningDays = try container.decodeIfPresent(Int.self, forKey: .expiryWarningDays) ?? CertificateExpiry.defaultWarningDays
        run = try container.decodeIfPresent(RunProvenance.self, forKey: .run)
        missingShards = try container.decodeIfPresent([Int].self, forKey: .missingShards)
        missingShardsOmitted = try container.decodeIfPresent(Int.self, forKey: .missingShardsOmitted)
        // Version 2 stores each body once, in `bodies`: put back where its locations refer to it,
        // every key checked against its text, every reference against the table (version 1 has none).
        let table = try decoder.container(keyedBy: BodiesKey.self)
        let bodies = try table.decodeIfPresent([String: String].self, forKey: .bodies) ?? [:]
        for (key, text) in bodies { try BodyTableProblem.check(key: key, text: text) }
        for index in domains.indices { try domains[index].resolveBodies { bodies[$0] } }
        // Numbers and dates from a file: out of range, the report is unusable (before any is counted with).
        var ranges = ReportRange.Checker()
        ranges.report(self)
        try ranges.throwProblem(at: decoder)
        for index in domains.indices { domains[index].countDaysLeft(from: generatedAt) }
    }

    /// Every input error, listed or not: `inputErrors` and `inputErrorsOmitted`.
    /// The key of the bodies table, which is not a property: the bodies are in the locations once read.
    private enum BodiesKey: String, CodingKey { case bodies }

    public var inputErrorCount: Int { inputErrors.count.addingClamped(inputErrorsOmitted ?? 0) }

    /// The report of an interrupted run: `domains` holds what was finished, `notAudited` the rest;
    /// `complete` is false.
    public init(tool: ToolInfo, generatedAt: Date, inputErrors: [InputProblem] = [], domains: [DomainResult],
                notAudited: [String]) {
        self.init(tool: tool, generatedAt: generatedAt, complete: false, inputErrors: inputErrors, domains: domains)
        self.notAudited = notAudited
    }
}
