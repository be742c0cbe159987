import AASA
import Foundation

/// Fetches both AASA locations of many domains on one `TransferLoop`.
///
/// Each domain's sequence is a `SiteFetchMachine` (`.well-known` first; the root location and the
/// crawler's repeat on its connection, at once over HTTP/2; Android's file; then the crawler's
/// repeats and the CDN copy): one TLS handshake per domain. This class only runs the machines on the
/// loop, starting the transfers they ask for and handing them the responses. Domains run concurrently.
public final class SiteFetcher {
    private let options: FetchOptions

    public init(options: FetchOptions) {
        self.options = options
    }

    /// Fetches every domain (ASCII host names); results come back in the input order.
    /// `progress` is called on the loop after each domain finishes, with (done, total).
    public func fetch(domains: [String], progress: ((Int, Int) -> Void)? = nil) throws -> [SiteFetch] {
        try fetch(domains: domains, until: nil, progress: progress) { _, site in site }.enumerated().map { index, result in
            result ?? SiteFetch(domain: domains[index],
                                wellKnown: LocationFetch(response: FetchResponse(url: "https://\(domains[index])\(AASAFile.wellKnownPath)")),
                                root: LocationFetch(response: FetchResponse(url: "https://\(domains[index])\(AASAFile.rootPath)")))
        }
    }

    /// Fetches every domain until `stopSwitch` is flipped (from another thread, e.g. on Ctrl-C).
    /// Results come back in the input order; a domain whose fetches had not all finished is nil, so a
    /// caller can tell what was finished from what was not.
    public func fetch(domains: [String], until stopSwitch: StopSwitch?, progress: ((Int, Int) -> Void)? = nil) throws -> [SiteFetch?] {
        try fetch(domains: domains, until: stopSwitch, progress: progress) { _, site in site }
    }

    /// Fetches every domain until `stopSwitch` (if any) is flipped, and hands each `SiteFetch` to
    /// `transform` (with the domain's index) as soon as the domain is done, on the loop. Results come
    /// back in the input order; nil for a domain not finished when the run was stopped.
    ///
    /// For long lists: what `transform` keeps (an audit result) is much smaller than the responses,
    /// bodies and headers it is made from, which are then freed domain by domain instead of all
    /// being held until the last domain finishes.
    ///
    /// Domains start as room appears, at most `window(concurrency:)` of them unfinished at once, and
    /// only while `admit` (when given, with the number of domains being fetched) says so: a caller
    /// whose processing of the results falls behind holds the fetch back, so results waiting for it
    /// cannot pile up without bound.
    ///
    /// A transfer that finds the proxy unusable (`FetchResponse.proxyFailure`) stops the fetch at
    /// once and it throws that `ProxyFailure`: no domain is given a response that says nothing about
    /// it. Domains `transform` was already handed stay handed.
    ///
    /// `domains` is any collection of the names (a lazy view of a domain list serves, so that a list
    /// of 100,000 is not copied into an array of names for the fetch); indexes are offsets into it.
    public func fetch<Result, Domains: RandomAccessCollection<String>>(
        domains: Domains, until stopSwitch: StopSwitch? = nil, admit: ((_ inFlight: Int) -> Bool)? = nil,
        progress: ((Int, Int) -> Void)? = nil, transform: @escaping (Int, SiteFetch) -> Result
    ) throws -> [Result?] where Domains.Index == Int {
        let options = options
        let loop = try TransferLoop(options: options)
        var results = [Result?](repeating: nil, count: domains.count)
        var done = 0
        // How many domains are unfinished; a domain stopped half-way keeps its nil result.
        var unfinished = 0
        var proxyFailure: ProxyFailure?
        func perform(_ action: SiteFetchMachine.Action, of running: RunningSite) {
            switch action {
            case .wait:
                return
            case .start(let steps):
                for step in steps {
                    let connected: ((Bool) -> Void)? = step.reportsConnection ? { multiplexes in
                        perform(running.machine.connectionUp(multiplexes: multiplexes), of: running)
                    } : nil
                    loop.submit(step.request, connected: connected) { response in
                        if let failure = response.proxyFailure {
                            if proxyFailure == nil { proxyFailure = failure }
                            loop.stop()
                            return
                        }
                        guard proxyFailure == nil else { return }
                        perform(running.machine.finished(step.slot, response), of: running)
                    }
                }
            case .done(var site):
                unfinished -= 1
                site.shareIdenticalBodies()
                results[running.index] = transform(running.index, site)
                done += 1
                progress?(done, domains.count)
            }
        }
        let window = Self.window(concurrency: options.concurrency)
        var next = 0
        loop.run(until: stopSwitch) {
            while next < domains.count && unfinished < window && (admit?(unfinished) ?? true) {
                let running = RunningSite(index: next, machine: SiteFetchMachine(domain: domains[domains.startIndex + next], options: options))
                next += 1
                unfinished += 1
                perform(running.machine.start(), of: running)
            }
            return next < domains.count && proxyFailure == nil
        }
        if let proxyFailure { throw proxyFailure }
        return results
    }

    /// A domain being fetched: its index and its sequence, held by the transfers' callbacks so that
    /// each event mutates the machine in place (not looked up, moved out and back per event).
    private final class RunningSite {
        let index: Int
        var machine: SiteFetchMachine

        init(index: Int, machine: SiteFetchMachine) {
            self.index = index
            self.machine = machine
        }
    }

    /// How many domains may be unfinished at once: twice the transfers in flight, so that a domain's
    /// later transfers and the next domains' first ones overlap.
    public static func window(concurrency: Int) -> Int {
        max(2, min(concurrency, Int.max / 2) * 2)
    }

    /// The note appended to a location's error when it was not fetched because `.well-known` on the
    /// same host could not connect at all (`SiteFetchMachine.notRetried`).
    public static let notRetriedNote = SiteFetchMachine.notRetriedNote
}
