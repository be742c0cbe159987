@testable import Audit
import Fetching
import Foundation
import Testing

/// Apple's certificate rules (support.apple.com 103769, 102028, 103214) and ATS's cipher rule, on
/// certificate facts made here: each rule fires on the case that breaks it, and a compliant
/// certificate gets none.
@Suite struct CertificatePolicyCheckTests {
    static let day = 86_400.0
    static let now = CheckFixtures.now
    static let serverAuth = ["TLS Web Server Authentication"]

    /// A compliant leaf: RSA 2048, SHA-256, SAN, serverAuth, 90 days, 3 SCTs; then one fact changed.
    static func leaf(_ change: (inout CertificateFacts) -> Void = { _ in }) -> CertificateFacts {
        var facts = CertificateFacts(subject: "CN = example.com", issuer: "CN = Some CA", subjectAltNames: ["example.com"],
                                     notBefore: now - 10 * day, notAfter: now + 80 * day, keyAlgorithm: "rsaEncryption", keyBits: 2048,
                                     signatureAlgorithm: "sha256WithRSAEncryption", extendedKeyUsages: serverAuth, embeddedSCTs: 3)
        change(&facts)
        return facts
    }

    static func date(_ text: String) -> Date {
        ISO8601DateFormatter().date(from: text + "T00:00:00Z")!
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var certificate: CertificateFacts
        var trust: TLSFacts.TrustAnchor?
        var ids: [String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "compliant, publicly trusted: nothing", certificate: leaf(), trust: .systemStore, ids: []),
        Case(name: "compliant, private CA, no SCTs: nothing", certificate: leaf { $0.embeddedSCTs = 0 }, trust: .userFile, ids: []),
        Case(name: "RSA 1024", certificate: leaf { $0.keyBits = 1024 }, trust: .userFile, ids: ["tls.rsa-key-too-small"]),
        Case(name: "EC 256 is not an RSA key", certificate: leaf { $0.keyAlgorithm = "id-ecPublicKey"; $0.keyBits = 256 }, trust: .userFile, ids: []),
        Case(name: "SHA-1", certificate: leaf { $0.signatureAlgorithm = "sha1WithRSAEncryption" }, trust: .userFile, ids: ["tls.sha1-signature"]),
        Case(name: "ECDSA with SHA-1", certificate: leaf { $0.signatureAlgorithm = "ecdsa-with-SHA1" }, trust: .userFile, ids: ["tls.sha1-signature"]),
        Case(name: "name only in the CN", certificate: leaf { $0.subjectAltNames = []; $0.hasSubjectAltName = false }, trust: .userFile,
             ids: ["tls.name-not-in-san"]),
        Case(name: "a SAN of IP addresses only", certificate: leaf { $0.subjectAltNames = ["IP:192.0.2.1"] }, trust: .userFile,
             ids: ["tls.name-not-in-san"]),
        Case(name: "no EKU, issued after July 2019", certificate: leaf { $0.extendedKeyUsages = nil }, trust: .userFile, ids: ["tls.no-server-auth-eku"]),
        Case(name: "client auth only", certificate: leaf { $0.extendedKeyUsages = ["TLS Web Client Authentication"] }, trust: .userFile,
             ids: ["tls.no-server-auth-eku"]),
        Case(name: "no EKU, issued 1 July 2019 (not after it)",
             certificate: leaf { $0.extendedKeyUsages = nil; $0.notBefore = date("2019-07-01"); $0.notAfter = date("2020-07-01") },
             trust: .userFile, ids: []),
        Case(name: "900 days under a private CA: the 825-day rule", certificate: leaf { $0.notAfter = $0.notBefore! + 900 * day },
             trust: .userFile, ids: ["tls.validity-over-825-days"]),
        Case(name: "500 days under a private CA: nothing", certificate: leaf { $0.notAfter = $0.notBefore! + 500 * day },
             trust: .userFile, ids: []),
        Case(name: "500 days, publicly trusted, issued after 1 September 2020: the 398-day rule",
             certificate: leaf { $0.notAfter = $0.notBefore! + 500 * day }, trust: .systemStore, ids: ["tls.validity-over-398-days"]),
        Case(name: "500 days, publicly trusted, issued 31 August 2020: nothing",
             certificate: leaf { $0.notBefore = date("2020-08-31"); $0.notAfter = date("2020-08-31") + 500 * day }, trust: .systemStore, ids: []),
        Case(name: "398 days and one second: 399 days as Apple counts", certificate: leaf { $0.notAfter = $0.notBefore! + 398 * day },
             trust: .systemStore, ids: ["tls.validity-over-398-days"]),
        Case(name: "397 days exactly and a second short: fine", certificate: leaf { $0.notAfter = $0.notBefore! + 397 * day - 1 },
             trust: .systemStore, ids: []),
        Case(name: "900 days, issued before July 2019: nothing", certificate: leaf { $0.notBefore = date("2019-01-01"); $0.notAfter = date("2021-06-20") },
             trust: .systemStore, ids: []),
        Case(name: "publicly trusted without SCTs", certificate: leaf { $0.embeddedSCTs = 0 }, trust: .systemStore, ids: ["tls.scts-missing"]),
        Case(name: "publicly trusted, 200 days, 2 SCTs: 3 needed",
             certificate: leaf { $0.embeddedSCTs = 2; $0.notAfter = $0.notBefore! + 200 * day }, trust: .systemStore, ids: ["tls.scts-missing"]),
        Case(name: "publicly trusted, 90 days, 2 SCTs: enough", certificate: leaf { $0.embeddedSCTs = 2 }, trust: .systemStore, ids: []),
        Case(name: "unknown trust (a failed handshake): neither the 398-day nor the SCT rule",
             certificate: leaf { $0.embeddedSCTs = 0; $0.notAfter = $0.notBefore! + 500 * day }, trust: nil, ids: []),
    ]

