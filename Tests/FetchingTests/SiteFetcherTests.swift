import AASA
@testable import Fetching
import Foundation
import Testing
import TestSupport

/// The fetch layer against a real nginx on loopback: plain facts, no verdicts.
@Suite struct SiteFetcherTests {
    let sites: LocalSites

    init() throws {
        sites = try LocalSites.shared.get()
    }

    func fetch(_ domains: [String], _ adjust: (inout FetchOptions) -> Void = { _ in }) throws -> [SiteFetch] {
        var options = FetchOptions(userAgent: "aasa-audit-tests", caFile: sites.certificateAuthority.certificatePath,
                                   connectTo: sites.connectToEntries, totalTimeout: 3)
        adjust(&options)
        return try SiteFetcher(options: options).fetch(domains: domains)
    }

    @Test func goodSiteServesBothLocationsOverOneConnection() throws {
        let site = try #require(try fetch(["good.test"]).first)
        for location in [site.wellKnown, site.root] {
            #expect(location.response.status == 200)
            #expect(location.response.error == nil)
            #expect(location.response.header("content-type") == "application/json")
            #expect(String(decoding: location.response.body, as: UTF8.self).contains("ABQ7KM3X2P.com.exemplo.app"))
            let certificate = try #require(location.response.tls?.certificate)
            #expect(certificate.subject.contains("good.test"))
            #expect(certificate.subjectAltNames == ["good.test"])
            #expect((certificate.notAfter ?? .distantPast) > Date())
            #expect(location.response.tls?.version?.hasPrefix("TLSv1.") == true)
        }
        #expect(site.wellKnown.response.timings.reusedConnection == false)
        #expect(site.root.response.timings.reusedConnection == true)
        #expect(site.wellKnown.response.url == "https://good.test/.well-known/apple-app-site-association")
    }

    @Test func gzipBodyIsDecodedAndBothSizesKept() throws {
        let site = try #require(try fetch(["gzip.test"]).first)
        let response = site.wellKnown.response
        #expect(response.header("content-encoding") == "gzip")
        #expect(response.bytes.decoded == ScenarioFiles.good.utf8.count)
        #expect(response.bytes.transferred > 0 && response.bytes.transferred < response.bytes.decoded)
    }

    @Test func bodyStopsAtTheByteCap() throws {
        let site = try #require(try fetch(["large.test"]) { $0.maxBytes = 50_000 }.first)
        let response = site.wellKnown.response
        #expect(response.error == nil)
        #expect(response.bytes.truncated)
        #expect(response.body.count == 50_000)
    }

    @Test(arguments: [
        ("expired.test", "expired", true),
        ("self-signed.test", "self-signed", true),
        // curl checks the host name after the handshake, so the verifying transfer has the certificate.
        ("mismatch.test", "mismatch.test", false),
    ])
    func failedVerificationKeepsCurlTextAndTheCertificate(host: String, text: String, probed: Bool) throws {
        let site = try #require(try fetch([host]).first)
        let response = site.wellKnown.response
        #expect(response.error?.kind == .tls)
        #expect(response.status == nil)
        let tls = try #require(response.tls)
        #expect(tls.verificationError?.contains(text) == true, "\(tls.verificationError ?? "nil")")
        #expect(tls.certificateFromProbe == probed)
        #expect(tls.certificate != nil)
    }

    @Test func redirectIsNotFollowedButItsChainIsRecorded() throws {
        let site = try #require(try fetch(["redirect.test"]).first)
        #expect(site.wellKnown.response.status == 301)
        #expect(site.wellKnown.response.redirectURL == "https://good.test/.well-known/apple-app-site-association")
        #expect(site.wellKnown.redirectHops.map(\.status) == [200])
        #expect(site.wellKnown.redirectEnd == "final response")
    }

    @Test func redirectLoopStopsAtTheHopLimitOrLoop() throws {
        let site = try #require(try fetch(["redirect-loop.test"]).first)
        #expect(site.wellKnown.response.status == 301)
        #expect(site.wellKnown.redirectEnd?.hasPrefix("loop") == true)
    }

    @Test func networkFailuresAreClassified() throws {
        let results = try fetch(["silent.test", "refused.test"]) { $0.totalTimeout = 1.5; $0.connectTimeout = 1.5 }
        #expect(results[0].wellKnown.response.error?.kind == .timeout)
        #expect(results[1].wellKnown.response.error?.kind == .refused)
        #expect(results[1].wellKnown.response.error?.message.isEmpty == false)
    }

