import AASA
import Fetching
import Foundation
import Testing
@testable import Audit

private typealias F = CheckFixtures

/// A domain claimed for Android alone (`platforms=android`, or a host only an `--apk` names) needs no
/// AASA file: its verdict and headline are its Android part's, and the result says which platforms.
@Suite struct AndroidOnlyDomainTests {
    static let release = "D2:EA:8B:A3:B0:4B:5C:C0:6A:4B:48:E5:AD:5F:C2:9B:22:4D:63:67:A4:A5:26:1D:22:27:71:49:48:38:A7:0C"
    static let list = #"[{"relation":["delegate_permission/common.handle_all_urls"],"target":{"namespace":"android_app","package_name":"com.exemplo.app","sha256_cert_fingerprints":[""# + release + #""]}}]"#
    static let notFound = F.response(status: 404, contentType: "text/html", body: "")

    static func site(assetLinks: String) -> SiteFetch {
        SiteFetch(domain: "example.com", wellKnown: LocationFetch(response: notFound), root: LocationFetch(response: notFound),
                  android: LocationFetch(response: F.response(body: assetLinks, url: "https://example.com/.well-known/assetlinks.json")))
    }

    static func expectations(_ line: String) throws -> DomainExpectations {
        try DomainExpectations.parse(line.split(separator: " "))
    }

    @Test func androidOnlyPassesWithoutAnAASAFile() throws {
        let result = Auditor(now: F.now).audit(Self.site(assetLinks: Self.list),
                                               expectations: try Self.expectations("platforms=android android=com.exemplo.app sha256=\(Self.release)"))
        #expect(result.appleVerdict == .fail)
        #expect(result.android?.verdict == .pass)
        #expect(result.verdict == .pass)
        #expect(result.headline == nil)
        #expect(result.platforms == ["android"])
    }

    @Test func androidOnlyFailsForItsAndroidPartWithItsHeadline() throws {
        let result = Auditor(now: F.now).audit(Self.site(assetLinks: Self.list),
                                               expectations: try Self.expectations("platforms=android android=com.other.app"))
        #expect(result.verdict == .fail)
        #expect(result.headline?.id == "expect.android-missing")
    }

    @Test func bothPlatformsStillNeedTheAASAFile() throws {
        for line in ["android=com.exemplo.app", "platforms=apple,android android=com.exemplo.app"] {
            let result = Auditor(now: F.now).audit(Self.site(assetLinks: Self.list), expectations: try Self.expectations(line))
            #expect(result.verdict == .fail, "\(line)")
            #expect(result.platforms == ["apple", "android"], "\(line)")
        }
    }

    @Test func anAppleOnlyResultNamesNoPlatforms() throws {
        let result = Auditor(now: F.now).audit(SiteFetch(domain: "example.com", wellKnown: LocationFetch(response: F.response()),
                                                         root: LocationFetch(response: Self.notFound)))
        #expect(result.platforms == nil)
        let json = String(decoding: try JSONEncoder().encode(result), as: UTF8.self)
        #expect(!json.contains("platforms"))
    }

    @Test func anAPKsExpectationCarriesThePlayAppSigningNote() throws {
        var expected = try Self.expectations("platforms=android android=com.exemplo.app sha256=\(Self.release)")
        expected.apkFiles = ["app.apk"]
        let result = Auditor(now: F.now).audit(Self.site(assetLinks: Self.list), expectations: expected)
        let note = try #require(result.android?.findings.first { $0.id == "expect.play-app-signing" })
        #expect(note.severity == .info)
        #expect(note.message.contains("app.apk") && note.message.contains(Self.release))
        #expect(result.verdict == .pass)
    }
}
