import AASA

/// The fetch sequence of one domain as a value: events in (a transfer finished, `.well-known`'s
/// connection is up), the next transfers to start out, or the finished `SiteFetch`.
///
/// The sequence: `.well-known` first. When its connection is up and multiplexes (HTTP/2), the root
/// location and the crawler's repeat of `.well-known` go out on it at once; otherwise the root
/// location follows `.well-known` on its kept connection (or is not fetched when `.well-known` could
/// not connect at all, `notRetried`). Then Android's file, when asked for, on the same connection.
/// Then, together: the lists Android's file includes (`SiteFetch.androidIncludes`), the crawler's repeats (of a location that got an HTTP response; of the root
/// location only when `.well-known` did not answer 200), the CDN copy, Google's Digital Asset Links answer (with Android's file, when asked) and, once `.well-known` has
/// connected, `.well-known` over the address family it did not use. Each location may add a
/// certificate probe and redirect hops (`LocationFetchMachine`).
///
/// `SiteFetcher` runs one per domain on its `TransferLoop`; tests drive it without libcurl.
struct SiteFetchMachine: Sendable {
    /// Which of the domain's transfers a step or a response belongs to. A location's probe and
    /// redirect hops belong to the location: it has one transfer out at a time.
    enum Slot: Hashable, Sendable {
        case wellKnown, root, android, crawlerWellKnown, crawlerRoot, cdn
        /// Google's Digital Asset Links API answer for the site (`SiteFetch.googleDAL`).
        case googleDAL
        /// `.well-known` again, over the address family its first fetch did not use.
        case otherFamily
        /// The statement list at this position of `SiteFetch.androidIncludes`.
        case include(Int)
    }

    /// One transfer to start.
    struct Step: Sendable, Equatable {
        var slot: Slot
        var request: FetchRequest
        /// True: tell the machine when the transfer's connection is up (`connectionUp(multiplexes:)`).
        var reportsConnection = false
    }

    enum Action: Sendable, Equatable {
        /// Start these transfers, in this order.
        case start([Step])
        /// Nothing to start now: other transfers of the domain are still out.
        case wait
        /// Every transfer of the domain has finished. Boxed: a `SiteFetch` holds every response
        /// inline, and each `Action` made (most of them `.start` or `.wait`) would otherwise be that size.
        indirect case done(SiteFetch)
    }

    /// What the run's options decide for this domain, fixed when it starts.
    struct Plan: Sendable, Equatable {
        var domain: String
        /// Start the root location and the crawler's repeat on `.well-known`'s connection once it is up
        /// and multiplexes (`FetchOptions.multiplexesLocations`).
        var multiplexes: Bool
        /// The crawler's User-Agent; nil when there is none or the domain is origin-only.
        var crawlerUserAgent: String?
        /// The CDN copy's URL; nil when the CDN is not fetched or the domain is origin-only.
        var cdnURL: String?
        /// Fetch Android's `assetlinks.json` too.
        var assetLinks: Bool
        /// Google's `statements:list` URL for the domain; nil when not asked or Android's file is not fetched.
        var googleDALURL: String?
        var maxRedirectHops: Int
        /// Fetch `.well-known` again over the other address family (`AddressFamilies.compare`).
        var comparesFamilies: Bool

        init(domain: String, options: FetchOptions) {
            let viaCDN = !options.originOnly.contains(domain)
            self.domain = domain
            multiplexes = options.multiplexesLocations
            crawlerUserAgent = viaCDN ? options.crawlerUserAgent : nil
            cdnURL = viaCDN ? options.appleCDNBase.map { $0 + domain } : nil
            assetLinks = options.assetLinks.includes(domain)
            googleDALURL = assetLinks ? options.googleDALBase.map { GoogleDAL.listURL(base: $0, domain: domain) } : nil
            maxRedirectHops = options.maxRedirectHops
            // A name `--connect-to` sends to one address has no other family to reach: the second fetch
            // could only fail unresolved (nothing is reported then), so it is not made.
            comparesFamilies = options.addressFamilies == .compare && !options.connectsToAddress(host: domain, port: "443")
        }

