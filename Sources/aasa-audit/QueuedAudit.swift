import Audit
import Dispatch
import Fetching

/// Audits each domain on a worker queue as soon as the fetch hands it over.
///
/// Off the transfer loop because the checks cost CPU (a large or hostile file takes a while to
/// validate): run on the loop they would delay curl's timers, and transfers of other domains would
/// then be reported as timeouts they never had. Still domain by domain, so each domain's raw
/// responses are freed once its audit is done, and on the second core while the loop fetches.
final class QueuedAudit: @unchecked Sendable {
    private let queue = DispatchQueue(label: "aasa-audit.audit")
    private let auditor: Auditor
    private let entries: [DomainEntry]
    /// Touched only on `queue`.
    private var results: [DomainResult?]

    init(auditor: Auditor, entries: [DomainEntry]) {
        self.auditor = auditor
        self.entries = entries
        results = Array(repeating: nil, count: entries.count)
    }

    /// Queues the audit of the domain at `index` of `entries`.
    func submit(_ index: Int, _ site: SiteFetch) {
        queue.async {
            let entry = self.entries[index]
            self.results[index] = self.auditor.audit(site, unicodeDomain: entry.name.unicode, expectations: entry.expectations)
        }
    }

    /// Waits for every queued audit; nil for a domain that was never submitted (an interrupted run).
    func finish() -> [DomainResult?] {
        queue.sync { results }
    }
}
