import AASA
import Foundation

/// What one file location produced: the response Apple would see, plus diagnostics.
public struct LocationFetch: Sendable, Equatable {
    /// The single, non-following GET (the one the verdict is about).
    public var response: FetchResponse
    /// When `response` was a redirect: the responses met while following it (diagnosis only).
    public var redirectHops: [FetchResponse]
    /// Why following stopped, when it was followed.
    public var redirectEnd: String?

    public init(response: FetchResponse, redirectHops: [FetchResponse] = [], redirectEnd: String? = nil) {
        self.response = response
        self.redirectHops = redirectHops
        self.redirectEnd = redirectEnd
    }
}

/// Both file locations of one domain, and what Apple's CDN and crawler were given.
public struct SiteFetch: Sendable, Equatable {
    public var domain: String
    public var wellKnown: LocationFetch
    public var root: LocationFetch
    /// The copy on Apple's CDN (`FetchOptions.appleCDNBase` + domain); nil when the CDN is not fetched.
    public var cdn: FetchResponse?
    /// `.well-known` fetched again with the crawler's User-Agent; nil when there is no crawler
    /// User-Agent or the first `.well-known` fetch got no HTTP response.
    public var crawlerWellKnown: FetchResponse?
    /// The root location with the crawler's User-Agent; fetched only when the first `.well-known`
    /// fetch did not answer 200 and the root location got an HTTP response.
    public var crawlerRoot: FetchResponse?
    /// Android's `/.well-known/assetlinks.json` on the same connection; nil when it was not asked for
    /// (`FetchOptions.assetLinks`).
    public var android: LocationFetch?

    public init(domain: String, wellKnown: LocationFetch, root: LocationFetch, cdn: FetchResponse? = nil,
                crawlerWellKnown: FetchResponse? = nil, crawlerRoot: FetchResponse? = nil, android: LocationFetch? = nil) {
        self.domain = domain
        self.android = android
        self.wellKnown = wellKnown
        self.root = root
        self.cdn = cdn
        self.crawlerWellKnown = crawlerWellKnown
        self.crawlerRoot = crawlerRoot
    }
}