        func url(_ path: String) -> String { "https://\(domain)\(path)" }
    }

    let plan: Plan
    private var state = State.idle

    /// Indirect: its phases hold responses inline (kilobytes), and each event takes the state out
    /// and puts one back; boxed, that moves a reference instead of copying and clearing the payload.
    private indirect enum State: Sendable {
        case idle
        /// `.well-known` is out; so are the root location and the crawler's repeat when they were
        /// started on its connection.
        case apple(Apple)
        /// `.well-known` is done; the root location is out, on its connection.
        case root(wellKnown: ProbedLocation, root: LocationFetchMachine)
        /// Apple's two are done; Android's file is out.
        case android(AppleLocations, android: LocationFetchMachine)
        /// The crawler's repeats and the CDN copy are out; `site` holds everything else.
        case extras(site: SiteFetch, waiting: Set<Slot>)
        case done
    }

    /// A location and the probe it made or was given (`LocationFetchMachine.Action.done`).
    private struct ProbedLocation: Sendable {
        var fetch: LocationFetch
        var probe: TLSFacts?
    }

    /// Indirect, as `State`: a fetched location holds its response inline.
    private indirect enum Progress: Sendable {
        case fetching(LocationFetchMachine)
        case fetched(ProbedLocation)

        var fetched: ProbedLocation? {
            if case .fetched(let location) = self { return location }
            return nil
        }
    }

    /// The `.well-known` phase.
    private struct Apple: Sendable {
        var wellKnown: Progress
        /// Set once the root location (and the crawler's repeat) went out on `.well-known`'s connection.
        var alongside: Alongside?
    }

    private struct Alongside: Sendable {
        var root: Progress
        /// The crawler's repeat of `.well-known`: nil until it is back (or when none was sent).
        var crawlerWellKnown: FetchResponse?
        var crawlerOut: Bool

        var isDone: Bool { root.fetched != nil && !crawlerOut }
    }

    /// Apple's two locations, fetched.
    private struct AppleLocations: Sendable {
        var wellKnown: ProbedLocation
        var root: LocationFetch
        /// The crawler's repeat of `.well-known` when it was sent alongside (nil inside when none was).
        var crawlerAlongside: FetchResponse??
    }

    init(plan: Plan) {
        self.plan = plan
    }

    init(domain: String, options: FetchOptions) {
        self.init(plan: Plan(domain: domain, options: options))
    }

    /// The domain's first transfer: `.well-known`.
    mutating func start() -> Action {
        guard case .idle = state else { return .wait }
        var wellKnown = location(AASAFile.wellKnownPath, probe: nil)
        let request = wellKnown.start()
        state = .apple(Apple(wellKnown: .fetching(wellKnown)))
        return .start([Step(slot: .wellKnown, request: request, reportsConnection: plan.multiplexes)])
    }

    /// `.well-known`'s connection is up (TCP and TLS done, or a connection reused), with whether it
    /// multiplexes: then the root location and the crawler's repeat go out on it at once.
    ///
    /// Only then: started before the connection is up (curl's CURLOPT_PIPEWAIT), a name that does not
    /// resolve or refuses would be tried three times, and a server without HTTP/2 would get three
    /// connections.
    mutating func connectionUp(multiplexes: Bool) -> Action {
        guard plan.multiplexes, multiplexes else { return .wait }
        let current = takeState()
        switch consume current {
        case .apple(var apple) where apple.alongside == nil && apple.wellKnown.fetched == nil:
            var root = location(AASAFile.rootPath, probe: nil)
            var steps = [Step(slot: .root, request: root.start())]
            if let agent = plan.crawlerUserAgent {
                steps.append(Step(slot: .crawlerWellKnown, request: FetchRequest(url: plan.url(AASAFile.wellKnownPath), userAgent: agent)))
            }
            apple.alongside = Alongside(root: .fetching(root), crawlerOut: plan.crawlerUserAgent != nil)
            state = .apple(apple)
            return .start(steps)
        case let other:
            state = other
            return .wait
        }
    }

