import AASA
import Foundation
import SignedFiles
import Testing

/// CMS-signed files (iOS 8's format), made with `openssl cms -sign`: DER, BER with indefinite
/// lengths (`-stream`), and a detached signature that carries no content. OpenSSL unwraps them
/// before the pure core, which gets the JSON and what was found (signed, and by whom).
@Suite struct SignedFileTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    /// The subject of the fixtures' self-signed signing certificate.
    static let signer = "CN=aasa-audit signing fixture"

    func fixture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: Self.fixtures.appendingPathComponent(name)))
    }

    @Test(arguments: ["signed-der.p7", "signed-ber-indefinite.p7"])
    func contentIsUnwrapped(name: String) throws {
        let bytes = try fixture(name)
        #expect(SignedFile.looksSigned(bytes))
        let content = try SignedFile.content(of: bytes)
        #expect(content.bytes == (try fixture("content.json")))
        #expect(content.signer == Self.signer)
        #expect(SignedFile.open(bytes) == ServedDocument(json: try fixture("content.json"), envelope: .cmsSigned(signer: Self.signer),
                                                          fileSize: bytes.count))
    }

    /// Apple's 128 KB limit is on the file as served: a signed file is measured with its envelope.
    @Test func sizeLimitCountsTheEnvelope() throws {
        var signed = try fixture("signed-der.p7")
        #expect(DocumentValidator.validate(SignedFile.open(signed)).findings.allSatisfy { $0.id != "size.too-large" })
        let served = SignedFile.open(signed)
        signed += [UInt8](repeating: 0, count: AASAFile.maximumSize)
        let padded = ServedDocument(json: served.json, envelope: served.envelope, fileSize: signed.count)
        #expect(DocumentValidator.validate(padded).findings.map(\.id).contains("size.too-large"))
    }

    @Test func validatorChecksTheJSONInside() throws {
        let validation = DocumentValidator.validate(SignedFile.open(try fixture("signed-der.p7")))
        #expect(validation.wasSigned)
        #expect(validation.signer == Self.signer)
        #expect(validation.findings.first?.id == "json.signed")
        #expect(validation.findings.first?.message.contains("(signer: \(Self.signer))") == true)
        #expect(validation.root?["applinks"] != nil)
        #expect(!validation.findings.contains { $0.severity == .error })
    }

    @Test func plainFilesPassThroughUntouched() throws {
        let json = try fixture("content.json")
        #expect(SignedFile.open(json) == ServedDocument(json: json, envelope: .none))
        #expect(!DocumentValidator.validate(SignedFile.open(json)).wasSigned)
    }

    @Test func rootOfASignedFileIsItsContentsRoot() throws {
        // Copies are compared by content (CDN, crawler): a signed copy equals the plain one.
        let signed = DocumentValidator.root(of: SignedFile.open(try fixture("signed-der.p7")))
        #expect(signed != nil)
        #expect(signed == DocumentValidator.root(of: SignedFile.open(try fixture("content.json"))))
        #expect(DocumentValidator.root(of: SignedFile.open(try fixture("signed-detached.p7"))) == nil)
    }

    @Test func detachedSignatureHasNoContent() throws {
        let bytes = try fixture("signed-detached.p7")
        #expect(SignedFile.looksSigned(bytes))
        #expect(throws: SignedFile.ReadError.detached) { try SignedFile.content(of: bytes) }
        let findings = DocumentValidator.validate(SignedFile.open(bytes)).findings
        #expect(findings.map(\.id) == ["json.signed-unreadable"])
        #expect(findings.first?.message == "The file looks CMS-signed, but the signature is detached: the file carries no content.")
    }

    @Test func truncatedOrCorruptFilesAreErrorsNotCrashes() throws {
        let bytes = try fixture("signed-der.p7")
        // From the first length at which the signedData OID is complete.
        for cut in stride(from: 16, to: bytes.count, by: 37) {
            let findings = DocumentValidator.validate(SignedFile.open(Array(bytes.prefix(cut)))).findings.map(\.id)
            #expect(findings == ["json.signed-unreadable"], "cut at \(cut)")
        }
        // Byte 20 is the length form of the SignedData SEQUENCE; 0xFF is no valid length.
        var corrupt = bytes
        corrupt[20] = 0xFF
        #expect(throws: SignedFile.ReadError.self) { try SignedFile.content(of: corrupt) }
        let findings = DocumentValidator.validate(SignedFile.open(corrupt)).findings
        #expect(findings.map(\.id) == ["json.signed-unreadable"])
        #expect(findings.first?.message.hasPrefix("The file looks CMS-signed, but the CMS structure is malformed (") == true)
    }

    @Test func deeplyNestedIndefiniteLengthsAreRefused() {
        // A SEQUENCE with the signedData OID, then 10,000 nested indefinite-length [0] elements.
        let head: [UInt8] = [0x30, 0x80, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
        let bytes = head + [UInt8](repeating: 0xA0, count: 20_000).enumerated().map { $0.offset % 2 == 0 ? 0xA0 : 0x80 }
        #expect(SignedFile.looksSigned(bytes))
        #expect(throws: SignedFile.ReadError.self) { try SignedFile.content(of: bytes) }
    }

    @Test(arguments: [[UInt8](), [0x30], [0x30, 0x80], [0x7B, 0x7D], Array("{\"applinks\":{}}".utf8)])
    func plainJSONIsNotSigned(bytes: [UInt8]) {
        #expect(!SignedFile.looksSigned(bytes))
    }
}
