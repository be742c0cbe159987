import Audit
import Dispatch
import Fetching
import Foundation

/// Audits each domain on a worker queue as soon as the fetch hands it over.
///
/// Off the transfer loop because the checks cost CPU (a large or hostile file takes a while to
/// validate): run on the loop they would delay curl's timers, and transfers of other domains would
/// then be reported as timeouts they never had. Still domain by domain, so each domain's raw
/// responses are freed once its audit is done, and on the second core while the loop fetches.
/// When the audits fall behind (files that are slow to check), `hasRoom` holds the fetch back, so
/// fetched responses waiting for their audit stay bounded (`maxWaiting` domains).
final class QueuedAudit: @unchecked Sendable {
    private let queue = DispatchQueue(label: "aasa-audit.audit")
    private let auditor: Auditor
    private let entries: [DomainEntry]
    /// Touched only on `queue`.
    private var results: [DomainResult?]
    /// Domains submitted and not yet audited; read from the fetch's thread.
    private var waiting = 0
    private let waitingLock = NSLock()
    /// At most this many fetched domains wait for their audit before the fetch is held back.
    let maxWaiting: Int

    init(auditor: Auditor, entries: [DomainEntry], maxWaiting: Int = 32) {
        self.auditor = auditor
        self.entries = entries
        self.maxWaiting = max(1, maxWaiting)
        results = Array(repeating: nil, count: entries.count)
    }

    /// Queues the audit of the domain at `index` of `entries`.
    func submit(_ index: Int, _ site: SiteFetch) {
        waitingLock.withLock { waiting += 1 }
        queue.async {
            let entry = self.entries[index]
            self.results[index] = self.auditor.audit(site, unicodeDomain: entry.name.unicode, expectations: entry.expectations)
            self.waitingLock.withLock { self.waiting -= 1 }
        }
    }

    /// Whether another domain may be fetched now: fewer than `maxWaiting` wait for their audit.
    var hasRoom: Bool {
        waitingLock.withLock { waiting < maxWaiting }
    }

    /// Waits for every queued audit; nil for a domain that was never submitted (an interrupted run).
    func finish() -> [DomainResult?] {
        queue.sync { results }
    }
}