    /// The transfer of `slot` the machine asked for last has finished (a failure is a response with
    /// its `error`). A response for a slot with nothing out changes nothing.
    mutating func finished(_ slot: Slot, _ response: FetchResponse) -> Action {
        let current = takeState()
        switch consume current {
        case .apple(var apple):
            switch slot {
            case .wellKnown:
                guard case .fetching(var wellKnown) = apple.wellKnown, let action = wellKnown.finished(response) else {
                    state = .apple(apple)
                    return .wait
                }
                switch action {
                case .start(let request):
                    apple.wellKnown = .fetching(wellKnown)
                    state = .apple(apple)
                    return .start([Step(slot: .wellKnown, request: request)])
                case .done(let fetch, let probe):
                    apple.wellKnown = .fetched(ProbedLocation(fetch: fetch, probe: probe))
                }
            case .root:
                guard case .fetching(var root)? = apple.alongside?.root, let action = root.finished(response) else {
                    state = .apple(apple)
                    return .wait
                }
                switch action {
                case .start(let request):
                    apple.alongside?.root = .fetching(root)
                    state = .apple(apple)
                    return .start([Step(slot: .root, request: request)])
                case .done(let fetch, let probe):
                    apple.alongside?.root = .fetched(ProbedLocation(fetch: fetch, probe: probe))
                }
            case .crawlerWellKnown:
                guard apple.alongside?.crawlerOut == true else {
                    state = .apple(apple)
                    return .wait
                }
                apple.alongside?.crawlerWellKnown = response
                apple.alongside?.crawlerOut = false
            case .android, .crawlerRoot, .cdn, .googleDAL, .otherFamily, .include:
                state = .apple(apple)
                return .wait
            }
            return appleProgressed(apple)
        case .root(let wellKnown, var root):
            guard slot == .root, let action = root.finished(response) else {
                state = .root(wellKnown: wellKnown, root: root)
                return .wait
            }
            switch action {
            case .start(let request):
                state = .root(wellKnown: wellKnown, root: root)
                return .start([Step(slot: .root, request: request)])
            case .done(let fetch, _):
                return appleFetched(AppleLocations(wellKnown: wellKnown, root: fetch, crawlerAlongside: nil))
            }
        case .android(let locations, var android):
            guard slot == .android, let action = android.finished(response) else {
                state = .android(locations, android: android)
                return .wait
            }
            switch action {
            case .start(let request):
                state = .android(locations, android: android)
                return .start([Step(slot: .android, request: request)])
            case .done(let fetch, _):
                return androidFetched(locations, android: fetch)
            }
        case .extras(var site, var waiting):
            if waiting.contains(slot), Self.record(slot, response, in: &site, domain: plan.domain) {
                waiting.remove(slot)
                if waiting.isEmpty {
                    state = .done
                    return .done(site)
                }
            }
            state = .extras(site: site, waiting: waiting)
            return .wait
        case let other:
            state = other
            return .wait
        }
    }

    /// The state, moved out (`.done` until put back): an event changes the phase's values in place
    /// instead of copying them (a `SiteFetch` and its responses) out of the state and back. Every
    /// path of an event puts back the state it leaves.
    private mutating func takeState() -> State {
        var taken = State.done
        swap(&taken, &state)
        return taken
    }

