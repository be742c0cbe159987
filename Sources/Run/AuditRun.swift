import Audit
import Fetching
import Foundation
import History
import Reporting
#if canImport(Glibc)
import Glibc
#endif

/// What a run ended with: its report (nil when it stopped before there was one) and its exit status.
public struct AuditOutcome: Sendable {
    /// The report, its domains read one at a time (from the run's spool, which lives as long as this).
    public var streamed: StreamedReport?
    /// The report whole, every domain read back into memory: for callers of short lists and tests.
    /// Nil when there is no report, or its domains could not be read back.
    public var report: AuditReport? { try? streamed?.whole() }
    /// The folder the reports were written to, when they were.
    public var directory: URL?
    public var status: ExitStatus
}

/// One audit: domain list → fetch → audit → report store → an outcome (report and exit status).
public struct AuditRun: Sendable {
    /// Where the domains come from.
    public enum Domains: Sendable, Equatable {
        /// Named on the command line.
        case arguments([String])
        /// A domain list file; `given` when `--domains` named it (else it is the default, and the
        /// error for a missing file says how to start).
        case file(String, given: Bool)
    }

    public var domains: Domains
    public var fetch: FetchOptions
    public var audit: AuditSettings
    /// `--shard K/N`.
    public var shard: Shard?
    public var baseline: BaselineReport.Choice
    public var output: ReportOutput
    public var tool: ToolInfo
    /// Where the run is recorded (`--history`; nil for `--no-history`).
    public var history: (any RunHistory)?
    /// `--entitlements FILE [--app-id ID]`: apps whose Associated Domains entries add hosts (and what
    /// each host's file must say) to the domains.
    public var apps: [EntitlementsInput]
    /// `--apk FILE`: Android apps whose verified hosts are audited against each host's assetlinks.json.
    public var androidApps: [String] = []
    /// `--sha256 FP`: more signing-key fingerprints every `--apk` app must be listed with (Play App Signing's key).
    public var androidKeys: [String] = []
    /// `--bodies`: which served bodies the report stores whole (the others by size and SHA-256).
    public var bodies: BodiesPolicy = .default
    /// False: the results stay in memory rather than going to a spool (tests compare the two).
    var spoolsResults = true

    /// A run of `tool` over `domains`; see each property.
    public init(domains: Domains, fetch: FetchOptions, audit: AuditSettings, shard: Shard? = nil,
                baseline: BaselineReport.Choice, output: ReportOutput, tool: ToolInfo, history: (any RunHistory)? = nil,
                apps: [EntitlementsInput] = []) {
        self.history = history
        self.apps = apps
        self.domains = domains
        self.fetch = fetch
        self.audit = audit
        self.shard = shard
        self.baseline = baseline
        self.output = output
        self.tool = tool
    }

    /// Runs the audit until done or until `stop` is flipped (then `signal()` names the signal), and
    /// writes the reports. One broken domain never stops the others. The steps: the targets read
    /// and told, the pipeline prepared (`RunPipeline.prepare`), the fetch and audit, the report
    /// assembled, and the pipeline finished (`RunPipeline.finish`, shared with the merge).
    public func run(observer: AuditRunObserver, stop: StopSwitch? = nil, signal: () -> Int32? = { nil }) -> AuditOutcome {
        do throws(RunEnded) {
            var targets = try readTargets(observer: observer, stop: stop, signal: signal)
            try check(&targets, observer: observer)
            let (output, baselineChoice) = oneOffOutput(for: targets, observer: observer)
            var pipeline = RunPipeline(work: .audit, output: output, history: history, expiryWarningDays: audit.expiryWarningDays)
            pipeline.route = route
            // One run at a time per reports folder, from here to the end of this scope. The run starts
            // once it holds the lock: a run that waited is newer than the one it waited for.
            let lock = try pipeline.lock(observer: observer, signal: signal)
            defer { withExtendedLifetime(lock) {} }
            pipeline.startedAt = Date()
            // Whole seconds: the JSON report stores seconds, so a report read back compares equal.
            let started = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
            let baseline = try pipeline.prepare(baseline: baselineChoice, observer: observer)
            let audited = try fetchAndAudit(targets, output: output, started: started, observer: observer, stop: stop)
            // A run that ends without reports leaves no folder the spool made for itself.
            var reportsWritten = false
            defer { if !reportsWritten { audited.spool?.removeCreatedFolders() } }
            let report = try assemble(audited, targets: targets, started: started, observer: observer)
            let outcome = pipeline.finish(report, baseline: baseline,
                                          recording: .init(kind: targets.isOneOff ? .oneOff : .list, listSource: targets.listSource),
                                          observer: observer, signal: signal)
            reportsWritten = outcome.directory != nil
            return outcome
        } catch {
            return error.outcome
        }
    }

