import Audit
import Fetching
import Foundation
import Testing

/// The domain verdict: .well-known first and authoritative; the root location only as a fallback.
@Suite struct LocationChoiceTests {
    typealias F = CheckFixtures
    static let rootURL = "https://example.com/apple-app-site-association"

    enum Served: String, CaseIterable, CustomTestStringConvertible {
        case good, other, notFound, redirect, invalid, textPlain, timeout, partner
        var testDescription: String { rawValue }

        func response(url: String) -> FetchResponse {
            switch self {
            case .good: return F.response(url: url)
            case .other: return F.response(body: #"{"webcredentials":{"apps":["ABQ7KM3X2P.com.exemplo.other"]}}"#, url: url)
            case .notFound: return F.response(status: 404, contentType: "text/html", body: "not found", url: url)
            case .redirect: return F.response(status: 301, contentType: nil, body: "", headers: [HTTPHeader(name: "Location", value: "https://www.example.com/")], url: url)
            case .invalid: return F.response(body: "{,}", url: url)
            case .textPlain: return F.response(contentType: "text/plain", url: url)
            case .timeout: return F.response(status: nil, contentType: nil, body: "", error: F.failure(.timeout, 28, "timed out"), tls: nil, url: url)
            case .partner: return F.response(body: LocationUsabilityTests.partnerJSON, url: url)
            }
        }
    }

    func decide(_ wellKnown: Served, _ root: Served) -> DomainResult {
        let site = SiteFetch(domain: "example.com",
                             wellKnown: LocationFetch(response: wellKnown.response(url: F.url)),
                             root: LocationFetch(response: root.response(url: Self.rootURL)))
        return Auditor(now: F.now).audit(site)
    }

    @Test(arguments: [
        // (.well-known, root, verdict, used location, domain finding ids)
        (Served.good, Served.good, Verdict.pass, "wk", [String]()),
        (.good, .notFound, .pass, "wk", []),
        (.good, .redirect, .pass, "wk", []),
        (.good, .other, .warn, "wk", ["http.locations-differ"]),
        (.textPlain, .notFound, .warn, "wk", []),
        (.notFound, .good, .warn, "root", ["http.root-only"]),
        (.redirect, .good, .warn, "root", ["http.root-only"]),
        (.timeout, .good, .warn, "root", ["http.root-only"]),
        (.notFound, .textPlain, .warn, "root", ["http.root-only"]),
        (.invalid, .good, .fail, "none", ["http.well-known-unusable"]),
        (.invalid, .notFound, .fail, "none", []),
        (.notFound, .notFound, .fail, "none", []),
        (.redirect, .redirect, .fail, "none", []),
        (.timeout, .timeout, .fail, "none", []),
        // A file Apple reads with a broken entry is the file Apple uses; the domain fails on the entry.
        (.partner, .notFound, .fail, "wk", []),
        (.partner, .good, .fail, "wk", ["http.locations-differ"]),
        (.partner, .partner, .fail, "wk", []),
        (.notFound, .partner, .fail, "root", ["http.root-only"]),
        (.invalid, .partner, .fail, "none", ["http.well-known-unusable"]),
    ])
    func verdict(wellKnown: Served, root: Served, verdict: Verdict, used: String, ids: [String]) {
        let result = decide(wellKnown, root)
        #expect(result.verdict == verdict)
        let expectedPath: String? = ["wk": AASAFile.wellKnownPath, "root": AASAFile.rootPath][used]
        #expect(result.usedLocation == expectedPath)
        #expect(result.findings.map(\.id) == ids)
    }

    /// Each location's role, decided once with the choice and stored in the result (`LocationResult.role`).
    @Test(arguments: [
        // (.well-known, root, .well-known's role, root's role)
        (Served.good, Served.good, LocationRole.usedByApple, LocationRole.fallbackNotRead),
        (.good, .notFound, .usedByApple, .fallbackNotRead),
        (.partner, .good, .usedByApple, .fallbackNotRead),
        (.notFound, .good, .unreadableFallsBack, .usedByApple),
        (.timeout, .partner, .unreadableFallsBack, .usedByApple),
        (.invalid, .good, .unreadable, .shadowed),
        (.invalid, .notFound, .unreadable, .unreadable),
        (.notFound, .notFound, .unreadable, .unreadable),
        (.redirect, .redirect, .unreadable, .unreadable),
    ])
    func role(wellKnown: Served, root: Served, wellKnownRole: LocationRole, rootRole: LocationRole) throws {
        let result = decide(wellKnown, root)
        #expect(result.locations.map(\.role) == [wellKnownRole, rootRole])
        #expect(result.locations.map { result.role(of: $0) } == [wellKnownRole, rootRole])
        // A report written before roles were recorded gets the same ones when read.
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        var tree = try #require(try JSONSerialization.jsonObject(with: try encoder.encode(result)) as? [String: Any])
        var locations = try #require(tree["locations"] as? [[String: Any]])
        for index in locations.indices { locations[index]["role"] = nil }
        tree["locations"] = locations
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let older = try decoder.decode(DomainResult.self, from: try JSONSerialization.data(withJSONObject: tree))
        #expect(older.locations.map(\.role) == [wellKnownRole, rootRole])
    }

    @Test func anAndroidLocationIsReadByAndroid() {
        #expect(LocationChoice.role(path: AssetLinksFile.path, usable: false, usedLocation: nil) == .readByAndroid)
    }

    @Test func firstErrorComesFromTheWellKnownLocationWhenNothingWorks() {
        let result = decide(.redirect, .notFound)
        #expect(result.firstError?.id == "redirect.present")
    }

    @Test func locationsAreWellKnownFirstAndCarryTheirFacts() {
        let result = decide(.good, .notFound)
        #expect(result.locations.map(\.path) == [AASAFile.wellKnownPath, AASAFile.rootPath])
        #expect(result.locations.map(\.httpStatus) == [200, 404])
        #expect(result.locations[0].body == F.goodJSON)
        #expect(result.locations[0].contentType == "application/json")
    }

    @Test func keyOrderDoesNotMakeCopiesDiffer() {
        let reordered = F.response(body: #"{"applinks":{"details":[{"components":[{"/":"/buy/*"}],"appIDs":["ABQ7KM3X2P.com.exemplo.app"]}]}}"#,
                                   url: Self.rootURL)
        let site = SiteFetch(domain: "example.com", wellKnown: LocationFetch(response: F.response()),
                             root: LocationFetch(response: reordered))
        #expect(Auditor(now: F.now).audit(site).verdict == .pass)
    }
}