    /// Puts a response the `.extras` phase waited for into `site`; false when it has nowhere to go
    /// (`site` is then unchanged and the machine waits on).
    private static func record(_ slot: Slot, _ response: FetchResponse, in site: inout SiteFetch, domain: String) -> Bool {
        switch slot {
        case .crawlerWellKnown: site.crawlerWellKnown = response
        case .crawlerRoot: site.crawlerRoot = response
        case .cdn: site.cdn = response
        case .googleDAL: site.googleDAL = response
        case .otherFamily:
            guard let family = site.otherFamily?.family else { return false }
            site.otherFamily = FamilyFetch(family: family, response: response)
        case .include(let index):
            guard site.androidIncludes.indices.contains(index) else { return false }
            let included = LocationFetch(response: response)
            // Another host's list comes over its own connection; the file's own host's over the domain's.
            let sameHost = HostKey.hostAndPort(of: response.url).map { $0.0 == domain.lowercased() } ?? false
            site.androidIncludes[index].fetch = sameHost ? onConnection(of: site.wellKnown.response, included) : included
        case .wellKnown, .root, .android: return false  // never waited for here
        }
        return true
    }

    /// Something of the `.well-known` phase finished: go on once all of it has (the state is `apple`
    /// until then).
    private mutating func appleProgressed(_ apple: consuming Apple) -> Action {
        guard let wellKnown = apple.wellKnown.fetched else {
            state = .apple(apple)
            return .wait
        }
        guard let alongside = apple.alongside else {
            // One after the other: the root location on .well-known's connection, unless .well-known
            // could not connect at all.
            if let unreachable = notRetried(after: wellKnown.fetch.response, path: AASAFile.rootPath) {
                return appleFetched(AppleLocations(wellKnown: wellKnown, root: LocationFetch(response: unreachable), crawlerAlongside: nil))
            }
            var root = location(AASAFile.rootPath, probe: wellKnown.probe)
            let request = root.start()
            state = .root(wellKnown: wellKnown, root: root)
            return .start([Step(slot: .root, request: request)])
        }
        guard alongside.isDone, let root = alongside.root.fetched else {
            state = .apple(apple)
            return .wait
        }
        return appleFetched(AppleLocations(wellKnown: wellKnown, root: root.fetch, crawlerAlongside: .some(alongside.crawlerWellKnown)))
    }

    /// Apple's two locations are done: Android's file next, when asked for.
    private mutating func appleFetched(_ locations: consuming AppleLocations) -> Action {
        guard plan.assetLinks else { return androidFetched(locations, android: nil) }
        if let unreachable = notRetried(after: locations.wellKnown.fetch.response, path: AssetLinksFile.path) {
            return androidFetched(locations, android: LocationFetch(response: unreachable))
        }
        var android = location(AssetLinksFile.path, probe: locations.wellKnown.probe)
        let request = android.start()
        state = .android(locations, android: android)
        return .start([Step(slot: .android, request: request)])
    }

