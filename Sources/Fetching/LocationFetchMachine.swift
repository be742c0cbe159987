/// The transfers of one file location, one at a time: the verifying GET; when its handshake failed
/// before curl saw a certificate, a non-verifying probe to read it (or the probe the domain's other
/// location already made); when the response is a redirect, its chain hop by hop, for diagnosis only.
///
/// A value driven by events: `start()` gives the first request, `finished(_:)` takes the response of
/// the transfer it asked for last and gives the next request or the finished location. No libcurl.
struct LocationFetchMachine: Sendable {
    enum Action: Sendable, Equatable {
        /// Make this transfer and hand its response to `finished(_:)`.
        case start(FetchRequest)
        /// The location is fetched; `probe` is the TLS facts a probe read for it (or was given), for
        /// the domain's next location to reuse.
        case done(LocationFetch, probe: TLSFacts?)
    }

    let url: String
    /// The probe of the domain's other location, used instead of probing again.
    private let knownProbe: TLSFacts?
    private let maxRedirectHops: Int
    private var state = State.idle

    private enum State: Sendable {
        case idle
        case fetching
        /// The verifying GET failed its handshake without a certificate; the probe is out.
        case probing(FetchResponse)
        /// The response is a redirect; the hop to the last target is out.
        case following(Redirects)
        case done
    }

    /// A redirect chain being followed.
    private struct Redirects: Sendable {
        var response: FetchResponse
        var probe: TLSFacts?
        var hops: [FetchResponse] = []
        var seen: Set<String>
    }

    init(url: String, knownProbe: TLSFacts?, maxRedirectHops: Int) {
        self.url = url
        self.knownProbe = knownProbe
        self.maxRedirectHops = maxRedirectHops
    }

    /// The location's own transfer.
    mutating func start() -> FetchRequest {
        state = .fetching
        return FetchRequest(url: url)
    }

    /// The response of the transfer asked for last; nil when none was asked for (nothing changes).
    mutating func finished(_ response: FetchResponse) -> Action? {
        switch state {
        case .fetching:
            if response.error?.kind == .tls, response.tls?.certificate == nil, knownProbe == nil {
                state = .probing(response)
                return .start(FetchRequest(url: url, mode: .certificateProbe))
            }
            return settle(response, probe: knownProbe)
        case .probing(let verified):
            return settle(verified, probe: response.tls)
        case .following(var redirects):
            redirects.hops.append(response)
            if let error = response.error { return finish(redirects, end: "error: \(error.message)") }
            if Self.isRedirect(response), let target = response.redirectURL { return follow(target, redirects) }
            return finish(redirects, end: "final response")
        case .idle, .done:
            return nil
        }
    }

    /// The location's response is final: the probe's certificate filled in, then its redirect followed.
    private mutating func settle(_ response: FetchResponse, probe: TLSFacts?) -> Action {
        var response = response
        if response.tls?.certificate == nil, let certificate = probe?.certificate {
            response.tls?.certificate = certificate
            response.tls?.certificateFromProbe = true
            if response.tls?.chain.isEmpty == true { response.tls?.chain = probe?.chain ?? [] }
            if response.tls?.version == nil { response.tls?.version = probe?.version }
            if response.tls?.cipher == nil { response.tls?.cipher = probe?.cipher }
        }
        guard Self.isRedirect(response), let target = response.redirectURL else {
            state = .done
            return .done(LocationFetch(response: response), probe: probe)
        }
        return follow(target, Redirects(response: response, probe: probe, seen: [response.url]))
    }

    /// The next hop, at most `maxRedirectHops` of them, stopping at a loop.
    private mutating func follow(_ target: String, _ redirects: Redirects) -> Action {
        if redirects.seen.contains(target) { return finish(redirects, end: "loop: \(target) was already visited") }
        if redirects.hops.count >= maxRedirectHops { return finish(redirects, end: "hop limit (\(maxRedirectHops)) reached") }
        var redirects = redirects
        redirects.seen.insert(target)
        state = .following(redirects)
        // The target comes from the server, not the user: no connection to a non-public address.
        return .start(FetchRequest(url: target, publicAddressesOnly: true))
    }

    private mutating func finish(_ redirects: Redirects, end: String) -> Action {
        state = .done
        return .done(LocationFetch(response: redirects.response, redirectHops: redirects.hops, redirectEnd: end), probe: redirects.probe)
    }

    static func isRedirect(_ response: FetchResponse) -> Bool { response.isRedirect }
}
