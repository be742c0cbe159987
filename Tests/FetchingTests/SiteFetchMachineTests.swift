import AASA
@testable import Fetching
import Foundation
import Testing

/// A domain's fetch sequence driven without libcurl: a scripted server answers each request the
/// machine asks for, the way `SiteFetcher` would hand the responses back on the loop.
@Suite struct SiteFetchMachineTests {
    static let wellKnown = "https://a.test/.well-known/apple-app-site-association"
    static let root = "https://a.test/apple-app-site-association"
    static let android = "https://a.test/.well-known/assetlinks.json"
    static let cdn = "https://cdn.test/a/v1/a.test"
    static let dal = "https://dal.test/v1/statements:list?source.web.site=https://a.test&relation=delegate_permission/common.handle_all_urls"
    static let bot = AppleCDN.crawlerUserAgent

    /// How the scripted transfers end relative to one another.
    enum Order {
        /// In the order they were started.
        case firstStartedFirst
        /// The latest started first (so transfers started alongside finish before `.well-known`).
        case lastStartedFirst
    }

    /// The scripted run: what was started and finished, in order, and the outcome.
    struct Run {
        /// "start SLOT URL [probe] [public] [UA]" and "end SLOT" lines, in order.
        var log: [String] = []
        var site: SiteFetch?
        /// Actions that came back after `.done` or events that were not expected (must stay empty).
        var strays: [String] = []

        var started: [String] { log.filter { $0.hasPrefix("start ") }.map { String($0.dropFirst(6)) } }
    }

    /// Runs the machine to the end. `answer` gives each request's response; `connection`, when set,
    /// reports `.well-known`'s connection up (with whether it multiplexes) as soon as it is started,
    /// before it finishes. `stopAfter`: the loop stops after that many transfers finished (Ctrl-C).
    static func run(_ options: FetchOptions, order: Order = .firstStartedFirst, connection multiplexes: Bool? = nil,
                    stopAfter: Int? = nil, answer: (FetchRequest) -> FetchResponse) -> Run {
        var machine = SiteFetchMachine(domain: "a.test", options: options)
        var run = Run()
        var out: [SiteFetchMachine.Step] = []
        var finishedCount = 0
        func take(_ action: SiteFetchMachine.Action) {
            switch action {
            case .wait: break
            case .done(let site):
                if run.site != nil { run.strays.append("second done") }
                run.site = site
            case .start(let steps):
                if run.site != nil { run.strays.append("start after done") }
                for step in steps {
                    run.log.append("start \(describe(step))")
                    out.append(step)
                    if step.reportsConnection, let multiplexes { take(machine.connectionUp(multiplexes: multiplexes)) }
                }
            }
        }
        take(machine.start())
        while !out.isEmpty {
            if let stopAfter, finishedCount >= stopAfter { break }
            let step = order == .firstStartedFirst ? out.removeFirst() : out.removeLast()
            run.log.append("end \(step.slot)")
            finishedCount += 1
            take(machine.finished(step.slot, answer(step.request)))
        }
        if stopAfter == nil, run.site == nil { run.strays.append("no done with nothing out") }
        return run
    }

    static func describe(_ step: SiteFetchMachine.Step) -> String {
        var text = "\(step.slot) \(step.request.url)"
        if step.request.mode == .certificateProbe { text += " probe" }
        if step.request.publicAddressesOnly { text += " public" }
        if let agent = step.request.userAgent { text += " UA=\(agent)" }
        if let family = step.request.ipFamily { text += " \(family.rawValue)" }
        return text
    }

    static func options(crawler: Bool = false, cdn: Bool = false, multiplexes: Bool = true, adjust: (inout FetchOptions) -> Void = { _ in }) -> FetchOptions {
        var options = FetchOptions(userAgent: "aasa-audit-tests", maxRedirectHops: 3,
                                   appleCDNBase: cdn ? "https://cdn.test/a/v1/" : nil,
                                   crawlerUserAgent: crawler ? bot : nil)
        options.multiplexesLocations = multiplexes
        adjust(&options)
        return options
    }

