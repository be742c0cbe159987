import Arguments
import Audit
import Fetching
import Foundation
import Reporting
import Run

/// `aasa-audit match`: which app, if any, a URL opens, and which rule decides; against a local file or
/// the file Apple would use from a live domain.
struct MatchCommand: Subcommand {
    var options: MatchOptions
    var console: Console

    func run() -> ExitStatus {
        let network = options.network
        let source: MatchRun.Source
        switch options.source {
        case .file(let file): source = .file(file)
        case .domain(let domain): source = .domain(domain)
        case .entitlements(let path, let appID): source = .entitlements(path, appID: appID)
        }
        var fetch = FetchOptions(userAgent: AuditOptions.defaultUserAgent, caFile: network.caFile, connectTo: network.connectTo,
                                 resolve: network.resolve, connectTimeout: network.connectTimeout, totalTimeout: network.timeout,
                                 concurrency: 2, appleCDNBase: options.appleCDNBase, crawlerUserAgent: AuditOptions.crawlerUserAgent)
        fetch.proxy = network.proxyRoute(environment: ProcessInfo.processInfo.environment)
        // An app's file (a large .ipa) and its hosts' fetches are read with Ctrl-C and SIGTERM answered
        // (`Interruption`); the other sources keep the signals' default, which ends a wait on
        // standard input too.
        let interruption: Interruption? = if case .entitlements = source { Interruption() } else { nil }
        let match = MatchRun(source: source, urls: options.urls, host: options.host, appID: options.appID, fetch: fetch,
                             stop: interruption?.stopSwitch)
        let outcome = match.run(notice: { console.error("aasa-audit match: \($0)") })
        if let number = interruption?.signalNumber {
            console.error("aasa-audit match: stopped by \(Interruption.name(of: number)): no decision was printed")
            return ExitPolicy.status(forSignal: number)
        }
        guard let outcome else { return .usageOrInputError }
        let results = outcome.results
        if options.json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            for result in results {
                guard let data = try? encoder.encode(result) else { return .usageOrInputError }
                console.out(TerminalText.jsonForTerminal(data))
            }
        } else {
            for result in results { console.out(Self.line(for: result)) }
        }
        // A refused URL is an input error even though the others were decided (and printed).
        if outcome.refusedURLs > 0 { return .usageOrInputError }
        return results.allSatisfy { $0.decision == .match } ? .success : .domainFailed
    }

    /// One line for people: the URL, what happens, and the rule that decides. Sanitised whole: the
    /// URL, app IDs and rule text may come from a served file.
    static func line(for result: MatchResult) -> String {
        let rule = result.rule?.description
        let others = result.appIDs.filter { $0 != result.appID }
        let text: String
        switch result.decision {
        case .match:
            let who = result.appID ?? result.appIDs.joined(separator: ", ")
            let also = result.appID != nil && !others.isEmpty ? "; also opens \(others.joined(separator: ", "))" : ""
            let copy = result.deviceFile == .appleCDN ? "; Apple's CDN copy" : ""
            text = "\(result.url)  opens \(who)  (\(rule ?? "matched")\(copy))\(also)"
        case .exclude, .noMatch:
            let target = result.appID.map { "does not open \($0)" } ?? "stays in the browser"
            let why = result.decision == .exclude
                ? "excluded by \(rule ?? "a rule")" + (result.reason.map { "; \($0)" } ?? "")
                : result.reason ?? "no rule matches"
            let also = !others.isEmpty ? "; opens \(others.joined(separator: ", ")) instead" : ""
            text = "\(result.url)  \(target): \(why)\(also)"
        }
        return TerminalText.sanitize(text)
    }
}
