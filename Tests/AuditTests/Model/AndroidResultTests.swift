import AASA
import Audit
import Foundation
import Testing

/// The Android part in the report model: its verdict in the domain's, the headline, the comparison
/// with a baseline, and reports written before it.
@Suite struct AndroidResultTests {
    static func location(_ findings: [Finding]) -> LocationResult {
        LocationResult(path: "/.well-known/assetlinks.json", url: "https://example.com/.well-known/assetlinks.json",
                       verdict: Verdict(findings: findings), httpStatus: 200, contentType: "application/json", headers: [],
                       bytes: BodySize(transferred: 10, decoded: 10, truncated: false, limit: 1 << 20), redirect: nil, tls: nil,
                       timings: TransferTimings(), error: nil, body: "[]", findings: findings)
    }

    static let lowercase = Finding(id: "assetlinks.fingerprint-lowercase", severity: .error, message: "Fingerprint \"ab:…\" …", check: "document")

    static func domain(android findings: [Finding]?) -> DomainResult {
        var result = DomainResult(domain: "example.com", verdict: .pass, usedLocation: "/.well-known/apple-app-site-association",
                                  findings: [], locations: [])
        if let findings {
            let android = AndroidResult(location: location(findings), findings: [])
            result.android = android
            result.appleVerdict = .pass
            result.verdict = android.verdict == .fail ? .fail : .pass
            result.judge(at: nil)
        }
        return result
    }

    @Test func androidErrorIsTheHeadlineOfADomainWhoseApplePartPasses() throws {
        let result = Self.domain(android: [Self.lowercase])
        #expect(result.verdict == .fail)
        #expect(result.headline?.id == "assetlinks.fingerprint-lowercase")
        #expect(result.allFindings.map(\.id) == ["assetlinks.fingerprint-lowercase"])
        #expect(Summary(domains: [result]).android == AndroidSummary([try #require(result.android)]))
        #expect(Summary(domains: [Self.domain(android: nil)]).android == nil)
    }

    @Test func changesCoverTheAndroidPartOnlyWhenBothRunsAuditedIt() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        func report(_ domain: DomainResult) -> AuditReport {
            AuditReport(tool: ToolInfo(name: "aasa-audit", version: "test"), generatedAt: now, domains: [domain])
        }
        let fixed = Self.domain(android: [])
        let broken = Self.domain(android: [Self.lowercase])
        let appeared = ReportChanges.between(baseline: report(fixed), current: report(broken), baselinePath: nil, expiryWarningDays: 30)
        #expect(appeared.findingsAppeared.map(\.id) == ["assetlinks.fingerprint-lowercase"])
        #expect(appeared.findingsAppeared.first?.location == "/.well-known/assetlinks.json")
        let gone = ReportChanges.between(baseline: report(broken), current: report(fixed), baselinePath: nil, expiryWarningDays: 30)
        #expect(gone.findingsGone.map(\.id) == ["assetlinks.fingerprint-lowercase"])
        // A first run with --android after one without is no news about the domain's findings.
        let firstTime = ReportChanges.between(baseline: report(Self.domain(android: nil)), current: report(broken), baselinePath: nil, expiryWarningDays: 30)
        #expect(firstTime.findingsAppeared.isEmpty)
    }

    @Test func reportsWithoutTheAndroidPartStillDecodeAndNewOnesRoundTrip() throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let plain = try encoder.encode(Self.domain(android: nil))
        #expect(!String(decoding: plain, as: UTF8.self).contains("android"))
        #expect(try decoder.decode(DomainResult.self, from: plain).android == nil)
        let withAndroid = Self.domain(android: [Self.lowercase])
        let decoded = try decoder.decode(DomainResult.self, from: try encoder.encode(withAndroid))
        #expect(decoded == withAndroid)
    }

    @Test func baselineEssentialsDropTheAndroidEvidence() throws {
        let report = AuditReport(tool: ToolInfo(name: "aasa-audit", version: "test"), generatedAt: Date(timeIntervalSince1970: 0),
                                 domains: [Self.domain(android: [Self.lowercase])])
        let essentials = ReportChanges.essentials(of: report)
        let android = try #require(essentials.domains.first?.android)
        #expect(android.location.body == nil)
        #expect(android.location.findings.map(\.id) == ["assetlinks.fingerprint-lowercase"])
        #expect(android.location.findings.first?.fix == nil)
    }
}
