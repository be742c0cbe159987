import Fetching
import Foundation
import Testing
@testable import Audit

private typealias F = CheckFixtures

/// What the Auditor stores in a result for the reporters: the check behind every finding, the
/// headline, the certificate, and the fetch layer's facts mapped into the report model.
@Suite struct AuditorJudgementTests {
    static let notFound = F.response(status: 404, contentType: "text/html", body: "", url: "https://example.com/apple-app-site-association")

    @Test func everyFindingNamesTheCheckThatMadeIt() {
        let site = SiteFetch(domain: "example.com", wellKnown: LocationFetch(response: F.response(tls: TLSFacts(version: "TLSv1.3", certificate: F.certificate(daysLeft: 5)))),
                             root: LocationFetch(response: Self.notFound))
        let result = Auditor(now: F.now).audit(site)
        let wellKnown = result.locations[0].findings, root = result.locations[1].findings
        #expect(!wellKnown.isEmpty && !root.isEmpty)
        #expect(wellKnown.allSatisfy { $0.check == RuleRegistry.check(ofRule: $0.id) && $0.check != nil }, "\(wellKnown.map { ($0.id, $0.check) })")
        #expect(root.first { $0.id == "http.not-found" }?.check == StatusCheck.id)
        #expect(wellKnown.first { $0.id.hasPrefix("tls.") }?.check == CertificateCheck.id)
    }

    @Test func certificateAndDaysLeftAreTheAuditsFromItsOwnClock() {
        let site = SiteFetch(domain: "example.com", wellKnown: LocationFetch(response: F.response(tls: TLSFacts(version: "TLSv1.3", certificate: F.certificate(daysLeft: 12.5)))),
                             root: LocationFetch(response: Self.notFound))
        let result = Auditor(now: F.now).audit(site)
        #expect(result.locations[0].tls?.certificate?.daysLeft == 12)
        #expect(result.certificate == JudgedCertificate(location: AASAFile.wellKnownPath, notAfter: F.now + 12.5 * 86_400, daysLeft: 12))
        #expect(result.headline?.id == result.locations[0].findings.first { $0.severity == .warning }?.id)
        #expect(result.locations[0].timings == TransferTimings(totalMs: 40))
        #expect(result.locations[0].headers.first == HeaderField(name: "content-type", value: "application/json"))
    }

    /// report.json's `android.location.usable`: a statement list Android's verifier reads is usable (it
    /// was always false, the AASA document being looked for); an object root or a 404 is not.
    @Test func anAssetLinksLocationIsUsableWhenItsStatementListIsRead() throws {
        let list = #"[{"relation":["delegate_permission/common.handle_all_urls"],"target":{"namespace":"android_app","package_name":"com.exemplo.app","sha256_cert_fingerprints":["D2:EA:8B:A3:B0:4B:5C:C0:6A:4B:48:E5:AD:5F:C2:9B:22:4D:63:67:A4:A5:26:1D:22:27:71:49:48:38:A7:0C"]}}]"#
        func android(_ response: FetchResponse) throws -> AndroidResult {
            let site = SiteFetch(domain: "example.com", wellKnown: LocationFetch(response: F.response()), root: LocationFetch(response: Self.notFound),
                                 android: LocationFetch(response: response))
            return try #require(Auditor(now: F.now).audit(site).android)
        }
        let good = try android(F.response(body: list, url: "https://example.com/.well-known/assetlinks.json"))
        #expect(good.location.usable && good.location.verdict == .pass, "\(good.location.findings.map(\.id))")
        #expect(try !android(F.response(body: #"{"a":1}"#, url: "https://example.com/.well-known/assetlinks.json")).location.usable)
        #expect(try !android(F.response(status: 404, contentType: "text/html", body: "", url: "https://example.com/.well-known/assetlinks.json")).location.usable)
    }

    @Test func transferFailuresKeepCurlsCodeAndText() {
        let failed = F.response(status: nil, body: "", error: F.failure(.timeout, 28, "Operation timed out"), tls: nil)
        let result = Auditor(now: F.now).audit(SiteFetch(domain: "example.com", wellKnown: LocationFetch(response: failed),
                                                          root: LocationFetch(response: failed)))
        #expect(result.locations[0].error == TransferFailure(kind: .timeout, curlCode: 28, message: "Operation timed out"))
        #expect(result.headline?.id == "network.timeout" && result.headline?.check == NetworkCheck.id)
    }
}