    @Test func unresolvableNameIsADNSFailure() throws {
        let results = try SiteFetcher(options: FetchOptions(userAgent: "t", totalTimeout: 3)).fetch(domains: ["does-not-exist.invalid"])
        #expect(results[0].wellKnown.response.error?.kind == .dns)
    }

    @Test func aRefusedOrUnresolvableHostIsNotTriedAgainAtTheRootLocation() throws {
        let routes = sites.connectToEntries.filter { !$0.hasPrefix("::") }
        let fetched = try fetch(["refused.test", "does-not-exist.invalid", "silent.test"]) {
            $0.totalTimeout = 1.5
            $0.connectTimeout = 1.5
            // The unresolvable name must really go to DNS, not to --connect-to's catch-all.
            $0.connectTo = routes
            $0.crawlerUserAgent = AppleCDN.crawlerUserAgent
        }
        for (site, kind) in [(fetched[0], TransferError.Kind.refused), (fetched[1], .dns)] {
            let wellKnown = site.wellKnown.response, root = site.root.response
            #expect(wellKnown.error?.kind == kind)
            #expect(root.url == "https://\(site.domain)/apple-app-site-association", "the root location is still reported")
            #expect(root.error?.kind == kind && root.error?.curlCode == wellKnown.error?.curlCode)
            #expect(root.error?.message == (wellKnown.error?.message ?? "") + " (\(SiteFetcher.notRetriedNote))")
            #expect(root.timings.totalMs == 0, "no transfer was made")
            #expect(root.status == nil && root.bytes.limit == wellKnown.bytes.limit)
            #expect(site.crawlerWellKnown == nil && site.crawlerRoot == nil)
        }
        // A timeout says nothing certain about the other location: it is fetched.
        #expect(fetched[2].wellKnown.response.error?.kind == .timeout)
        #expect(fetched[2].root.response.error?.kind == .timeout)
        #expect(fetched[2].root.response.error?.message.contains(SiteFetcher.notRetriedNote) == false)
        #expect(fetched[2].root.response.timings.totalMs > 0)
    }

    @Test func transformSeesEachDomainOnceWithItsIndex() throws {
        let hosts = ["good.test", "notfound.test", "refused.test", "wellknown-only.test"]
        var seen: [Int] = []
        let fetched = try SiteFetcher(options: FetchOptions(userAgent: "t", caFile: sites.certificateAuthority.certificatePath,
                                                             connectTo: sites.connectToEntries, totalTimeout: 3))
            .fetch(domains: hosts) { index, site in
                seen.append(index)
                #expect(site.domain == hosts[index])
                return site.wellKnown.response.status
            }
        #expect(fetched.allSatisfy { $0 != nil }, "without a stop switch every domain finishes")
        #expect(fetched.map { $0 ?? nil } == [200, 404, nil, 200])
        #expect(seen.sorted() == [0, 1, 2, 3])
    }

    @Test func admitHoldsBackNewDomainsUntilItSaysSo() throws {
        // The consumer admits two domains, then says "not now" for half a second: no further domain
        // may start (so none is handed over) before then, and every domain still finishes afterwards.
        let hosts = ["good.test", "notfound.test", "wellknown-only.test", "root-only.test", "charset.test"]
        let release = Date().addingTimeInterval(0.5)
        var handedOver: [Date] = []
        var admitted = 0
        let admit = { (_: Int) in
            guard admitted < 2 || Date() >= release else { return false }
            admitted += 1
            return true
        }
        let fetched = try SiteFetcher(options: FetchOptions(userAgent: "t", caFile: sites.certificateAuthority.certificatePath,
                                                            connectTo: sites.connectToEntries, totalTimeout: 3))
            .fetch(domains: hosts, admit: admit) { _, site in
                handedOver.append(Date())
                return site.domain
            }
        #expect(fetched == hosts.map { Optional($0) })
        #expect(handedOver.count == hosts.count && admitted == hosts.count)
        #expect(handedOver.sorted().dropFirst(2).allSatisfy { $0 >= release }, "a domain started while admit said no")
    }