    /// Every location is done: the crawler's repeats and the CDN copy, started together.
    ///
    /// Which ones run is mechanical: the crawler repeats a location only where the tool's own fetch
    /// got an HTTP response (so there is something to compare), and the root location only when
    /// `.well-known` did not answer 200 (so Apple may fall back to it). A repeat of `.well-known`
    /// made alongside is kept only where it would have been made now.
    private mutating func androidFetched(_ locations: consuming AppleLocations, android: consuming LocationFetch?) -> Action {
        let wellKnown = locations.wellKnown.fetch
        var site = SiteFetch(domain: plan.domain, wellKnown: wellKnown,
                             root: Self.onConnection(of: wellKnown.response, locations.root),
                             android: android.map { Self.onConnection(of: wellKnown.response, $0) })
        var steps: [Step] = []
        if let agent = plan.crawlerUserAgent {
            if wellKnown.response.error == nil, wellKnown.response.status != nil {
                if let alongside = locations.crawlerAlongside {
                    site.crawlerWellKnown = alongside
                } else {
                    steps.append(Step(slot: .crawlerWellKnown, request: FetchRequest(url: wellKnown.response.url, userAgent: agent)))
                }
            }
            let root = site.root.response
            if wellKnown.response.status != 200, root.error == nil, root.status != nil {
                steps.append(Step(slot: .crawlerRoot, request: FetchRequest(url: root.url, userAgent: agent)))
            }
        }
        if let cdn = plan.cdnURL {
            steps.append(Step(slot: .cdn, request: FetchRequest(url: cdn)))
        }
        // The user's address (--google-dal-base), so not held to public addresses, as the CDN's.
        if let dal = plan.googleDALURL, site.android != nil {
            steps.append(Step(slot: .googleDAL, request: FetchRequest(url: dal)))
        }
        for (index, url) in Self.includes(of: site.android).enumerated() {
            site.androidIncludes.append(IncludedList(url: url, fetch: LocationFetch(response: FetchResponse(url: url))))
            // The address comes from the file, not the user: no connection to a non-public address,
            // unless --connect-to or --resolve routes its host. The request follows no redirect.
            steps.append(Step(slot: .include(index), request: FetchRequest(url: url, publicAddressesOnly: true)))
        }
        // Only after a connection was made: its address says which family curl used, and a name
        // that connected over neither has nothing to compare. Not through a proxy: the proxy
        // resolves the name, and the address seen is the proxy's.
        if plan.comparesFamilies, wellKnown.response.proxy == nil, let used = wellKnown.response.primaryAddress.flatMap(IPFamily.init(address:)) {
            site.otherFamily = FamilyFetch(family: used.other, response: FetchResponse(url: wellKnown.response.url))
            steps.append(Step(slot: .otherFamily, request: FetchRequest(url: wellKnown.response.url, ipFamily: used.other)))
        }
        guard !steps.isEmpty else {
            state = .done
            return .done(site)
        }
        state = .extras(site: site, waiting: Set(steps.map(\.slot)))
        return .start(steps)
    }

    /// The lists Android's verifier reads for `android`: its https:// includes when it answered 200 with
    /// a body read whole, at most `IncludedList.maximumFollowed`.
    static func includes(of android: LocationFetch?) -> [String] {
        guard let response = android?.response, response.error == nil, response.status == 200, !response.bytes.truncated else { return [] }
        return Array(AssetLinksDocument.followedIncludes(in: Array(response.body)).prefix(IncludedList.maximumFollowed))
    }

    private func location(_ path: String, probe: TLSFacts?) -> LocationFetchMachine {
        LocationFetchMachine(url: plan.url(path), knownProbe: probe, maxRedirectHops: plan.maxRedirectHops)
    }

    /// A location fetched on `.well-known`'s kept connection, with that connection's certificate:
    /// curl reports certificates only for the transfer that made the handshake.
    static func onConnection(of wellKnown: FetchResponse, _ location: consuming LocationFetch) -> LocationFetch {
        var location = location
        if location.response.timings.reusedConnection, location.response.tls?.certificate == nil {
            location.response.tls?.certificate = wellKnown.tls?.certificate
            location.response.tls?.chain = wellKnown.tls?.chain ?? []
            location.response.tls?.trustAnchor = wellKnown.tls?.trustAnchor
        }
        return location
    }

    /// The note appended to a location's error when it was not fetched (see `notRetried`).
    static let notRetriedNote = "not retried: the same host failed this way at /.well-known"

    /// The response of `path` when it is not worth fetching: `.well-known` on the same host and port
    /// failed before any connection was made (the name does not resolve, or the connection was
    /// refused), so `path` would meet the same failure, after a second DNS lookup or connection
    /// attempt. The location is still reported, with the same error and a note.
    func notRetried(after wellKnown: FetchResponse, path: String) -> FetchResponse? {
        guard var error = wellKnown.error, error.kind == .dns || error.kind == .refused else { return nil }
        error.message += " (\(Self.notRetriedNote))"
        return FetchResponse(url: plan.url(path), bytes: ByteCounts(limit: wellKnown.bytes.limit), error: error)
    }
}
