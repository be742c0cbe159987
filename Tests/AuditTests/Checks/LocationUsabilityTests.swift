import Audit
import Fetching
import Foundation
import Testing

/// Whether Apple can read a document from a location, apart from its verdict: every cause that makes
/// a location unusable, and files Apple reads although some of their entries are broken.
@Suite struct LocationUsabilityTests {
    typealias F = CheckFixtures
    /// A file Apple reads with one good app ID and one malformed one (no Team ID).
    static let partnerJSON = #"{"applinks":{"details":[{"appIDs":["ZXCVB12345.com.partner.app","com.partner.app2"],"components":[{"/":"/account/*"}]}]}}"#

    func checked(_ response: FetchResponse) -> LocationResult {
        Auditor(now: F.now).check(path: AASAFile.wellKnownPath, fetch: LocationFetch(response: response)).result
    }

    static func sized(_ decoded: Int, truncated: Bool = false) -> FetchResponse {
        var response = F.response(body: "")
        let body = "{\"applinks\":{\"details\":[]},\"x\":\"" + String(repeating: "a", count: max(0, decoded - 40)) + "\"}"
        response.body = Data(body.utf8)
        response.bytes = ByteCounts(transferred: decoded, decoded: decoded, truncated: truncated, limit: truncated ? decoded : 1 << 20)
        return response
    }