    /// How the run's transfers reach the servers, as the report names it (`RunRoute`): the route
    /// options as given, `--cacert`'s path and SHA-256, the proxy without its credentials; nil when
    /// nothing routes them.
    var route: RunRoute? {
        let proxy = fetch.proxy.shown
        return RunRoute(connectTo: fetch.connectTo, resolve: fetch.resolve,
                        caFile: fetch.caFile.map { RunRoute.CAFile(path: $0, sha256: CAFileDigest.sha256(ofFileAt: $0)) },
                        proxy: proxy?.proxy, proxySource: proxy?.source.description).orNilWhenDirect
    }

    /// The domains to audit and where they came from.
    struct Targets {
        var list: DomainList
        /// The list file, or nil for domains given as arguments.
        var listSource: String?
        /// Domains as arguments: a one-off check, no night of the list.
        var isOneOff: Bool
        /// What the apps' entitlements claim of their hosts.
        var claims: [AppClaims]
        /// The hosts only the apps name, fetched from the origin alone.
        var originOnly: Set<String>
        /// With both `--entitlements` and `--apk`: the link hosts one platform's apps claim and the other's do not.
        var appLinkHosts: AppLinkHostComparison? = nil
    }

    /// The domain list (or the arguments) read, the apps' hosts added.
    func readTargets(observer: AuditRunObserver, stop: StopSwitch?, signal: () -> Int32?) throws(RunEnded) -> Targets {
        // An --entitlements or --apk file that cannot be read ends the run before anything else:
        // auditing ./domains.txt instead would answer another question than the one asked.
        var unreadable = DomainList.parse(arguments: [])
        let entitlements = AppClaimsReader.readFiles(apps, into: &unreadable, stop: stop)
        let androidRead = stop?.isStopped == true ? [] : AndroidAppsReader.readFiles(androidApps, into: &unreadable)
        // A signal while an app was read (a large .ipa): what was read is not a list to audit.
        if stop?.isStopped == true, !apps.isEmpty {
            let number = signal() ?? SIGINT
            observer.event(.stopped(RunEvent.StopSignal(number), .readingApps))
            throw RunEnded(ExitPolicy.status(forSignal: number))
        }
        if unreadable.problemCount > 0 {
            observer.event(.inputProblems(unreadable.problems, total: unreadable.problemCount))
            throw RunEnded(.usageOrInputError)
        }
        var targets: Targets
        switch domains {
        case .file(let path, let given):
            let data: Data
            do {
                data = try DomainListFile.read(path, stop: stop) { observer.event(.waitingForDomainList(path: path)) }
            } catch .unreadable(_, let reason) {
                observer.event(.domainListUnreadable(path: path, reason: reason, isDefault: !given))
                throw RunEnded(.usageOrInputError)
            } catch .stopped {
                let number = signal() ?? SIGINT
                observer.event(.stopped(RunEvent.StopSignal(number), .waitingForDomainList(path: path)))
                throw RunEnded(ExitPolicy.status(forSignal: number))
            } catch {
                observer.event(.domainListRefused(error))
                throw RunEnded(.usageOrInputError)
            }
            targets = Targets(list: DomainList.parse(data, file: path, keeping: shard), listSource: path, isOneOff: false, claims: [], originOnly: [])
        case .arguments(let names):
            targets = Targets(list: DomainList.parse(arguments: names), listSource: nil, isOneOff: true, claims: [], originOnly: [])
        }
        targets.claims = AppClaimsReader.resolve(entitlements, into: &targets.list)
        // A release audit: the entries release devices ignore are named, not fetched or judged.
        if !audit.includeDevelopment {
            for index in targets.claims.indices { targets.claims[index].setDevelopmentApart() }
        }
        targets.originOnly = targets.list.add(apps: targets.claims)
        let android = AndroidAppsReader.add(androidRead, playKeys: androidKeys, into: &targets.list) { observer.event($0) }
        if !targets.claims.isEmpty && !android.isEmpty {
            let comparison = AndroidAppsReader.comparison(apple: targets.claims, android: android)
            targets.appLinkHosts = comparison
            observer.event(.appLinkHostsCompared(appleOnly: comparison.appleOnly, androidOnly: comparison.androidOnly, shared: comparison.shared))
        }
        // A host claimed for Android alone has no Apple CDN copy or crawler fetch to compare.
        targets.originOnly.formUnion(targets.list.entries.filter { $0.expectations.isAndroidOnly && $0.claims.isEmpty }.map(\.name.ascii))
        return targets
    }

