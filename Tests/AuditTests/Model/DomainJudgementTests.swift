import Foundation
import Testing
@testable import Audit

/// The judgements stored in a domain's result: the headline finding, the certificate and the check of every finding.
@Suite struct DomainJudgementTests {
    static let wk = AASAFile.wellKnownPath, root = AASAFile.rootPath
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func finding(_ id: String, _ severity: Severity) -> Finding {
        Finding(id: id, severity: severity, message: "\(id) happened")
    }

    static func location(_ path: String, _ findings: [Finding], notAfter: Date? = nil) -> LocationResult {
        LocationResult(path: path, url: "https://x\(path)", verdict: Verdict(findings: findings), httpStatus: 200, contentType: nil,
                       headers: [], bytes: BodySize(), redirect: nil,
                       tls: notAfter.map { TLSConnection(certificate: ServerCertificate(subject: "CN=\(path)", issuer: "CN=ca", subjectAltNames: [],
                                                                                         notBefore: nil, notAfter: $0)) },
                       timings: TransferTimings(), error: nil, body: nil, findings: findings)
    }

    @Test func warnHeadlineIsTheUsedLocationsWarningNotTheUnusedLocationsError() {
        let domain = DomainResult(domain: "x", verdict: .warn, usedLocation: Self.root, findings: [],
                                  locations: [Self.location(Self.wk, [Self.finding("http.not-found", .error)]),
                                              Self.location(Self.root, [Self.finding("content-type.unexpected", .warning)])])
        #expect(domain.headline?.id == "content-type.unexpected")
        #expect(domain.firstError?.id == "http.not-found")
    }

    @Test func failHeadlineIsTheFirstErrorAndPassHasNone() {
        let failing = DomainResult(domain: "x", verdict: .fail, usedLocation: nil, findings: [],
                                   locations: [Self.location(Self.wk, [Self.finding("tls.expired", .error)]), Self.location(Self.root, [])])
        #expect(failing.headline?.id == "tls.expired")
        let passing = DomainResult(domain: "x", verdict: .pass, usedLocation: Self.wk, findings: [],
                                   locations: [Self.location(Self.wk, [Self.finding("tls.expiring-soon", .info)])])
        #expect(passing.headline == nil)
    }

    @Test func certificateIsTheUsedLocationsWithDaysLeftFromTheRunsStart() {
        let domain = DomainResult(domain: "x", verdict: .warn, usedLocation: Self.root, findings: [],
                                  locations: [Self.location(Self.wk, [], notAfter: Self.start + 5 * 86_400),
                                              Self.location(Self.root, [], notAfter: Self.start + 50 * 86_400)])
        let report = AuditReport(tool: ToolInfo(name: "t", version: "0"), generatedAt: Self.start, domains: [domain])
        #expect(report.domains[0].certificate == JudgedCertificate(location: Self.root, notAfter: Self.start + 50 * 86_400, daysLeft: 50))
        #expect(report.domains[0].locations[0].tls?.certificate?.daysLeft == 5)
    }

    @Test func checksAreNamedFromTheRegistryWhenMissing() {
        let domain = DomainResult(domain: "x", verdict: .fail, usedLocation: nil,
                                  findings: [Self.finding("cdn.missing", .error), Self.finding("no.such-rule", .info)],
                                  locations: [Self.location(Self.wk, [Self.finding("http.not-found", .error)])])
        #expect(domain.findings.map(\.check) == ["cdn", nil])
        #expect(domain.locations[0].findings.first?.check == "status")
        var stored = Self.finding("http.not-found", .error)
        stored.check = "document"
        let kept = DomainResult(domain: "x", verdict: .fail, usedLocation: nil, findings: [], locations: [Self.location(Self.wk, [stored])])
        #expect(kept.locations[0].findings.first?.check == "document", "a check the audit stored is not second-guessed")
    }

    /// A report.json written before the judgements were stored: no `headline`, `certificate`, `check`
    /// or `daysLeft`. `merge` and `--baseline` read such files.
    @Test func olderReportsWithoutTheJudgementsStillDecodeAndGetThem() throws {
        let json = """
        {"schemaVersion":1,"tool":{"name":"aasa-audit","version":"0.1.0"},"generatedAt":"2027-01-15T00:00:00Z","complete":true,
         "summary":{"domains":1,"pass":0,"warn":0,"fail":1},"inputErrors":[],
         "domains":[{"domain":"a.example","verdict":"fail","findings":[],"locations":[
           {"path":"/.well-known/apple-app-site-association","url":"https://a.example/.well-known/apple-app-site-association",
            "verdict":"fail","httpStatus":404,"headers":[],"bytes":{"transferred":0,"decoded":0,"truncated":false,"limit":131072},
            "tls":{"certificateFromProbe":false,"certificate":{"subject":"CN=a","issuer":"CN=ca","subjectAltNames":[],"notAfter":"2027-01-25T00:00:00Z"}},
            "timings":{"dnsMs":0,"connectMs":0,"tlsMs":0,"firstByteMs":0,"totalMs":0,"reusedConnection":false},
            "findings":[{"id":"http.not-found","severity":"error","message":"404"}]}]}]}
        """
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let report = try decoder.decode(AuditReport.self, from: Data(json.utf8))
        let domain = try #require(report.domains.first)
        #expect(domain.headline?.id == "http.not-found")
        #expect(domain.locations[0].findings[0].check == "status")
        #expect(domain.certificate?.location == AASAFile.wellKnownPath)
        #expect(domain.certificate?.daysLeft == 10, "counted from the report's own start")
        #expect(domain.locations[0].tls?.certificate?.daysLeft == 10)
        // Neither the roles nor the threshold were recorded then: the same rule, the default.
        #expect(domain.locations[0].role == .unreadable)
        #expect(report.expiryWarningDays == 30)
    }

    @Test func storedJudgementsAreReadAsWritten() throws {
        var domain = DomainResult(domain: "x", verdict: .fail, usedLocation: nil, findings: [],
                                  locations: [Self.location(Self.wk, [Self.finding("http.not-found", .error)])])
        domain.headline = Self.finding("other.reason", .error)
        let encoder = JSONEncoder()
        let decoded = try JSONDecoder().decode(DomainResult.self, from: try encoder.encode(domain))
        #expect(decoded.headline?.id == "other.reason")
        #expect(decoded == domain)
    }
}
