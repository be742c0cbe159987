import AASA
import Fetching
import Foundation
import Testing
@testable import Audit

private typealias F = CheckFixtures

/// A domain claimed for Android alone (`platforms=android`, or a host only an `--apk` names) needs no
/// AASA file: its verdict and headline are its Android part's, and the result says which platforms.
@Suite struct AndroidOnlyDomainTests {
    static let release = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
    static let list = #"[{"relation":["delegate_permission/common.handle_all_urls"],"target":{"namespace":"android_app","package_name":"com.example.app","sha256_cert_fingerprints":[""# + release + #""]}}]"#
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
                                               expectations: try Self.expectations("platforms=android android=com.example.app sha256=\(Self.release)"))
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
        for line in ["android=com.example.app", "platforms=apple,android android=com.example.app"] {
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
        var expected = try Self.expectations("platforms=android android=com.example.app sha256=\(Self.release)")
        expected.apkFiles = ["app.apk"]
        let result = Auditor(now: F.now).audit(Self.site(assetLinks: Self.list), expectations: expected)
        let note = try #require(result.android?.findings.first { $0.id == "expect.play-app-signing" })
        #expect(note.severity == .info)
        #expect(note.message.contains("app.apk") && note.message.contains(Self.release))
        #expect(result.verdict == .pass)
    }
}