    // Responses.
    static let certificate = CertificateFacts(subject: "CN=a.test", issuer: "CN=Test CA", subjectAltNames: ["a.test"], notBefore: nil, notAfter: nil)
    static func status(_ code: Int, _ url: String, reused: Bool = false, certificate: CertificateFacts? = nil) -> FetchResponse {
        FetchResponse(url: url, status: code, tls: TLSFacts(version: "TLSv1.3", certificate: reused ? nil : certificate ?? Self.certificate),
                      timings: Timings(totalMs: 1, reusedConnection: reused))
    }
    static func failed(_ kind: TransferError.Kind, _ url: String) -> FetchResponse {
        FetchResponse(url: url, error: TransferError(kind: kind, curlCode: kind == .dns ? 6 : kind == .refused ? 7 : 28, message: "\(kind) failure"))
    }
    /// A handshake that failed verification before curl saw the certificate.
    static func tlsFailure(_ url: String) -> FetchResponse {
        FetchResponse(url: url, tls: TLSFacts(verificationError: "self-signed"), error: TransferError(kind: .tls, curlCode: 60, message: "self-signed"))
    }
    static func redirect(_ url: String, to target: String) -> FetchResponse {
        var response = status(301, url, reused: url != wellKnown)
        response.redirectURL = target
        return response
    }

    /// One path through the sequence: options, answers, and the transfers it must start, in order.
    struct Path: CustomTestStringConvertible, Sendable {
        var name: String
        var options: FetchOptions
        var multiplexes: Bool?
        var answers: [String: FetchResponse]
        var started: [String]
        var testDescription: String { name }
    }