    static let unusable: [(String, FetchResponse)] = [
        ("network.dns", F.response(status: nil, contentType: nil, body: "", error: F.failure(.dns, 6, "Could not resolve host"), tls: nil)),
        ("network.refused", F.response(status: nil, contentType: nil, body: "", error: F.failure(.refused, 7, "Connection refused"), tls: nil)),
        ("network.timeout", F.response(status: nil, contentType: nil, body: "", error: F.failure(.timeout, 28, "timed out"), tls: nil)),
        ("network.reset", F.response(status: nil, contentType: nil, body: "", error: F.failure(.reset, 56, "Connection reset"), tls: nil)),
        ("network.too-large", F.response(status: nil, contentType: nil, body: "", error: F.failure(.tooLarge, 100, "header too large"), tls: nil)),
        ("network.error", F.response(status: nil, contentType: nil, body: "", error: F.failure(.other, 2, "failed"), tls: nil)),
        ("tls.expired", F.response(status: nil, contentType: nil, body: "", error: F.failure(.tls, 60, "SSL certificate problem: certificate has expired"), tls: nil)),
        ("tls.untrusted", F.response(status: nil, contentType: nil, body: "", error: F.failure(.tls, 60, "SSL certificate problem: unable to get local issuer certificate"), tls: nil)),
        ("tls.hostname-mismatch", F.response(status: nil, contentType: nil, body: "", error: F.failure(.tls, 60, "SSL: no alternative certificate subject name matches target host name"), tls: nil)),
        ("tls.handshake-failed", F.response(status: nil, contentType: nil, body: "", error: F.failure(.tls, 35, "handshake failure"), tls: nil)),
        ("redirect.present", F.response(status: 301, contentType: nil, body: "", headers: [HTTPHeader(name: "Location", value: "https://www.example.com/")])),
        ("http.not-found", F.response(status: 404, contentType: "text/html", body: "no")),
        ("http.denied", F.response(status: 403, contentType: "text/html", body: "no")),
        ("http.client-error", F.response(status: 429, contentType: "text/html", body: "slow down")),
        ("http.server-error", F.response(status: 503, contentType: "text/html", body: "down")),
        ("http.unexpected-status", F.response(status: 204, contentType: nil, body: "")),
        ("size.empty", F.response(body: "")),
        ("size.too-large", sized(131_073)),
        ("size.too-large", sized(131_072, truncated: true)),
        ("http.html-page", F.response(contentType: "text/html", body: "<!doctype html><title>Sign in</title>")),
        ("json.syntax", F.response(body: #"{"applinks": {"details": [],},}"#)),
        ("json.invalid-utf8", F.bodyResponse(Data([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D]))),
        ("json.not-object", F.response(body: #"[{"applinks":{}}]"#)),
        ("json.signed-unreadable", F.bodyResponse(Data([0x30, 0x82, 0x05, 0x00, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02, 0xA0, 0x82]),
                                                  contentType: "application/pkcs7-mime")),
        ("network.private-address", { var r = F.response(); r.addresses = ["10.1.2.3"]; return r }()),
        ("network.proxy", {
            var r = F.response(status: nil, body: "", error: F.failure(.reset, 56, "CONNECT tunnel failed, response 403"), tls: nil)
            r.proxy = ProxyUse(proxy: "http://10.0.0.1:3128", source: .option, tunnelStatus: 403)
            return r
        }()),
    ]

    @Test(arguments: unusable.indices)
    func everyCauseMakesTheLocationUnusable(index: Int) {
        let (id, response) = Self.unusable[index]
        let result = checked(response)
        #expect(!result.usable, "\(id): \(result.findings.map(\.id))")
        #expect(LocationUsability.causes(in: result.findings).map(\.id).contains(id), "\(id): \(result.findings.map(\.id))")
        #expect(result.verdict == .fail)
    }

    /// Each unusable cause is an error, and the list covers every one the tests above exercise.
    @Test func theListIsErrorsOnlyAndComplete() {
        #expect(LocationUsability.unusableRules.allSatisfy { $0.severity == .error })
        let registered = Set(RuleRegistry.allRules.map(\.id))
        #expect(LocationUsability.unusableRules.allSatisfy { registered.contains($0.id) })
        // assetlinks.too-large is an Android location's (AndroidVerifierRulesTests.aFileOverTheLimitMeetsNoExpectation).
        #expect(Set(LocationUsability.unusableRules.map(\.id)) == Set(Self.unusable.map(\.0)).union(["tls.not-yet-valid", "tls.self-signed", "assetlinks.too-large"]))
    }

    @Test(arguments: [
        // A file Apple reads, whatever its entries say: (body, an error it has, or nil)
        (partnerJSON, "schema.app-id-format" as String?),
        (#"{"applinks":{"details":[{"appIDs":["1593741764.com.exemplo.app"],"components":[{"/":"/*"}]}]}}"#, "schema.app-id-store-id"),
        (#"{"applinks":{"details":[{"components":[{"/":"/*"}]}]}}"#, "schema.no-app-id"),
        (#"{"webcredential":{"apps":["ABQ7KM3X2P.com.exemplo.app"]}}"#, "schema.no-service"),
        (#"{"applinks":{}}"#, "schema.details-missing"),
        ("\u{FEFF}" + F.goodJSON, "json.bom"),
        (#"{"applinks":{"details":[]}}"#, nil),
    ])
    func aFileWithBrokenEntriesIsUsable(body: String, error: String?) {
        let result = checked(F.response(body: body))
        #expect(result.usable, "\(result.findings.map(\.id))")
        if let error {
            #expect(result.findings.contains { $0.id == error && $0.severity == .error }, "\(result.findings.map(\.id))")
            #expect(result.verdict == .fail)
        }
    }

    @Test func partnerFileIsTheFileAppleUsesAndTheDomainStillFails() {
        let site = SiteFetch(domain: "partner.test",
                             wellKnown: LocationFetch(response: F.response(body: Self.partnerJSON)),
                             root: LocationFetch(response: F.response(status: 404, contentType: "text/html", body: "no",
                                                                      url: "https://example.com/apple-app-site-association")))
        let (result, device) = Auditor(now: F.now).auditWithDocument(site)
        let document = device.release.document
        #expect(result.verdict == .fail)
        #expect(result.usedLocation == AASAFile.wellKnownPath)
        #expect(result.locations.map(\.usable) == [true, false])
        #expect(document != nil)
        #expect(result.headline?.id == "schema.app-id-format")
        #expect(result.headline?.message.contains("com.partner.app2") == true)
    }

    /// A report written before `usable` was recorded gets it from the status and findings.
    @Test func olderReportsWithoutUsableDecode() throws {
        for (response, usable) in [(F.response(body: Self.partnerJSON), true), (F.response(status: 404, contentType: nil, body: ""), false)] {
            let result = checked(response)
            #expect(result.usable == usable)
            let data = try JSONEncoder().encode(result)
            var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(object["usable"] as? Bool == usable)
            object.removeValue(forKey: "usable")
            let older = try JSONDecoder().decode(LocationResult.self, from: try JSONSerialization.data(withJSONObject: object))
            #expect(older.usable == usable)
            #expect(older == result)
        }
    }
}
