import Arguments
import Audit
import Fetching
import Foundation
import Reporting
import Run

/// `aasa-audit diff OLD NEW`: what changed between two versions of a file, and which URLs it changes.
struct DiffCommand: Subcommand {
    var options: DiffOptions
    var console: Console

    func run() -> ExitStatus {
        let network = options.network
        // A domain is fetched as match fetches it: Apple's crawler and CDN too, through the proxy chosen.
        var fetch = FetchOptions(userAgent: AuditOptions.defaultUserAgent, caFile: network.caFile, connectTo: network.connectTo,
                                 resolve: network.resolve, connectTimeout: network.connectTimeout, totalTimeout: network.timeout,
                                 concurrency: 2, appleCDNBase: options.appleCDNBase, crawlerUserAgent: AuditOptions.crawlerUserAgent)
        fetch.proxy = network.proxyRoute(environment: ProcessInfo.processInfo.environment)
        let run = DiffRun(old: options.old, new: options.new, urlsFile: options.urlsFile, fetch: fetch)
        guard let diff = run.run(notice: { console.error("aasa-audit diff: \($0)") }) else { return .usageOrInputError }
        if options.json {
            do {
                console.out(TerminalText.jsonForTerminal(try DiffSummary.json(diff, old: options.old, new: options.new)))
            } catch {
                console.error("aasa-audit diff: cannot encode the comparison: \(error)")
                return .usageOrInputError
            }
        } else {
            console.out(DiffSummary.render(diff, old: options.old, new: options.new))
        }
        return diff.decisionChanges.isEmpty ? .success : .domainFailed
    }
}