    static let paths: [Path] = [
        Path(name: "both locations, one after the other", options: options(), multiplexes: false,
             answers: [wellKnown: status(200, wellKnown), root: status(200, root, reused: true)],
             started: ["wellKnown \(wellKnown)", "root \(root)"]),
        Path(name: "a connection that does not multiplex: one after the other, crawler's repeat and CDN after",
             options: options(crawler: true, cdn: true), multiplexes: false,
             answers: [wellKnown: status(200, wellKnown), root: status(200, root, reused: true), cdn: status(200, cdn)],
             started: ["wellKnown \(wellKnown)", "root \(root)", "crawlerWellKnown \(wellKnown) UA=\(bot)", "cdn \(cdn)"]),
        Path(name: ".well-known fails, then the root location, whose crawler's repeat is made",
             options: options(crawler: true, cdn: true), multiplexes: false,
             answers: [wellKnown: status(404, wellKnown), root: status(200, root, reused: true), cdn: status(200, cdn)],
             started: ["wellKnown \(wellKnown)", "root \(root)", "crawlerWellKnown \(wellKnown) UA=\(bot)",
                       "crawlerRoot \(root) UA=\(bot)", "cdn \(cdn)"]),
        Path(name: "over HTTP/2 the root location and the crawler's repeat go out at once",
             options: options(crawler: true, cdn: true), multiplexes: true,
             answers: [wellKnown: status(200, wellKnown), root: status(200, root, reused: true), cdn: status(200, cdn)],
             started: ["wellKnown \(wellKnown)", "root \(root)", "crawlerWellKnown \(wellKnown) UA=\(bot)", "cdn \(cdn)"]),
        Path(name: "without multiplexesLocations an HTTP/2 connection is not asked about",
             options: options(crawler: true, multiplexes: false), multiplexes: true,
             answers: [wellKnown: status(200, wellKnown), root: status(200, root, reused: true)],
             started: ["wellKnown \(wellKnown)", "root \(root)", "crawlerWellKnown \(wellKnown) UA=\(bot)"]),
        Path(name: "--no-cdn: no CDN copy", options: options(crawler: true, cdn: false), multiplexes: false,
             answers: [wellKnown: status(404, wellKnown), root: status(404, root, reused: true)],
             started: ["wellKnown \(wellKnown)", "root \(root)", "crawlerWellKnown \(wellKnown) UA=\(bot)", "crawlerRoot \(root) UA=\(bot)"]),
        Path(name: "an origin-only domain: neither crawler nor CDN, even over HTTP/2",
             options: options(crawler: true, cdn: true) { $0.originOnly = ["a.test"] }, multiplexes: true,
             answers: [wellKnown: status(200, wellKnown), root: status(200, root, reused: true)],
             started: ["wellKnown \(wellKnown)", "root \(root)"]),
        Path(name: "a refused .well-known: the root location is not tried, the CDN still is",
             options: options(crawler: true, cdn: true), multiplexes: nil,
             answers: [wellKnown: failed(.refused, wellKnown), cdn: status(404, cdn)],
             started: ["wellKnown \(wellKnown)", "cdn \(cdn)"]),
        Path(name: "a timeout says nothing certain about the root location: it is fetched, nothing to repeat",
             options: options(crawler: true), multiplexes: nil,
             answers: [wellKnown: failed(.timeout, wellKnown), root: failed(.timeout, root)],
             started: ["wellKnown \(wellKnown)", "root \(root)"]),
        Path(name: "Android's file after Apple's two, on the same connection",
             options: options(crawler: true, cdn: true) { $0.assetLinks = .all }, multiplexes: false,
             answers: [wellKnown: status(200, wellKnown), root: status(200, root, reused: true),
                       android: status(200, android, reused: true), cdn: status(200, cdn)],
             started: ["wellKnown \(wellKnown)", "root \(root)", "android \(android)",
                       "crawlerWellKnown \(wellKnown) UA=\(bot)", "cdn \(cdn)"]),
        Path(name: "Android's file after Apple's two over HTTP/2 as well",
             options: options(crawler: true) { $0.assetLinks = .domains(["a.test"]) }, multiplexes: true,
             answers: [wellKnown: status(200, wellKnown), root: status(200, root, reused: true), android: status(200, android, reused: true)],
             started: ["wellKnown \(wellKnown)", "root \(root)", "crawlerWellKnown \(wellKnown) UA=\(bot)", "android \(android)"]),
        Path(name: "--google-dal: Google's answer after Android's file, with the CDN copy, not held to public addresses",
             options: options(cdn: true) { $0.assetLinks = .all; $0.googleDALBase = "https://dal.test" }, multiplexes: false,
             answers: [wellKnown: status(200, wellKnown), root: status(200, root, reused: true),
                       android: status(200, android, reused: true), cdn: status(200, cdn), dal: status(200, dal)],
             started: ["wellKnown \(wellKnown)", "root \(root)", "android \(android)", "cdn \(cdn)", "googleDAL \(dal)"]),
        Path(name: "--google-dal for a domain not audited for Android: Google is not asked",
             options: options() { $0.assetLinks = .domains(["b.test"]); $0.googleDALBase = "https://dal.test" }, multiplexes: false,
             answers: [wellKnown: status(200, wellKnown), root: status(200, root, reused: true)],
             started: ["wellKnown \(wellKnown)", "root \(root)"]),
        Path(name: "Android's file for another domain only: not fetched here",
             options: options() { $0.assetLinks = .domains(["b.test"]) }, multiplexes: false,
             answers: [wellKnown: status(200, wellKnown), root: status(200, root, reused: true)],
             started: ["wellKnown \(wellKnown)", "root \(root)"]),
        Path(name: "an unresolvable name: neither the root location nor Android's file is tried",
             options: options() { $0.assetLinks = .all }, multiplexes: nil,
             answers: [wellKnown: failed(.dns, wellKnown)],
             started: ["wellKnown \(wellKnown)"]),
        Path(name: "a failed handshake without a certificate: one probe, reused by the other locations",
             options: options(crawler: true) { $0.assetLinks = .all }, multiplexes: nil,
             answers: [wellKnown: tlsFailure(wellKnown), root: tlsFailure(root), android: tlsFailure(android)],
             started: ["wellKnown \(wellKnown)", "wellKnown \(wellKnown) probe", "root \(root)", "android \(android)"]),
        Path(name: "a redirect's chain is followed hop by hop, to public addresses only",
             options: options(), multiplexes: false,
             answers: [wellKnown: redirect(wellKnown, to: "https://b.test/x"), "https://b.test/x": redirect("https://b.test/x", to: "https://c.test/y"),
                       "https://c.test/y": status(200, "https://c.test/y"), root: status(200, root, reused: true)],
             started: ["wellKnown \(wellKnown)", "wellKnown https://b.test/x public", "wellKnown https://c.test/y public", "root \(root)"]),
    ]