    @Test func maxPerHostCountsEachNameNotTheServerItIsRoutedTo() throws {
        // Six names routed to one nginx with a limit of one transfer per host: each name is its own
        // host (HostKey), so the names are fetched side by side (their connections interleave in
        // nginx's log), while each name's three requests (two locations, the crawler's repeat) still
        // share its one connection.
        let run = UUID().uuidString.prefix(8).lowercased()
        let hosts = (1...6).map { "cap\($0)-\(run).many.test" }
        let results = try fetch(hosts) {
            $0.concurrency = 6
            $0.maxPerHost = 1
            $0.crawlerUserAgent = AppleCDN.crawlerUserAgent
        }
        #expect(results.allSatisfy { $0.wellKnown.response.status == 200 && $0.root.response.status == 200 })
        #expect(results.allSatisfy { $0.root.response.timings.reusedConnection && $0.crawlerWellKnown?.timings.reusedConnection == true })
        let connections = connectionsInLog(of: String(run), expecting: 18)
        #expect(connections.count == 18 && Set(connections).count == 6, "one connection per name: \(connections)")
        var runs: [String] = []
        for connection in connections where runs.last != connection { runs.append(connection) }
        #expect(runs.count > 6, "several names at once on one server: \(connections)")
    }

    @Test(arguments: [0, 3])
    func maxPerHostZeroOrAboveOneLetsNamesOfOneServerOverlap(limit: Int) throws {
        // The control for the test above: with no limit (0) or a limit of 3, names routed to the one
        // nginx are fetched side by side, so their connections interleave in its log.
        let run = UUID().uuidString.prefix(8).lowercased()
        let hosts = (1...6).map { "open\($0)-\(run).many.test" }
        let results = try fetch(hosts) {
            $0.concurrency = 6
            $0.maxPerHost = limit
            $0.crawlerUserAgent = AppleCDN.crawlerUserAgent
        }
        #expect(results.allSatisfy { $0.wellKnown.response.status == 200 && $0.root.response.status == 200 })
        let connections = connectionsInLog(of: String(run), expecting: 18)
        #expect(connections.count == 18)
        var runs: [String] = []
        for connection in connections where runs.last != connection { runs.append(connection) }
        #expect(Set(runs).count == 6 && runs.count > 6, "several names at once on one server: \(connections)")
    }

