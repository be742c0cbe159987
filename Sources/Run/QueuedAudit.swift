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
/// fetched responses waiting for their audit stay bounded (`maxWaiting` domains), and the domains
/// fetched at once shrink as the queue grows: each would only wait longer for its audit, holding its
/// responses (about 200 KB a domain with a 39 KB file: three bodies, libcurl's buffers, a TLS
/// connection) in the meantime.
///
/// A signal must not wait for the queue (a list of large files may hold minutes of checks): once
/// the run's stop switch is flipped, `finish` returns at once with the audits done so far. Audits
/// not started are dropped; the one in progress is abandoned (it runs on, but its result is thrown
/// away and the process exits after the report is written). Their domains are not audited, like
/// the domains the fetch never finished.
final class QueuedAudit: @unchecked Sendable {
    private let queue = DispatchQueue(label: "aasa-audit.audit")
    private let auditor: Auditor
    private let entries: [DomainEntry]
    /// Guards `results`, `waiting` and `closed`, and wakes `finish`.
    private let condition = NSCondition()
    private var results: [DomainResult?]
    /// Domains submitted and not yet audited (or dropped).
    private var waiting = 0
    /// Domains audited (or dropped) so far: every `FreedMemory.everyDomains`, the heap is trimmed.
    private var done = 0
    /// Set by `finish`: later results are not taken, audits not started are dropped.
    private var closed = false
    /// At most this many fetched domains wait for their audit before the fetch is held back.
    let maxWaiting: Int
    /// Where results go when the run spools them (then `results` stays empty): each leaves memory
    /// as soon as it is audited.
    private let spool: ResultSpool?

    /// The fetch's window (`SiteFetcher.window(concurrency:)`): the most domains fetched at once.
    let window: Int

    init(auditor: Auditor, entries: [DomainEntry], maxWaiting: Int = 32, window: Int = 64, spool: ResultSpool? = nil) {
        self.auditor = auditor
        self.entries = entries
        self.maxWaiting = max(1, maxWaiting)
        self.window = max(1, window)
        self.spool = spool
        results = Array(repeating: nil, count: spool == nil ? entries.count : 0)
    }

    /// Queues the audit of the domain at `index` of `entries`.
    func submit(_ index: Int, _ site: SiteFetch) {
        condition.withLock { waiting += 1 }
        queue.async {
            let dropped = self.condition.withLock { self.closed }
            let result = dropped ? nil : self.auditAt(index, site)
            // Outside the lock, so the fetch's `hasRoom` never waits for a write; a result stored
            // after `finish` is not taken (the run seals the spool first).
            if let result, let spool = self.spool { spool.append(result, at: index) }
            let trims = self.condition.withLock { () -> Bool in
                if !self.closed, self.spool == nil, let result { self.results[index] = result }
                self.waiting -= 1
                self.done += 1
                self.condition.broadcast()
                return self.done % FreedMemory.everyDomains == 0
            }
            // On the audit queue, outside the lock: the fetch goes on meanwhile.
            if trims { FreedMemory.returnToSystem() }
        }
    }

    private func auditAt(_ index: Int, _ site: SiteFetch) -> DomainResult {
        let entry = entries[index]
        return auditor.audit(site, unicodeDomain: entry.name.unicode, expectations: entry.expectations, claims: entry.claims)
    }

    /// Whether another domain may be fetched now, with `inFlight` being fetched (see `admits`).
    func hasRoom(inFlight: Int = 0) -> Bool {
        let waiting = condition.withLock { self.waiting }
        return Self.admits(inFlight: inFlight, waiting: waiting, maxWaiting: maxWaiting, window: window)
    }

    /// Fewer than `maxWaiting` domains wait for their audit, and the window shrinks in step with the
    /// queue: all of it with none waiting (the audits keep up: the network sets the pace), a
    /// `waiting / maxWaiting` share of it taken away as they queue up. So when the audits are the
    /// slower side, a domain is fetched as one is audited, and about `maxWaiting` domains are held
    /// instead of the whole window and the queue.
    static func admits(inFlight: Int, waiting: Int, maxWaiting: Int, window: Int) -> Bool {
        guard waiting < maxWaiting else { return false }
        // At least one: with room in the queue, the fetch never stops for good.
        let (share, overflow) = max(0, waiting).multipliedReportingOverflow(by: window)
        return inFlight < (overflow ? 1 : max(1, window - share / maxWaiting))
    }

    /// How often `finish` looks at the stop switch while it waits.
    static let stopCheckInterval = 0.05

    /// Waits for every queued audit, or until `stop` is flipped; nil for a domain that was never
    /// submitted or not audited by then (an interrupted run). Takes no result after it returns.
    /// With a spool, every result is in the spool instead (and all are nil here).
    func finish(until stop: StopSwitch? = nil) -> [DomainResult?] {
        condition.lock()
        defer { condition.unlock() }
        while waiting > 0 && stop?.isStopped != true {
            _ = condition.wait(until: Date(timeIntervalSinceNow: Self.stopCheckInterval))
        }
        closed = true
        return results
    }
}