    @Test(arguments: paths)
    func eachPathStartsItsTransfersInOrder(path: Path) throws {
        for order in [Order.firstStartedFirst, .lastStartedFirst] {
            let run = Self.run(path.options, order: order, connection: path.multiplexes) { request in
                if request.mode == .certificateProbe {
                    return FetchResponse(url: request.url, tls: TLSFacts(version: "TLSv1.2", certificate: Self.certificate))
                }
                return path.answers[request.url] ?? FetchResponse(url: request.url, error: TransferError(kind: .other, curlCode: 0, message: "unscripted"))
            }
            // Alongside, the order of starts depends on when .well-known ends; the set must not.
            if order == .firstStartedFirst || path.multiplexes != true {
                #expect(run.started == path.started, "\(order)")
            } else {
                #expect(run.started.sorted() == path.started.sorted(), "\(order)")
            }
            #expect(run.strays.isEmpty, "\(run.strays)")
            let site = try #require(run.site)
            #expect(site.domain == "a.test" && site.wellKnown.response.url == Self.wellKnown && site.root.response.url == Self.root)
            #expect(site.cdn?.url == (run.started.contains { $0.hasPrefix("cdn ") } ? Self.cdn : nil))
            #expect((site.crawlerWellKnown != nil) == run.started.contains { $0.hasPrefix("crawlerWellKnown ") })
            #expect((site.crawlerRoot != nil) == run.started.contains { $0.hasPrefix("crawlerRoot ") })
            #expect((site.android != nil) == (path.options.assetLinks.includes("a.test")))
            #expect(site.googleDAL?.url == (run.started.contains { $0.hasPrefix("googleDAL ") } ? Self.dal : nil))
        }
    }

    /// An assetlinks.json answering 200 with `body`.
    static func assetLinks(_ body: String) -> FetchResponse {
        var response = status(200, android, reused: true)
        response.body = Data(body.utf8)
        return response
    }

    /// assetlinks.json's https:// includes are fetched after it, once each, as addresses from a file:
    /// public addresses only, no redirect followed; an http:// one Android never reads is not fetched.
    @Test func theIncludesOfAssetLinksAreFetchedOnceEachAsAddressesFromAFile() throws {
        let body = """
            [{"include": "https://b.test/one.json"}, {"include": "http://b.test/plain.json"},
             {"include": "https://a.test/two.json"}, {"include": "https://b.test/one.json"}, {"relation": [], "target": {}}]
            """
        let run = Self.run(Self.options { $0.assetLinks = .all }, connection: false) { request in
            switch request.url {
            case Self.android: return Self.assetLinks(body)
            case "https://b.test/one.json": return Self.redirect(request.url, to: "https://c.test/")
            default: return Self.status(request.url.hasPrefix("https://a.test/.well-known/apple") ? 200 : 404, request.url, reused: request.url != Self.wellKnown)
            }
        }
        #expect(run.strays.isEmpty, "\(run.strays)")
        #expect(run.started.suffix(2) == ["include(0) https://b.test/one.json public", "include(1) https://a.test/two.json public"], "\(run.started)")
        let site = try #require(run.site)
        #expect(site.androidIncludes.map(\.url) == ["https://b.test/one.json", "https://a.test/two.json"])
        #expect(site.androidIncludes.map(\.fetch.response.status) == [301, 404])
        #expect(site.androidIncludes.first?.fetch.redirectHops.isEmpty == true, "the redirect is not followed")
        // The one on the domain's own host came over its connection, with its certificate.
        #expect(site.androidIncludes.last?.fetch.response.tls?.certificate == Self.certificate)
        #expect(site.androidIncludes.first?.fetch.response.tls?.certificate == nil)
    }