    /// The nginx connection of each logged request whose line contains `marker`, in log order. nginx
    /// logs a request after sending its response, so the last line may lag the client a moment.
    func connectionsInLog(of marker: String, expecting count: Int) -> [String] {
        var connections: [String] = []
        for _ in 0..<50 {
            connections = sites.accessLog().split(separator: "\n").filter { $0.contains(marker) }.compactMap { line in
                line.split(separator: " ").first { $0.hasPrefix("conn=") }.map(String.init)
            }
            if connections.count >= count { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return connections
    }

    @Test func hostKeyIsTheURLsNameAndPort() {
        #expect(HostKey.key(for: "https://silent.test/.well-known/x") == "silent.test:443")
        #expect(HostKey.key(for: "https://user@Example.com:8443/a?b") == "example.com:8443")
        #expect(HostKey.key(for: "http://example.com") == "example.com:80")
        #expect(HostKey.key(for: "https://[2001:db8::1]:444/x") == "[2001:db8::1]:444")
        #expect(HostKey.key(for: "not a url") == "not a url")
        #expect(HostKey.key(for: "https:/one-slash.test/x") == "https:/one-slash.test/x")
        #expect(HostKey.key(for: "https:") == "https:")
        #expect(HostKey.key(for: "https:/") == "https:/")
        #expect(HostKey.key(for: "héllo:x://Ünïcode.test:8080/p") == "ünïcode.test:8080")
    }

    /// `hostAndPort` reads bytes: each delimiter, the scheme's case, userinfo, IPv6 and empty parts.
    @Test(arguments: [
        ("HTTP://Example.COM/x", "example.com", "80"),
        ("HtTpS://a.test", "a.test", "443"),
        ("ftp://a.test", "a.test", "443"),
        ("https://a.test:/x", "a.test", "443"),
        ("https://a.test?q=1:2", "a.test", "443"),
        ("https://a.test#frag:9", "a.test", "443"),
        ("https://u:p@w@b.test:81/@x", "b.test", "81"),
        ("https://[::1]/x", "[::1]", "443"),
        ("https://[::1]:", "[::1]", "443"),
        ("https://[::1]:8443", "[::1]", "8443"),
        ("https://[FE80::1]:1", "[fe80::1]", "1"),
        ("https://ÉCOLE.test:9/", "école.test", "9"),
    ])
    func hostAndPortOnBytes(url: String, host: String, port: String) {
        let found = HostKey.hostAndPort(of: url)
        #expect(found?.0 == host && found?.1 == port, "\(url): \(String(describing: found))")
    }

    @Test(arguments: ["https:///x", "https://:443/x", "https://user@/x", "https://[::1/x", "https://"])
    func hostAndPortWithoutAHost(url: String) {
        #expect(HostKey.hostAndPort(of: url) == nil)
    }

    /// The byte search finds what Foundation's `range(of: "://")` finds, or nothing when it does.
    @Test(arguments: ["https://a.test/x", "://", "a:/b://c", "::://", "x", "", "é://ü", "https:/", "a:b:/c", "ab//c:/d://e"])
    func theSchemeSeparatorIsFoundAsFoundationFindsIt(url: String) {
        var bytes = url
        let offset = bytes.withUTF8 { HostKey.schemeSeparator(in: $0) }
        #expect(offset == url.range(of: "://").map { url.utf8.distance(from: url.startIndex, to: $0.lowerBound) })
    }

    @Test func maxPerHostIsSharedByOneNameOnlyWhateverRoutesIt() {
        // The scheduling decision: which transfers share a limit. A domain's own transfers share its
        // name's; every domain's CDN copy shares the CDN's; two names never share one, even when
        // --connect-to sends both to one server (routing is not an input to the key at all).
        var limit = HostLimit(limit: 2)
        let wellKnown = HostKey.key(for: "https://a.test/.well-known/apple-app-site-association")
        let root = HostKey.key(for: "https://a.test/apple-app-site-association")
        let other = HostKey.key(for: "https://b.test/.well-known/apple-app-site-association")
        #expect(wellKnown == root && wellKnown != other)
        limit.started(wellKnown)
        limit.started(root)
        #expect(!limit.hasRoom(wellKnown), "a.test's third transfer waits")
        #expect(limit.hasRoom(other), "b.test has its own limit")
        let cdn = (1...3).map { HostKey.key(for: AppleCDN.defaultBase + "d\($0).test") }
        #expect(Set(cdn).count == 1, "Apple's CDN is one host for every domain")
        limit.started(cdn[0])
        limit.started(cdn[1])
        #expect(!limit.hasRoom(cdn[2]))
        limit.finished(cdn[0])
        #expect(limit.hasRoom(cdn[2]))
        limit.finished(wellKnown)
        #expect(limit.hasRoom(root))
        let unlimited = HostLimit(limit: 0)
        #expect(unlimited.hasRoom(wellKnown))
    }

    @Test(arguments: [true, false])
    func rootAndCrawlerRepeatGiveTheSameFactsAtOnceOrOneAfterTheOther(multiplexes: Bool) throws {
        // nginx speaks HTTP/2 here: with multiplexesLocations the root location and the crawler's
        // repeat go out as soon as .well-known's connection is up; without, one after the other.
        // Either way: one connection per name, the same statuses, the root location's certificate
        // is the connection's, the crawler's repeat is there.
        let run = UUID().uuidString.prefix(8).lowercased()
        let hosts = (1...3).map { "mux\($0)-\(run).many.test" }
        let results = try fetch(hosts) {
            $0.multiplexesLocations = multiplexes
            $0.crawlerUserAgent = AppleCDN.crawlerUserAgent
        }
        for site in results {
            #expect(site.wellKnown.response.status == 200 && site.root.response.status == 200)
            #expect(site.crawlerWellKnown?.status == 200 && site.crawlerRoot == nil)
            #expect(site.root.response.timings.reusedConnection && site.crawlerWellKnown?.timings.reusedConnection == true)
            #expect(site.root.response.tls?.certificate != nil && site.root.response.tls?.certificate == site.wellKnown.response.tls?.certificate)
        }
        let connections = connectionsInLog(of: String(run), expecting: 9)
        #expect(connections.count == 9 && Set(connections).count == 3, "one connection per name: \(connections)")
    }

    @Test func anOriginOnlyDomainGetsNoCrawlerRepeatEvenWhenItsRequestsGoOutAtOnce() throws {
        // Over HTTP/2 the crawler's repeat is sent with the root location as soon as the connection
        // is up; for a domain devices read from the origin only (?mode= entries) it is not sent at all.
        let run = UUID().uuidString.prefix(8).lowercased()
        let origin = "origin-\(run).many.test", other = "other-\(run).many.test"
        let results = try fetch([origin, other]) {
            $0.crawlerUserAgent = AppleCDN.crawlerUserAgent
            $0.originOnly = [origin]
        }
        #expect(results[0].root.response.status == 200 && results[0].crawlerWellKnown == nil)
        #expect(results[1].crawlerWellKnown?.status == 200)
        _ = connectionsInLog(of: String(run), expecting: 5)
        let lines = sites.accessLog().split(separator: "\n").filter { $0.contains(String(run)) }
        #expect(lines.count == 5, "\(lines)")
        #expect(!lines.contains { $0.contains(origin) && $0.contains(AppleCDN.crawlerUserAgent) }, "\(lines)")
        #expect(lines.contains { $0.contains(other) && $0.contains(AppleCDN.crawlerUserAgent) }, "\(lines)")
    }

    @Test func eachDomainsSecondLocationReusesItsConnectionAtScale() throws {
        // More domains than curl keeps idle connections (64), with few in flight: the second location
        // must run while its domain's connection is still cached.
        let hosts = (1...150).map { "d\($0).many.test" }
        let results = try fetch(hosts) { $0.concurrency = 8 }
        #expect(results.allSatisfy { $0.wellKnown.response.status == 200 && $0.root.response.status == 200 })
        let reused = results.filter { $0.root.response.timings.reusedConnection }.count
        #expect(reused == hosts.count)
    }

    @Test func manyDomainsComeBackInInputOrder() throws {
        let hosts = ["good.test", "notfound.test", "error500.test", "html.test", "wrong-type.test"]
        let results = try fetch(hosts)
        #expect(results.map(\.domain) == hosts)
        #expect(results.map(\.wellKnown.response.status) == [200, 404, 500, 200, 200])
    }

    @Test func crawlerRepeatsWellKnownWithItsUserAgentOnTheSameConnection() throws {
        let sites = try fetch(["bot-blocked.test", "root-only.test", "good.test", "silent.test"]) {
            $0.crawlerUserAgent = AppleCDN.crawlerUserAgent
            $0.totalTimeout = 1.5
        }
        let blocked = sites[0]
        #expect(blocked.wellKnown.response.status == 200)
        #expect(blocked.crawlerWellKnown?.status == 403)
        #expect(blocked.crawlerWellKnown?.timings.reusedConnection == true)
        #expect(blocked.crawlerRoot == nil, "the root location is repeated only when .well-known did not answer 200")
        #expect(sites[1].crawlerWellKnown?.status == 404)
        #expect(sites[1].crawlerRoot?.status == 200)
        #expect(sites[2].crawlerWellKnown?.body == sites[2].wellKnown.response.body)
        #expect(sites[3].crawlerWellKnown == nil && sites[3].crawlerRoot == nil, "nothing to compare without a response")
        #expect(sites.allSatisfy { $0.cdn == nil }, "no CDN base, no CDN fetch")
    }

    @Test func cdnCopyIsFetchedFromTheBasePlusTheDomain() throws {
        let sites = try fetch(["good.test", "notfound.test", "refused.test"]) { $0.appleCDNBase = Scenarios.appleCDNBase }
        let fresh = try #require(sites[0].cdn)
        #expect(fresh.url == "https://cdn.test/a/v1/good.test")
        #expect(fresh.status == 200)
        #expect(fresh.header("apple-origin-format") == "json")
        #expect(fresh.body == Data(ScenarioFiles.good.utf8))
        let failed = try #require(sites[1].cdn)
        #expect(failed.status == 404)
        #expect(failed.header("apple-failure-reason") == "SWCERR00101 Bad HTTP Response: 404 Not Found")
        #expect(failed.header("apple-try-direct") == "false")
        #expect(sites[2].cdn?.status == 404, "the CDN is asked even when the origin cannot be reached")
        #expect(sites.allSatisfy { $0.crawlerWellKnown == nil })
    }
}