    @Test(arguments: cases)
    func eachRuleOnTheCaseThatBreaksIt(_ test: Case) {
        let findings = CertificatePolicyCheck.leafFindings(test.certificate, trust: test.trust, host: "example.com")
        #expect(findings.map(\.id) == test.ids)
        #expect(findings.allSatisfy { $0.severity == .warning })
    }

    @Test func theMessagesSayWhatTheCDNsRulesAreNot() throws {
        let finding = try #require(CertificatePolicyCheck.leafFindings(Self.leaf { $0.keyBits = 1024 }, trust: .userFile, host: "example.com").first)
        #expect(finding.message.contains("1024-bit RSA key"))
        #expect(finding.message.contains("Apple's CDN") && finding.message.contains("not documented"))
    }

    @Test func aPrivateCAsLongCertificateIsToldWhichLimitApplies() throws {
        let finding = try #require(CertificatePolicyCheck.leafFindings(Self.leaf { $0.notAfter = $0.notBefore! + 900 * Self.day },
                                                                       trust: .userFile, host: "example.com").first)
        #expect(finding.message.contains("valid for 901 days") || finding.message.contains("valid for 900 days"))
        #expect(finding.message.contains("--cacert") && finding.message.contains("825-day"))
    }

    @Test func theChainsKeysAndSignaturesButNotARootsSelfSignature() {
        let chain = [
            ChainCertificateFacts(subject: "CN = Intermediate", issuer: "CN = Root", keyAlgorithm: "rsaEncryption", keyBits: 1024,
                                  signatureAlgorithm: "sha1WithRSAEncryption"),
            ChainCertificateFacts(subject: "CN = Root", issuer: "CN = Root", keyAlgorithm: "rsaEncryption", keyBits: 4096,
                                  signatureAlgorithm: "sha1WithRSAEncryption"),
        ]
        #expect(CertificatePolicyCheck.chainFindings(chain).map(\.id) == ["tls.rsa-key-too-small", "tls.sha1-signature"])
    }

    @Test(arguments: [
        ("TLSv1.3", "TLS_AES_128_GCM_SHA256", false),
        ("TLSv1.2", "ECDHE-RSA-AES128-GCM-SHA256", false),
        ("TLSv1.2", "ECDHE-ECDSA-AES256-SHA384", false),
        ("TLSv1.2", "AES128-GCM-SHA256", true),        // RSA key exchange: no forward secrecy
        ("TLSv1.2", "DHE-RSA-AES128-GCM-SHA256", true), // forward secrecy, but not ECDHE
        ("TLSv1.2", "ECDHE-RSA-CHACHA20-POLY1305", true),
    ])
    func atsCiphers(version: String, cipher: String, reported: Bool) {
        #expect((CertificatePolicyCheck.cipherFinding(version: version, cipher: cipher) != nil) == reported)
    }

    @Test(arguments: [
        (0.0, 1), (86_399.0, 1), (86_400.0, 2), (397 * 86_400.0 - 1, 397), (397 * 86_400.0, 398),
    ])
    func validityIsCountedAsApple(seconds: Double, days: Int) {
        #expect(CertificatePolicyCheck.validityDays(notBefore: Self.now, notAfter: Self.now + seconds) == days)
    }

    @Test func androidsFileIsNotJudgedByApplesRules() {
        let response = CheckFixtures.response(tls: TLSFacts(version: "TLSv1.3", certificate: Self.leaf { $0.keyBits = 1024 }))
        var location = CheckFixtures.located(response)
        #expect(CertificatePolicyCheck.findings(for: location).map(\.id) == ["tls.rsa-key-too-small"])
        location.kind = .assetLinks
        #expect(CertificatePolicyCheck.findings(for: location).isEmpty)
    }
}