    /// Every problem of the list told, whole, before anything is fetched (the first ones; then a
    /// count and where the rest are); the run ended when there is nothing to fetch or `--cacert`
    /// cannot be read; the shard taken.
    func check(_ targets: inout Targets, observer: AuditRunObserver) throws(RunEnded) {
        let list = targets.list
        if list.problemCount > 0 {
            observer.event(.inputProblems(list.problems, total: list.problemCount))
        }
        if list.duplicateCount > 0 { observer.event(.duplicatesAuditedOnce(count: list.duplicateCount)) }
        for entry in list.entries {
            if let note = entry.note { observer.event(.entryNote(place: entry.place, note: note)) }
        }
        // Checked before curl opens it: a FIFO would block the fetch before it starts.
        if let caFile = fetch.caFile, let problem = FileKind.problemReading(caFile) {
            observer.event(.caFileUnusable(path: caFile, problem: problem))
            throw RunEnded(.usageOrInputError)
        }
        // A proxy setting libcurl could not use would fail every transfer: said once, before any.
        if let (source, error) = fetch.proxy.problem {
            observer.event(.proxyFailed(ProxyFailure(invalid: error, source: source)))
            throw RunEnded(.usageOrInputError)
        }
        if list.entries.isEmpty && list.inOtherShards == 0 && list.problems.isEmpty {
            observer.event(.noDomains(domains))
            throw RunEnded(.usageOrInputError)
        }
        if let shard {
            targets.list = shard.subset(of: list)
            // Info, hidden by --quiet: a nightly cron job mails whatever it prints, and this is no problem.
            observer.event(.shardSelected(shard, selected: targets.list.entries.count, total: list.entries.count + list.inOtherShards))
        }
    }

    /// The output and baseline of the run: a one-off check (domains as arguments) is no night of
    /// the list, so it neither moves `latest` nor is compared with it, unless --baseline names a report.
    func oneOffOutput(for targets: Targets, observer: AuditRunObserver) -> (ReportOutput, BaselineReport.Choice) {
        var output = self.output
        var choice = baseline
        if case .arguments = domains, let store = output.store {
            output.updatesLatest = false
            if case .latest = choice { choice = .none }
            observer.event(.oneOffCheck(storeRoot: store.root,
                                        hostsFromEntitlements: !(targets.list.entries.contains { $0.claims.isEmpty && $0.expectations.apkFiles.isEmpty }
                                                                || (apps.isEmpty && androidApps.isEmpty)),
                                        notCompared: choice == .none && baseline != .none))
        }
        return (output, choice)
    }

    /// What the fetch and audit left: the spool holding the results, or the results in memory.
    struct Audited {
        var spool: ResultSpool?
        /// Aligned with the entries; nil for a domain not finished (or when the spool holds them).
        var results: [DomainResult?]
        var entries: [DomainEntry]
    }