/// Fetches both AASA locations of many domains on one `TransferLoop`.
///
/// Per domain, `.well-known` first; once its connection is up and multiplexes (HTTP/2), the root
/// location and the crawler's repeat of `.well-known` go out on it at once (`AlongsideFetches`);
/// otherwise the root location follows `.well-known` and reuses its connection, then the crawler's
/// repeat. Either way one TLS handshake per domain. Then the CDN copy (and the crawler's repeat of
/// the root location, when `.well-known` did not answer 200). Domains run concurrently.
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
    /// Domains start as room appears, at most `2 × concurrency` of them unfinished at once, and only
    /// while `admit` (when given) says so: a caller whose processing of the results falls behind
    /// holds the fetch back, so results waiting for it cannot pile up without bound.
    public func fetch<Result>(domains: [String], until stopSwitch: StopSwitch? = nil, admit: (() -> Bool)? = nil,
                              progress: ((Int, Int) -> Void)? = nil,
                              transform: @escaping (Int, SiteFetch) -> Result) throws -> [Result?] {
        guard let loop = TransferLoop(options: options) else { throw FetchSetupError.curlUnavailable }
        var results = [Result?](repeating: nil, count: domains.count)
        var done = 0
        var unfinished = 0
        func start(_ index: Int) {
            let domain = domains[index]
            // The root location and the crawler's repeat go out on .well-known's connection as soon as
            // it is up, when it multiplexes (HTTP/2); otherwise one after the other, as below.
            let alongside = AlongsideFetches()
            let connected: ((Bool) -> Void)? = options.multiplexesLocations ? { multiplexes in
                guard multiplexes else { return }
                self.startAlongside(domain: domain, into: alongside, on: loop)
            } : nil
            fetchLocation(domain: domain, path: AASAFile.wellKnownPath, probe: nil, on: loop, connected: connected) { wellKnown, probe in
                let extras = { (root: LocationFetch, android: LocationFetch?) in
                    self.fetchExtras(domain: domain, wellKnown: wellKnown.response, root: root.response,
                                     alongside: alongside.started ? alongside : nil, on: loop) { extras in
                        results[index] = transform(index, SiteFetch(domain: domain, wellKnown: wellKnown, root: root, cdn: extras.cdn,
                                                                    crawlerWellKnown: extras.crawlerWellKnown, crawlerRoot: extras.crawlerRoot,
                                                                    android: android))
                        done += 1
                        unfinished -= 1
                        progress?(done, domains.count)
                    }
                }
                // Android's file comes after Apple's two, on the same connection (one handshake per domain).
                let finish = { (root: LocationFetch) in
                    guard self.options.assetLinks.includes(domain) else { return extras(root, nil) }
                    if let unreachable = Self.notRetried(after: wellKnown.response, domain: domain, path: AssetLinksFile.path) {
                        return extras(root, LocationFetch(response: unreachable))
                    }
                    self.fetchLocation(domain: domain, path: AssetLinksFile.path, probe: probe, on: loop) { android, _ in
                        var android = android
                        if android.response.timings.reusedConnection, android.response.tls?.certificate == nil {
                            android.response.tls?.certificate = wellKnown.response.tls?.certificate
                        }
                        extras(root, android)
                    }
                }
                let fetchedRoot = { (root: LocationFetch) in
                    var root = root
                    // curl reports certificates only for the transfer that made the handshake; the root
                    // location reuses the .well-known connection, so it is the same certificate.
                    if root.response.timings.reusedConnection, root.response.tls?.certificate == nil {
                        root.response.tls?.certificate = wellKnown.response.tls?.certificate
                    }
                    finish(root)
                }
                if alongside.started {
                    return alongside.whenDone { fetchedRoot(alongside.root ?? LocationFetch(response: FetchResponse(url: "https://\(domain)\(AASAFile.rootPath)"))) }
                }
                if let unreachable = Self.rootNotRetried(after: wellKnown.response, domain: domain) {
                    return finish(LocationFetch(response: unreachable))
                }
                self.fetchLocation(domain: domain, path: AASAFile.rootPath, probe: probe, on: loop) { root, _ in
                    fetchedRoot(root)
                }
            }
        }
        let window = max(2, options.concurrency * 2)
        var next = 0
        loop.run(until: stopSwitch) {
            while next < domains.count && unfinished < window && (admit?() ?? true) {
                unfinished += 1
                next += 1
                start(next - 1)
            }
            return next < domains.count
        }
        return results
    }

    /// The note appended to the root location's error when it was not fetched (see `rootNotRetried`).
    public static let notRetriedNote = "not retried: the same host failed this way at /.well-known"

    /// The root location's response when it is not worth fetching: `.well-known` on the same host and
    /// port failed before any connection was made (the name does not resolve, or the connection was
    /// refused), so the root location would meet the same failure, after a second DNS lookup or
    /// connection attempt. The root location is still reported, with the same error and a note.
    static func rootNotRetried(after wellKnown: FetchResponse, domain: String) -> FetchResponse? {
        notRetried(after: wellKnown, domain: domain, path: AASAFile.rootPath)
    }

    /// The response of `path` on the same host when it is not worth fetching (see `rootNotRetried`).
    static func notRetried(after wellKnown: FetchResponse, domain: String, path: String) -> FetchResponse? {
        guard var error = wellKnown.error, error.kind == .dns || error.kind == .refused else { return nil }
        error.message += " (\(notRetriedNote))"
        return FetchResponse(url: "https://\(domain)\(path)", bytes: ByteCounts(limit: wellKnown.bytes.limit), error: error)
    }

    /// The root location and the crawler's repeat of `.well-known`, started together on
    /// `.well-known`'s connection once it is up and known to multiplex (HTTP/2): three requests in
    /// one round trip instead of three round trips. Only then: started before the connection is up
    /// (curl's CURLOPT_PIPEWAIT), a name that does not resolve or refuses would be tried three times
    /// and a server without HTTP/2 would get three connections.
    private final class AlongsideFetches {
        private(set) var started = false
        var root: LocationFetch?
        var crawlerWellKnown: FetchResponse?
        private var remaining = 0
        private var waiter: (() -> Void)?

        func start(transfers: Int) {
            started = true
            remaining = transfers
        }

        func finishOne() {
            remaining -= 1
            if remaining == 0, let waiter {
                self.waiter = nil
                waiter()
            }
        }

        /// Runs `body` once every transfer started here has finished (at once if they have).
        func whenDone(_ body: @escaping () -> Void) {
            if remaining == 0 { body() } else { waiter = body }
        }
    }

    private func startAlongside(domain: String, into alongside: AlongsideFetches, on loop: TransferLoop) {
        // The crawler's repeat only where `fetchExtras` would make it: not for an origin-only domain.
        let agent = options.originOnly.contains(domain) ? nil : options.crawlerUserAgent
        alongside.start(transfers: agent == nil ? 1 : 2)
        fetchLocation(domain: domain, path: AASAFile.rootPath, probe: nil, on: loop) { root, _ in
            alongside.root = root
            alongside.finishOne()
        }
        if let agent {
            loop.submit(FetchRequest(url: "https://\(domain)\(AASAFile.wellKnownPath)", userAgent: agent)) { response in
                alongside.crawlerWellKnown = response
                alongside.finishOne()
            }
        }
    }

    /// What a domain's extra transfers produced.
    private struct Extras {
        var cdn: FetchResponse?
        var crawlerWellKnown: FetchResponse?
        var crawlerRoot: FetchResponse?
    }

    /// The crawler's fetches and the CDN copy, started together; `completion` runs when all are done.
    /// Which ones run is mechanical: the crawler repeats a location only where the tool's own fetch
    /// got an HTTP response (so there is something to compare), and the root location only when
    /// `.well-known` did not answer 200 (so Apple may fall back to it).
    /// `alongside`: the crawler's repeat of `.well-known` was already made (kept only where it would
    /// have been made after).
    private func fetchExtras(domain: String, wellKnown: FetchResponse, root: FetchResponse, alongside: AlongsideFetches?,
                             on loop: TransferLoop, completion: @escaping (Extras) -> Void) {
        var extras = Extras()
        var requests: [(FetchRequest, WritableKeyPath<Extras, FetchResponse?>)] = []
        let viaCDN = !options.originOnly.contains(domain)
        if let agent = options.crawlerUserAgent, viaCDN {
            if wellKnown.error == nil, wellKnown.status != nil {
                if let alongside {
                    extras.crawlerWellKnown = alongside.crawlerWellKnown
                } else {
                    requests.append((FetchRequest(url: wellKnown.url, userAgent: agent), \.crawlerWellKnown))
                }
            }
            if wellKnown.status != 200, root.error == nil, root.status != nil {
                requests.append((FetchRequest(url: root.url, userAgent: agent), \.crawlerRoot))
            }
        }
        if let base = options.appleCDNBase, viaCDN {
            requests.append((FetchRequest(url: base + domain), \.cdn))
        }
        guard !requests.isEmpty else { return completion(extras) }
        var remaining = requests.count
        for (request, slot) in requests {
            loop.submit(request) { response in
                extras[keyPath: slot] = response
                remaining -= 1
                if remaining == 0 { completion(extras) }
            }
        }
    }

    /// Fetches one location; on a TLS failure reads the certificate with a probe (reusing `probe` from
    /// the domain's other location when there is one); on a redirect follows the chain for diagnosis.
    /// `connected` is passed to `TransferLoop.submit` for the location's own transfer.
    private func fetchLocation(domain: String, path: String, probe: TLSFacts?, on loop: TransferLoop,
                               connected: ((Bool) -> Void)? = nil,
                               completion: @escaping (LocationFetch, TLSFacts?) -> Void) {
        let url = "https://\(domain)\(path)"
        loop.submit(FetchRequest(url: url), connected: connected) { response in
            var response = response
            let finish: (TLSFacts?) -> Void = { probed in
                if response.tls?.certificate == nil, let certificate = probed?.certificate {
                    response.tls?.certificate = certificate
                    response.tls?.certificateFromProbe = true
                    if response.tls?.version == nil { response.tls?.version = probed?.version }
                }
                self.followRedirects(from: response, on: loop) { hops, end in
                    completion(LocationFetch(response: response, redirectHops: hops, redirectEnd: end), probed)
                }
            }
            guard response.error?.kind == .tls, response.tls?.certificate == nil else { return finish(probe) }
            if let probe { return finish(probe) }
            loop.submit(FetchRequest(url: url, mode: .certificateProbe)) { probeResponse in
                finish(probeResponse.tls)
            }
        }
    }

    /// Follows a redirect chain hop by hop (each hop its own non-following transfer), at most
    /// `maxRedirectHops` hops, stopping at a loop or an error.
    private func followRedirects(from first: FetchResponse, on loop: TransferLoop,
                                 completion: @escaping ([FetchResponse], String?) -> Void) {
        guard isRedirect(first), let next = first.redirectURL else { return completion([], nil) }
        var hops: [FetchResponse] = []
        var seen: Set<String> = [first.url]
        func step(_ url: String) {
            if seen.contains(url) { return completion(hops, "loop: \(url) was already visited") }
            if hops.count >= options.maxRedirectHops { return completion(hops, "hop limit (\(options.maxRedirectHops)) reached") }
            seen.insert(url)
            // The target comes from the server, not the user: no connection to a non-public address.
            loop.submit(FetchRequest(url: url, publicAddressesOnly: true)) { response in
                hops.append(response)
                if let error = response.error { return completion(hops, "error: \(error.message)") }
                if self.isRedirect(response), let target = response.redirectURL { return step(target) }
                completion(hops, "final response")
            }
        }
        step(next)
    }

    private func isRedirect(_ response: FetchResponse) -> Bool {
        response.isRedirect
    }
}

/// Why fetching could not start at all (as opposed to a transfer failing).
public enum FetchSetupError: Error, CustomStringConvertible {
    case curlUnavailable

    public var description: String {
        switch self {
        case .curlUnavailable: return "libcurl could not be initialised (is libcurl4-openssl-dev installed?)"
        }
    }
}
