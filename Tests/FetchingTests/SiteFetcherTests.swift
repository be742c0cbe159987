import Fetching
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
            #expect(String(decoding: location.response.body, as: UTF8.self).contains("ABCDE12345.com.example.app"))
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
}