    /// Nothing is included from a file that did not answer 200 with a statement list, and at most
    /// `IncludedList.maximumFollowed` lists are fetched from one that names more.
    @Test(arguments: [
        (404, (0..<3).map { "{\"include\": \"https://b.test/\($0).json\"}" }, 0),
        (200, ["{\"include\": 1}", "{\"include\": \"https://\"}"], 0),
        (200, (0..<40).map { "{\"include\": \"https://b.test/\($0).json\"}" }, IncludedList.maximumFollowed),
    ])
    func includesAreFollowedOnlyFromAStatementListAndBounded(status: Int, statements: [String], fetched: Int) throws {
        let run = Self.run(Self.options { $0.assetLinks = .all }, connection: false) { request in
            if request.url == Self.android {
                var response = Self.assetLinks("[" + statements.joined(separator: ",") + "]")
                response.status = status
                return response
            }
            return Self.status(200, request.url, reused: request.url != Self.wellKnown)
        }
        let site = try #require(run.site)
        #expect(site.androidIncludes.count == fetched)
        #expect(run.started.filter { $0.hasPrefix("include(") }.count == fetched)
    }

    @Test func overHTTP2TheRootAndTheCrawlerGoOutBeforeWellKnownEnds() {
        let options = Self.options(crawler: true)
        let answers = [Self.wellKnown: Self.status(200, Self.wellKnown), Self.root: Self.status(200, Self.root, reused: true)]
        let run = Self.run(options, connection: true) { answers[$0.url] ?? Self.failed(.other, $0.url) }
        #expect(run.log == ["start wellKnown \(Self.wellKnown)", "start root \(Self.root)", "start crawlerWellKnown \(Self.wellKnown) UA=\(Self.bot)",
                            "end wellKnown", "end root", "end crawlerWellKnown"])
        #expect(run.site?.crawlerWellKnown?.status == 200)
        // Without HTTP/2 by ALPN: nothing goes out alongside.
        let single = Self.run(options, connection: false) { answers[$0.url] ?? Self.failed(.other, $0.url) }
        #expect(single.log == ["start wellKnown \(Self.wellKnown)", "end wellKnown", "start root \(Self.root)", "end root",
                               "start crawlerWellKnown \(Self.wellKnown) UA=\(Self.bot)", "end crawlerWellKnown"])
    }

    @Test func aCrawlerRepeatMadeAlongsideIsKeptOnlyWhereItWouldHaveBeenMade() {
        // .well-known's connection came up, but its own transfer then got no HTTP response: there is
        // nothing to compare the crawler's repeat with, so it is dropped, as if never made.
        let answers = [Self.wellKnown: Self.failed(.timeout, Self.wellKnown), Self.root: Self.status(200, Self.root, reused: true)]
        for order in [Order.firstStartedFirst, .lastStartedFirst] {
            let run = Self.run(Self.options(crawler: true), order: order, connection: true) { request in
                request.userAgent == nil ? answers[request.url] ?? Self.failed(.other, request.url) : Self.status(200, request.url, reused: true)
            }
            #expect(run.started.contains("crawlerWellKnown \(Self.wellKnown) UA=\(Self.bot)"), "it was made alongside")
            #expect(run.site?.crawlerWellKnown == nil, "\(order)")
            #expect(run.site?.crawlerRoot?.status == 200, "the root location answered and .well-known did not: repeated")
            #expect(run.site?.root.response.status == 200)
        }
    }

    @Test func theConnectionsCertificateIsGivenToEveryLocationThatReusedIt() throws {
        let other = CertificateFacts(subject: "CN=other", issuer: "CN=Test CA", subjectAltNames: ["other"], notBefore: nil, notAfter: nil)
        for multiplexes in [true, false] {
            let answers = [Self.wellKnown: Self.status(200, Self.wellKnown), Self.root: Self.status(200, Self.root, reused: true),
                           Self.android: Self.status(200, Self.android, reused: false, certificate: other)]
            let run = Self.run(Self.options { $0.assetLinks = .all }, connection: multiplexes) { answers[$0.url] ?? Self.failed(.other, $0.url) }
            let site = try #require(run.site)
            #expect(site.root.response.tls?.certificate == Self.certificate, "a reused connection has the handshake's certificate")
            #expect(site.root.response.tls?.certificateFromProbe == false)
            #expect(site.android?.response.tls?.certificate == other, "a new connection keeps its own")
        }
        // A location on a connection of its own is left as it is, even without a certificate.
        var fresh = Self.status(200, Self.root)
        fresh.tls?.certificate = nil
        let patched = SiteFetchMachine.onConnection(of: Self.status(200, Self.wellKnown), LocationFetch(response: fresh))
        #expect(patched.response.tls?.certificate == nil)
    }

    @Test func aProbesCertificateFillsInTheFailedHandshake() throws {
        let run = Self.run(Self.options()) { request in
            request.mode == .certificateProbe ? FetchResponse(url: request.url, tls: TLSFacts(version: "TLSv1.2", certificate: Self.certificate))
                                              : Self.tlsFailure(request.url)
        }
        let site = try #require(run.site)
        for location in [site.wellKnown, site.root] {
            #expect(location.response.tls?.certificate == Self.certificate)
            #expect(location.response.tls?.certificateFromProbe == true)
            #expect(location.response.tls?.version == "TLSv1.2")
            #expect(location.response.tls?.verificationError == "self-signed")
        }
        #expect(run.started.filter { $0.hasSuffix(" probe") }.count == 1)
    }

    @Test func theRootLocationNotRetriedKeepsWellKnownsErrorWithANote() throws {
        for kind in [TransferError.Kind.dns, .refused] {
            var failure = Self.failed(kind, Self.wellKnown)
            failure.bytes = ByteCounts(limit: 4096)
            let run = Self.run(Self.options(crawler: true) { $0.assetLinks = .all }) { _ in failure }
            let site = try #require(run.site)
            #expect(run.started == ["wellKnown \(Self.wellKnown)"])
            let android = try #require(site.android)
            for (location, url) in [(site.root, Self.root), (android, Self.android)] {
                #expect(location.response.url == url)
                #expect(location.response.error?.kind == kind && location.response.error?.curlCode == failure.error?.curlCode)
                #expect(location.response.error?.message == "\(kind) failure (\(SiteFetcher.notRetriedNote))")
                #expect(location.response.bytes.limit == 4096 && location.response.timings.totalMs == 0)
            }
        }
    }

    @Test(arguments: [
        // (the chain after .well-known's 301, hop limit 3, the recorded end and the hops' count)
        (["https://b.test/1": "https://b.test/2", "https://b.test/2": nil], "final response", 2),
        (["https://b.test/1": "https://b.test/2", "https://b.test/2": "https://b.test/1"], "loop: https://b.test/1 was already visited", 2),
        (["https://b.test/1": "https://a.test/.well-known/apple-app-site-association"],
         "loop: https://a.test/.well-known/apple-app-site-association was already visited", 1),
        (["https://b.test/1": "https://b.test/2", "https://b.test/2": "https://b.test/3", "https://b.test/3": "https://b.test/4"],
         "hop limit (3) reached", 3),
    ] as [([String: String?], String, Int)])
    func redirectChainsEndAtTheFinalResponseALoopOrTheHopLimit(chain: [String: String?], end: String, hops: Int) throws {
        let run = Self.run(Self.options(), connection: false) { request in
            if request.url == Self.wellKnown { return Self.redirect(Self.wellKnown, to: "https://b.test/1") }
            if let next = chain[request.url] {
                return next.map { Self.redirect(request.url, to: $0) } ?? Self.status(200, request.url)
            }
            return Self.status(404, request.url, reused: true)
        }
        let wellKnown = try #require(run.site?.wellKnown)
        #expect(wellKnown.response.status == 301)
        #expect(wellKnown.redirectEnd == end)
        #expect(wellKnown.redirectHops.count == hops)
        #expect(run.started.filter { $0.hasSuffix(" public") }.count == hops)
    }

    @Test func aHopThatFailsEndsTheChainWithItsError() throws {
        let run = Self.run(Self.options(), connection: false) { request in
            if request.url == Self.wellKnown { return Self.redirect(Self.wellKnown, to: "https://b.test/1") }
            return request.url == Self.root ? Self.status(404, Self.root, reused: true) : Self.failed(.refused, request.url)
        }
        #expect(run.site?.wellKnown.redirectEnd == "error: refused failure")
        #expect(run.site?.wellKnown.redirectHops.map(\.url) == ["https://b.test/1"])
    }

    @Test func aStoppedRunLeavesTheDomainUnfinished() {
        // The loop drops the completions of a stopped run: a domain gets its SiteFetch only once
        // every transfer it started has finished, never a half-made one.
        let options = Self.options(crawler: true, cdn: true) { $0.assetLinks = .all }
        let answer = { (request: FetchRequest) in Self.status(request.url == Self.wellKnown ? 404 : 200, request.url, reused: true) }
        let whole = Self.run(options, connection: false, answer: answer)
        #expect(whole.site != nil)
        let transfers = whole.log.filter { $0.hasPrefix("end ") }.count
        #expect(transfers == 6)
        for stop in 0..<transfers {
            let stopped = Self.run(options, connection: false, stopAfter: stop, answer: answer)
            #expect(stopped.site == nil, "stopped after \(stop) of \(transfers)")
        }
    }

    @Test func eventsNobodyAskedForChangeNothing() throws {
        var machine = SiteFetchMachine(domain: "a.test", options: Self.options(crawler: true, cdn: true))
        #expect(machine.finished(.wellKnown, Self.status(200, Self.wellKnown)) == .wait, "not started")
        #expect(machine.connectionUp(multiplexes: true) == .wait, "not started")
        guard case .start(let first) = machine.start() else { Issue.record("no first step"); return }
        #expect(first == [SiteFetchMachine.Step(slot: .wellKnown, request: FetchRequest(url: Self.wellKnown), reportsConnection: true)])
        #expect(machine.start() == .wait, "started once")
        for slot in [SiteFetchMachine.Slot.root, .android, .crawlerWellKnown, .crawlerRoot, .cdn] {
            #expect(machine.finished(slot, Self.status(200, Self.root)) == .wait, "\(slot) is not out")
        }
        guard case .start(let alongside) = machine.connectionUp(multiplexes: true) else { Issue.record("nothing alongside"); return }
        #expect(alongside.map(\.slot) == [.root, .crawlerWellKnown])
        #expect(machine.connectionUp(multiplexes: true) == .wait, "started alongside once")
        #expect(machine.finished(.wellKnown, Self.status(200, Self.wellKnown)) == .wait, "the root location is still out")
        #expect(machine.finished(.wellKnown, Self.status(200, Self.wellKnown)) == .wait, ".well-known is done already")
        #expect(machine.finished(.root, Self.status(200, Self.root, reused: true)) == .wait, "the crawler's repeat is still out")
        guard case .start(let extras) = machine.finished(.crawlerWellKnown, Self.status(200, Self.wellKnown, reused: true)) else {
            Issue.record("no CDN copy"); return
        }
        #expect(extras.map(\.slot) == [.cdn])
        #expect(machine.finished(.crawlerWellKnown, Self.status(500, Self.wellKnown)) == .wait, "not out any more")
        guard case .done(let site) = machine.finished(.cdn, Self.status(200, Self.cdn)) else { Issue.record("not done"); return }
        #expect(site.crawlerWellKnown?.status == 200 && site.cdn?.status == 200)
        #expect(machine.finished(.cdn, Self.status(200, Self.cdn)) == .wait, "done once")
    }
}