    /// Fetches and audits every entry. Each result goes to the spool in the output folder as soon
    /// as it is audited, so memory does not grow with the list; without a spool, results stay in memory.
    func fetchAndAudit(_ targets: Targets, output: ReportOutput, started: Date, observer: AuditRunObserver,
                       stop: StopSwitch?) throws(RunEnded) -> Audited {
        let auditor = Auditor(settings: audit, now: started)
        let entries = targets.list.entries
        var spool: ResultSpool?
        if spoolsResults {
            do {
                spool = try ResultSpool(in: URL(fileURLWithPath: output.folderPath.isEmpty ? "." : output.folderPath),
                                        count: entries.count, generatedAt: started,
                                        htmlSections: output.formats.contains(.html) ? HTMLPageForm.forPage(of: entries.count) : nil,
                                        bodies: bodies)
            } catch {
                observer.event(.spoolUnavailable(error))
            }
        }
        observer.fetching(total: entries.count)
        // Each domain is audited as soon as it is fetched (see QueuedAudit); nil for a domain not
        // finished when a signal stopped the run (a signal does not wait for queued audits).
        let audits = QueuedAudit(auditor: auditor, entries: entries, maxWaiting: max(16, fetch.concurrency / 2),
                                 window: SiteFetcher.window(concurrency: fetch.concurrency), spool: spool)
        do {
            // Android's file is fetched for every domain with --android, else for those with Android expectations.
            var fetch = fetch
            fetch.originOnly = targets.originOnly
            if fetch.assetLinks != .all {
                let android = Set(entries.filter { $0.expectations.auditsAndroid }.map(\.name.ascii))
                if !android.isEmpty { fetch.assetLinks = .domains(android) }
            }
            _ = try SiteFetcher(options: fetch).fetch(domains: entries.lazy.map(\.name.ascii), until: stop,
                                                      admit: { audits.hasRoom(inFlight: $0) },
                                                      progress: observer.progress) { index, site in audits.submit(index, site) }
            let results = audits.finish(until: stop)
            observer.fetching(total: nil)
            return Audited(spool: spool, results: results, entries: entries)
        } catch let failure as ProxyFailure {
            // Every further transfer would fail the same way: no domain is blamed for it, and no
            // report of a night the proxy cut short is written (the next run has it whole).
            _ = audits.finish(until: stop)
            observer.fetching(total: nil)
            spool?.removeCreatedFolders()
            observer.event(.proxyFailed(failure))
            throw RunEnded(.usageOrInputError)
        } catch {
            observer.fetching(total: nil)
            spool?.removeCreatedFolders()
            observer.event(.fetchFailed(error))
            throw RunEnded(.usageOrInputError)
        }
    }

    /// The report: the results (from the spool, or held in memory), then what is computed from all
    /// of them, the apps' sections. A result that cannot be read back (a spool cut short by a full
    /// disk) ends the run without a report.
    func assemble(_ audited: Audited, targets: Targets, started: Date, observer: AuditRunObserver) throws(RunEnded) -> StreamedReport {
        let list = targets.list
        do {
            var report: StreamedReport
            if let spool = audited.spool {
                let (spooled, stored) = try spool.seal()
                report = PartialRun.report(tool: tool, generatedAt: started, inputErrors: list.problems, entries: audited.entries,
                                           stored: stored, results: spooled)
            } else {
                // The bodies kept as the spool keeps them (`ResultSpool.append`).
                let results = audited.results.map { $0.map { result in
                    var result = result
                    result.judge(at: started)
                    result.keepBodies(bodies)
                    return result
                } }
                report = StreamedReport(PartialRun.report(tool: tool, generatedAt: started, inputErrors: list.problems,
                                                          entries: audited.entries, results: results))
            }
            report.report.shard = shard
            report.report.expiryWarningDays = audit.expiryWarningDays
            if list.problemsOmitted > 0 { report.report.inputErrorsOmitted = list.problemsOmitted }
            if !targets.claims.isEmpty { report.report.apps = try AppClaimsReader.sections(targets.claims, domains: report.domains) }
            report.report.appLinkHosts = targets.appLinkHosts
            return report
        } catch {
            observer.event(.reportNotAssembled(error))
            throw RunEnded(.usageOrInputError)
        }
    }
}
