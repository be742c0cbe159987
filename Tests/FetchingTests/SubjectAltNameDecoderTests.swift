@testable import Fetching
import Foundation
import Testing

/// A subjectAltName that OpenSSL will not print as a list (a dNSName holding a NUL byte) is read
/// from the certificate's DER and shown escaped, one name per entry.
@Suite struct SubjectAltNameDecoderTests {
    /// Made by `openssl req -x509 ... -addext subjectAltName=DER:...` with the names "nul-san.test"
    /// and "good.test\0.evil.test".
    static let pem = """
        -----BEGIN CERTIFICATE-----
        MIIBszCCAVqgAwIBAgIUR6DQmb9RndecieTzg3ekHxyUz4kwCgYIKoZIzj0EAwIw
        FzEVMBMGA1UEAwwMbnVsLXNhbi50ZXN0MB4XDTI2MTIwMTAyMzkwN1oXDTI2MTIw
        MzAyMzkwN1owFzEVMBMGA1UEAwwMbnVsLXNhbi50ZXN0MFkwEwYHKoZIzj0CAQYI
        KoZIzj0DAQcDQgAEpPUErcnDNggih8ye3Xta+F2P1KlnNqY98CV37RaHBS0xIDVm
        qgy6vyIVy5TEdRVxuDocgNqY3volqky6NBRRb6OBgzCBgDAdBgNVHQ4EFgQU0rUd
        RpAYnQzIYaHQqJ8bQ33hwpQwHwYDVR0jBBgwFoAU0rUdRpAYnQzIYaHQqJ8bQ33h
        wpQwDwYDVR0TAQH/BAUwAwEB/zAtBgNVHREEJjAkggxudWwtc2FuLnRlc3SCFGdv
        b2QudGVzdAAuZXZpbC50ZXN0MAoGCCqGSM49BAMCA0cAMEQCID6SFZQKeWpN4ahE
        SFQhdtldCk+QHbT4yb5TTMcJWsc+AiAwDgD21Va08WYLAlO8tjQc7YdTC1UZmZ9P
        qcPeLDfUJg==
        -----END CERTIFICATE-----
        """

    @Test func aNameWithANulByteIsShownEscaped() throws {
        // What curl hands over for it: OpenSSL's dump of the raw extension, non-printables as dots.
        let facts = try #require(CertificateInfoParser.parse(lines: [
            "Subject:CN = nul-san.test", "Issuer:CN = nul-san.test",
            "X509v3 Subject Alternative Name:0$..nul-san.test..good.test..evil.test",
            "Cert:" + Self.pem,
        ]))
        #expect(facts.subjectAltNames == ["nul-san.test", "good.test\\0.evil.test"])
    }

    @Test func aPrintedListIsKeptAsOpenSSLGaveIt() throws {
        let facts = try #require(CertificateInfoParser.parse(lines: [
            "Subject:CN = a.test", "X509v3 Subject Alternative Name:DNS:a.test, DNS:*.b.test, IP Address:127.0.0.1",
            "Cert:" + Self.pem,
        ]))
        #expect(facts.subjectAltNames == ["a.test", "*.b.test", "IP:127.0.0.1"])
    }

    /// The PEM's base64 between its armour lines, whatever the line ends; anything else in it is no DER.
    @Test(arguments: [
        (pem, true), (pem.replacingOccurrences(of: "\n", with: "\r\n"), true), (pem + "\n", true),
        (pem.replacingOccurrences(of: "-----BEGIN CERTIFICATE-----\n", with: ""), true),
        (pem.replacingOccurrences(of: "\nqcPeLDfUJg==", with: "\n-qcPeLDfUJg=="), false), ("not base64!", false),
    ])
    func derIsTheBase64BetweenTheArmour(_ text: String, decodes: Bool) throws {
        let expected = [UInt8](try #require(Data(base64Encoded: Self.pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined())))
        #expect(SubjectAltNameDecoder.der(pem: text) == (decodes ? expected : nil))
    }

    @Test func bytesAreEscapedOneByOne() {
        #expect(SubjectAltNameDecoder.escaped(Array("a\u{0}b\\c".utf8) + [0x1B, 0xFF]) == "a\\0b\\\\c\\x1B\\xFF")
    }
}
