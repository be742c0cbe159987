import Foundation
import Testing
@testable import Audit

/// `--bodies`: which bodies a result keeps, decided by its stored verdict; what one left out still says.
struct BodiesPolicyTests {
    static let text = "{\"applinks\":{\"details\":[]}}\n"

    static func result(_ verdict: Verdict) -> DomainResult {
        let location = LocationResult(path: AASAFile.wellKnownPath, url: "https://a.test\(AASAFile.wellKnownPath)", verdict: verdict,
                                      httpStatus: 200, contentType: "application/json", headers: [],
                                      bytes: BodySize(transferred: 29, decoded: 29, limit: 131_072), redirect: nil, tls: nil,
                                      timings: TransferTimings(), error: nil, body: text, findings: [])
        var result = DomainResult(domain: "a.test", unicodeDomain: nil, verdict: verdict, usedLocation: AASAFile.wellKnownPath,
                                  findings: [], locations: [location, location])
        result.android = AndroidResult(location: location, findings: [], includes: [location])
        return result
    }

    static func bodies(of result: DomainResult) -> [String?] {
        result.locations.map(\.body) + [result.android?.location.body] + (result.android?.includes ?? []).map(\.body)
    }

    @Test(arguments: [
        (BodiesPolicy.all, Verdict.pass, true), (.all, .warn, true), (.all, .fail, true),
        (.failing, .pass, false), (.failing, .warn, true), (.failing, .fail, true),
        (.none, .pass, false), (.none, .warn, false), (.none, .fail, false),
    ])
    func aPolicyKeepsTheBodiesOfTheVerdictsItNames(policy: BodiesPolicy, verdict: Verdict, kept: Bool) {
        var result = Self.result(verdict)
        result.keepBodies(policy)
        #expect(Self.bodies(of: result) == Array(repeating: kept ? Self.text : nil, count: 4))
        // Left out or not, the location still says which file it was, and why it is not there.
        let location = result.locations[0]
        #expect(location.bodySHA256 == BodyDigest.sha256(of: Self.text))
        #expect(location.bodyOmittedBy == (kept ? nil : policy))
        #expect(location.bodyOmission == (kept ? nil : .notStored(by: policy, bytes: 29, sha256: BodyDigest.sha256(of: Self.text))))
    }

    @Test func theDigestIsSHA256OfTheText() {
        #expect(BodyDigest.sha256(of: "") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(BodyDigest.sha256(of: "abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(BodyDigest.isDigest(BodyDigest.sha256(of: "abc")))
        #expect(!BodyDigest.isDigest("BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD"))
        #expect(!BodyDigest.isDigest("abc"))
    }

    @Test func bodiesApartAreTakenOutOnceAndPutBack() throws {
        let result = Self.result(.fail)
        var taken: [String: String] = [:]
        var count = 0
        let apart = result.bodiesApart { taken[$0] = $1; count += 1 }
        #expect(count == 4 && taken == [BodyDigest.sha256(of: Self.text): Self.text])
        #expect(Self.bodies(of: apart).allSatisfy { $0 == nil })
        #expect(apart.locations.allSatisfy(\.bodyIsStoredApart) && apart.bodiesStoredApart.count == 4)
        var back = apart
        try back.resolveBodies { taken[$0] }
        #expect(back == result)
        var missing = apart
        #expect(throws: StoredBodyMissing(domain: "a.test", path: AASAFile.wellKnownPath, sha256: BodyDigest.sha256(of: Self.text))) {
            try missing.resolveBodies { _ in nil }
        }
    }

    @Test func settingABodySetsItsDigest() {
        var location = Self.result(.pass).locations[0]
        location.body = "other"
        #expect(location.bodySHA256 == BodyDigest.sha256(of: "other"))
        location.body = nil
        #expect(location.bodySHA256 == nil && location.bodyOmission != nil)
    }
}
