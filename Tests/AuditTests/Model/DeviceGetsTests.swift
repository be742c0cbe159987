import AASA
import SignedFiles
import Foundation
import Testing
@testable import Audit

/// What a release device gets, judged once per domain and stored in the result (`DomainResult.deviceGets`),
/// and why a certificate is refused whatever its days left (`JudgedCertificate.problem`).
@Suite struct DeviceGetsTests {
    static let wellKnown = AASAFile.wellKnownPath
    static let ok = CDNResult(url: "https://cdn/a/v1/x", httpStatus: 200, matchesOrigin: true)
    static let differs = CDNResult(url: "https://cdn/a/v1/x", httpStatus: 200, matchesOrigin: false)
    static let none = CDNResult(url: "https://cdn/a/v1/x", httpStatus: 404)
    static let unreachable = CDNResult(url: "https://cdn/a/v1/x", httpStatus: nil,
                                       error: TransferFailure(kind: .dns, curlCode: 6, message: "Could not resolve host"))

    /// (used location, CDN result, ids of the domain's findings, what devices get).
    static let cases: [(String?, CDNResult?, [String], DeviceGets)] = [
        (wellKnown, ok, ["cdn.ok"], .file),
        (wellKnown, ok, [], .file),                                    // a result without the CDN's finding
        (wellKnown, nil, [], .originFile),                             // --no-cdn
        (wellKnown, unreachable, ["cdn.unreachable"], .originFile),
        (wellKnown, differs, ["cdn.stale"], .staleCopy),
        (nil, differs, ["cdn.stale"], .staleCopy),                     // the CDN still serves its earlier copy
        (wellKnown, none, ["access.blocks-apple", "cdn.missing"], .noFileCrawlerBlocked),
        (wellKnown, nil, ["access.blocks-apple"], .noFileCrawlerBlocked),
        (wellKnown, ok, ["access.blocks-apple", "cdn.ok"], .file),     // the CDN's earlier copy, for now
        (wellKnown, none, ["cdn.missing"], .noFileCDNHasNoCopy),
        (wellKnown, none, [], .noFileCDNHasNoCopy),
        (nil, none, ["cdn.missing"], .noFile),
        (nil, nil, [], .noFile),
    ]

    @Test(arguments: cases)
    func judged(used: String?, cdn: CDNResult?, ids: [String], expected: DeviceGets) {
        #expect(DeviceGets(usedLocation: used, cdn: cdn, domainFindingIDs: Set(ids)) == expected)
    }

    /// The audit stores what devices get from its one `DeviceOutcome`; a result that lacks it is read
    /// back by the rule above. The two agree wherever the result holds the crawler's and the CDN's
    /// findings (every audited one).
    @Test(arguments: cases.filter { !$0.2.isEmpty })
    func theStoredJudgementIsTheDeviceOutcomes(used: String?, cdn: CDNResult?, ids: [String], expected: DeviceGets) throws {
        let document = try #require(DocumentValidator.validate(SignedFile.open(Data(#"{"applinks":{"details":[]}}"#.utf8))).document)
        let answered = ids.contains("cdn.ok") || ids.contains("cdn.stale")
        let outcome = DeviceOutcome(usedLocation: used, usedDocument: used == nil ? nil : document,
                                    wellKnownDocument: used == nil ? nil : document, cdnDocument: answered ? document : nil,
                                    findings: ids.map { Finding(id: $0, severity: .warning, message: "m") })
        #expect(DeviceGets(outcome) == expected)
    }

    @Test func getsAFileOnlyWhenItDoes() {
        #expect(DeviceGets.allCases.filter(\.getsAFile) == [.file, .originFile, .staleCopy])
        #expect(DeviceGets.allCases.filter(\.waitsForCDNRefresh) == [.staleCopy, .noFileCrawlerBlocked, .noFileCDNHasNoCopy, .noFile])
    }

    static func location(_ ids: [String]) -> LocationResult {
        LocationResult(path: wellKnown, url: "https://x.test\(wellKnown)", verdict: ids.isEmpty ? .pass : .fail, httpStatus: nil,
                       contentType: nil, headers: [], bytes: BodySize(), redirect: nil,
                       tls: TLSConnection(version: "TLSv1.3", certificate: ServerCertificate(subject: "CN=other.test", issuer: "CN=CA",
                                                                                            subjectAltNames: ["other.test"], notBefore: nil, notAfter: nil, daysLeft: 299)),
                       timings: TransferTimings(), error: nil, body: nil,
                       findings: ids.map { Finding(id: $0, severity: .error, message: "m") })
    }

    @Test(arguments: [(["tls.hostname-mismatch"], CertificateProblem.anotherName), (["tls.self-signed"], .selfSigned),
                      (["tls.untrusted"], .untrusted), (["tls.not-yet-valid"], .notYetValid),
                      (["tls.expired"], nil), ([], nil), (["tls.self-signed", "tls.hostname-mismatch"], .anotherName)])
    func theCertificateSaysWhyAppleRefusesIt(ids: [String], expected: CertificateProblem?) {
        let domain = DomainResult(domain: "x.test", verdict: ids.isEmpty ? .pass : .fail, usedLocation: nil, findings: [],
                                  locations: [Self.location(ids)])
        #expect(domain.certificate?.daysLeft == 299)
        #expect(domain.certificate?.problem == expected)
    }

    /// Stored in report.json, and judged when a report written before it is read.
    @Test func storedAndJudgedWhenAbsent() throws {
        var domain = DomainResult(domain: "x.test", verdict: .fail, usedLocation: Self.wellKnown,
                                  findings: [Finding(id: "cdn.missing", severity: .error, message: "m")],
                                  locations: [Self.location([])], cdn: Self.none)
        #expect(domain.deviceGets == .noFileCDNHasNoCopy)
        let json = try JSONEncoder().encode(domain)
        #expect(String(decoding: json, as: UTF8.self).contains("\"deviceGets\":\"no-file-cdn-no-copy\""))
        // A report written before it: the key removed, the rest kept.
        var object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        object["deviceGets"] = nil
        let older = try JSONDecoder().decode(DomainResult.self, from: try JSONSerialization.data(withJSONObject: object))
        #expect(older.deviceGets == .noFileCDNHasNoCopy)
        // A recorded one is kept as recorded.
        domain.deviceGets = .file
        #expect(try JSONDecoder().decode(DomainResult.self, from: try JSONEncoder().encode(domain)).deviceGets == .file)
    }
}
