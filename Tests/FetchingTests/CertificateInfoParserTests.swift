@testable import Fetching
import Foundation
import Testing

/// The leaf facts read from libcurl's CURLINFO_CERTINFO lines (OpenSSL's text).
@Suite struct CertificateInfoParserTests {
    /// A leaf as curl 7.88 with OpenSSL 3 prints it (the modulus and signature shortened).
    static let rsaLeaf = [
        "Subject:CN = a.test", "Issuer:CN = Test CA", "Version:2", "Serial Number:01",
        "Signature Algorithm:sha256WithRSAEncryption", "Public Key Algorithm:rsaEncryption",
        "X509v3 Extended Key Usage:TLS Web Server Authentication, TLS Web Client Authentication",
        "X509v3 Subject Alternative Name:DNS:a.test, DNS:www.a.test",
        "CT Precertificate SCTs:Signed Certificate Timestamp:\n    Version   : v1 (0x0)\n    Log ID    : AA:BB\n"
            + "Signed Certificate Timestamp:\n    Version   : v1 (0x0)\n    Log ID    : CC:DD\n",
        "Start date:Dec  1 20:58:08 2026 GMT", "Expire date:Mar  1 20:58:08 2027 GMT",
        "RSA Public Key:2048", "rsa(n):c0ffee", "rsa(e):10001",
    ]

    @Test func anRSALeafsFacts() throws {
        let facts = try #require(CertificateInfoParser.parse(lines: Self.rsaLeaf))
        #expect(facts.keyAlgorithm == "rsaEncryption")
        #expect(facts.keyBits == 2048)
        #expect(facts.signatureAlgorithm == "sha256WithRSAEncryption")
        #expect(facts.extendedKeyUsages == ["TLS Web Server Authentication", "TLS Web Client Authentication"])
        #expect(facts.hasSubjectAltName)
        #expect(facts.subjectAltNames == ["a.test", "www.a.test"])
        #expect(facts.embeddedSCTs == 2)
    }

    @Test func withoutTheExtensionsTheirFactsAreAbsent() throws {
        let lines = Self.rsaLeaf.filter { !$0.hasPrefix("X509v3") && !$0.hasPrefix("CT ") }
        let facts = try #require(CertificateInfoParser.parse(lines: lines))
        #expect(facts.extendedKeyUsages == nil)
        #expect(!facts.hasSubjectAltName)
        #expect(facts.embeddedSCTs == 0)
    }

    @Test func anSCTListOpenSSLCouldNotParseCountsNone() {
        #expect(CertificateInfoParser.countSCTs("\n    0d:0a:ff") == 0)
    }

    /// An EC P-256 certificate made by `openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1`.
    static let ecPEM = """
        -----BEGIN CERTIFICATE-----
        MIIBfjCCASWgAwIBAgIUdcd5d1eJp1ktSuN9NQUIHOL+we4wCgYIKoZIzj0EAwIw
        FTETMBEGA1UEAwwKZWMuZXhhbXBsZTAeFw0yNjEyMDEyMTAxMTRaFw0yNzAxMDEy
        MTAxMTRaMBUxEzARBgNVBAMMCmVjLmV4YW1wbGUwWTATBgcqhkjOPQIBBggqhkjO
        PQMBBwNCAASZooSM3I6kr6sKiMVUJcuIcnGrvPK1mX6oHRLTYWu3PB/lK2/aFzvU
        FsatTwfhxPo/3My5T0L0R+gqbKan3mM2o1MwUTAdBgNVHQ4EFgQU0fR10tYLTX6/
        MDLbyi60uq6OcKowHwYDVR0jBBgwFoAU0fR10tYLTX6/MDLbyi60uq6OcKowDwYD
        VR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNHADBEAiBJNWLV1tSFr+LVQfhVXIhL
        iTdu7MFdp+WKrwMVvYKb8AIgR2uzMsGMz5Cv7v9QDyxnxKR24jj4Gk1gBs7ufUrM
        I1o=
        -----END CERTIFICATE-----
        """

    @Test func anECKeysSizeComesFromItsCurve() throws {
        let facts = try #require(CertificateInfoParser.parse(lines: [
            "Subject:CN = ec.example", "Issuer:CN = ec.example", "Public Key Algorithm:id-ecPublicKey",
            "Signature Algorithm:ecdsa-with-SHA256", "Cert:" + Self.ecPEM,
        ]))
        #expect(facts.keyAlgorithm == "id-ecPublicKey")
        #expect(facts.keyBits == 256)
    }

    @Test func aChainEntrysFacts() throws {
        let entry = try #require(CertificateInfoParser.parseChainEntry(lines: [
            "Subject:CN = Intermediate", "Issuer:CN = Root", "Signature Algorithm:sha1WithRSAEncryption",
            "Public Key Algorithm:rsaEncryption", "RSA Public Key:1024",
        ]))
        #expect(entry == ChainCertificateFacts(subject: "CN = Intermediate", issuer: "CN = Root", keyAlgorithm: "rsaEncryption",
                                               keyBits: 1024, signatureAlgorithm: "sha1WithRSAEncryption"))
    }

    /// The byte trimming gives what Foundation's gives, for both sets, on ASCII and on the Unicode
    /// spaces and newlines only Foundation knows.
    @Test(arguments: ["", " ", "\t\n", "rsa", "  sha256WithRSAEncryption \n", "\u{A0}x\u{A0}", " \u{2003}x y\u{3000} ",
                      "\u{85}x\u{2028}", "\u{2029}\n", "é ", " ü", "\u{B}x\u{C}", "\r\nx\r\n", " a\u{A0}\t"])
    func trimmingAsFoundation(text: String) {
        #expect(CertificateInfoParser.trimming(text, newlines: false) == text.trimmingCharacters(in: .whitespaces))
        #expect(CertificateInfoParser.trimming(text, newlines: true) == text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// A name is plain (a DNS name as OpenSSL prints it) as the Character test says: letters and
    /// digits of any script, ".-*_", nothing else.
    @Test(arguments: ["a.test", "*.bench.test", "xn--bcher-kva.example", "under_score", "", "a b", "a:b", "a\u{0}b", "bücher.de",
                      "例え.テスト", "١٢٣.test", "a\u{301}.test", "😀.test", "a/b", "DNS:a.test", "A-Z.0-9"])
    func plainNamesAsTheCharacterTest(name: String) {
        #expect(CertificateInfoParser.isPlainName(name) == !name.contains(where: { !$0.isLetter && !$0.isNumber && !".-*_".contains($0) }))
    }
}
