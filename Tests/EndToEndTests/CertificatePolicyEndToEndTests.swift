import Audit
import Foundation
import Testing
import TestSupport

/// Issue 29 against a real nginx: certificates curl accepts (or OpenSSL's default level refuses)
/// that Apple refuses, each with its finding; a compliant one with none; a name whose IPv6 address
/// serves a 404 while IPv4 serves the file.
@Suite struct CertificatePolicyEndToEndTests {
    /// (host, verdict, error and warning ids of .well-known, in order).
    static let expectations: [(String, Verdict, [String])] = [
        ("good.test", .pass, []),
        ("no-eku.test", .warn, ["tls.no-server-auth-eku"]),
        ("long-validity.test", .warn, ["tls.validity-over-825-days"]),
        // curl accepts a host named only in the Common Name; Apple does not.
        ("cn-only.test", .warn, ["tls.name-not-in-san"]),
        // OpenSSL's default security level refuses these too: Apple's rule is the cause, named first.
        ("sha1.test", .fail, ["tls.sha1-signature", "tls.handshake-failed"]),
        ("rsa1024.test", .fail, ["tls.rsa-key-too-small", "tls.handshake-failed"]),
        ("no-forward-secrecy.test", .warn, ["tls.cipher-outside-ats"]),
    ]

    static let run: Result<AuditReport, Error> = Result {
        let sites = try LocalSites.shared.get()
        let out = try AuditBinary.temporaryDirectory()
        _ = try AuditBinary.run(["--cacert", sites.certificateAuthority.certificatePath, "--no-cdn", "--timeout", "3", "--out", out.path]
                                + sites.connectToArguments + expectations.map(\.0))
        return try AuditBinary.readReport(at: out.appendingPathComponent("report.json"))
    }

    func domain(_ host: String) throws -> DomainResult {
        try #require(try Self.run.get().domains.first { $0.domain == host })
    }

    @Test(arguments: expectations)
    func eachCertificateGetsItsFinding(host: String, verdict: Verdict, ids: [String]) throws {
        let result = try domain(host)
        let found = result.locations[0].findings.filter { $0.severity != .info }
        #expect(found.map(\.id) == ids, "\(host): \(found.map(\.message))")
        #expect(result.verdict == verdict)
        for finding in found where finding.id.hasPrefix("tls.") && finding.id != "tls.handshake-failed" {
            #expect(finding.severity == .warning)
        }
    }

    @Test func theReportRecordsTheLeafsFacts() throws {
        let tls = try #require(try domain("good.test").locations[0].tls)
        let certificate = try #require(tls.certificate)
        #expect(certificate.keyAlgorithm == "id-ecPublicKey" && certificate.keyBits == 256)
        #expect(certificate.signatureAlgorithm == "ecdsa-with-SHA256")
        #expect(certificate.extendedKeyUsages == ["TLS Web Server Authentication"])
        #expect(certificate.hasSubjectAltName == true && certificate.embeddedSCTs == 0)
        #expect(certificate.validityDays == 92)
        #expect(tls.trustAnchor == .userFile)
        #expect(tls.cipher?.isEmpty == false)
        let rsa = try #require(try domain("rsa1024.test").locations[0].tls?.certificate)
        #expect(rsa.keyAlgorithm == "rsaEncryption" && rsa.keyBits == 1024)
        let weak = try #require(try domain("no-forward-secrecy.test").locations[0].tls)
        #expect(weak.version == "TLSv1.2" && weak.cipher == "AES128-GCM-SHA256")
    }

    /// Runs `families.test` reached at 127.0.0.1 and ::1 (`--resolve HOST:PORT:127.0.0.1,::1`).
    static func familiesRun(_ extra: [String]) throws -> DomainResult {
        let sites = try LocalSites.shared.get()
        let out = try AuditBinary.temporaryDirectory()
        _ = try AuditBinary.run(["--cacert", sites.certificateAuthority.certificatePath, "--no-cdn", "--timeout", "3", "--out", out.path]
                                + sites.familyArguments + extra + [Scenarios.families.host])
        return try #require(try AuditBinary.readReport(at: out.appendingPathComponent("report.json")).domains.first)
    }

    @Test func aNotFoundOverIPv6IsAFindingNamingBothResults() throws {
        let result = try Self.familiesRun([])
        let finding = try #require(result.findings.first { $0.id == "network.families-differ" }, "\(result.findings.map(\.id))")
        #expect(finding.message.contains("over IPv4 (127.0.0.1) it answered 200"), "\(finding.message)")
        #expect(finding.message.contains("over IPv6 (::1) it answered 404"), "\(finding.message)")
        #expect(result.verdict == .warn)
        let families = try #require(result.addressFamilies)
        #expect(!families.same && Set(families.families.map(\.family)) == ["ipv4", "ipv6"])
    }

    @Test func offComparesNothingAndSixSeesOnlyTheIPv6Server() throws {
        let off = try Self.familiesRun(["--ip-families", "off"])
        #expect(off.addressFamilies == nil && !off.findings.contains { $0.id == "network.families-differ" })
        #expect(off.verdict == .pass)
        let six = try Self.familiesRun(["--ip-families", "6"])
        #expect(six.addressFamilies == nil)
        #expect(six.locations[0].httpStatus == 404)
    }
}
