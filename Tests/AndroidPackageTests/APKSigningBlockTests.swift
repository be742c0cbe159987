import Foundation
import Testing
import TestSupport

@testable import AndroidPackage

/// The APK Signing Block of a real v2/v3 APK, and that block lying about its sizes: errors that
/// name the file, never a crash or a read past the end.
@Suite(.enabled(if: AndroidAppFixture.toolsAvailable, "needs aapt, apksigner and openssl (scripts/install-deps.sh --test)"))
struct APKSigningBlockTests {
    static func signers(_ bytes: [UInt8]) throws(APKReadError) -> [APKSigning.Scheme: [APKSigning.Signer]]? {
        try APKSigningBlock.signers(in: MemoryAPKBytes(bytes, name: "app.apk"), limits: .standard)
    }

    /// The offset of the magic "APK Sig Block 42" in `bytes`.
    static func magicOffset(_ bytes: [UInt8]) throws -> Int {
        let magic = APKSigningBlock.magic
        return try #require((0...(bytes.count - magic.count)).last { Array(bytes[$0..<$0 + magic.count]) == magic })
    }

    @Test func bothSchemesAreFoundInOneBlock() throws {
        let set = try BuiltAPKs.get()
        let found = try #require(try Self.signers(Array(try Data(contentsOf: set.all))))
        #expect(Set(found.keys) == [.v2, .v3])
        #expect(found[.v2]?.first?.certificate.sha256 == set.signer.sha256)
        #expect(found[.v3]?.first?.certificate.sha256 == set.signer.sha256)
    }

    @Test func aV1OnlyAPKHasNoBlock() throws {
        let set = try BuiltAPKs.get()
        #expect(try Self.signers(Array(try Data(contentsOf: set.v1))) == nil)
        #expect(try Self.signers([]) == nil)
        #expect(try Self.signers(Array(repeating: 0, count: 100)) == nil)
    }

    @Test func lyingSizesAreErrors() throws {
        let bytes = Array(try Data(contentsOf: try BuiltAPKs.get().v2))
        let magic = try Self.magicOffset(bytes)
        let sizeField = magic - 8
        for value: UInt64 in [0, 1, 23, 0xffff_ffff, 0xffff_ffff_ffff_ffff, UInt64(bytes.count)] {
            var broken = bytes
            for index in 0..<8 { broken[sizeField + index] = UInt8((value >> (8 * UInt64(index))) & 0xff) }
            #expect(throws: APKReadError.self, "block size \(value)") { try Self.signers(broken) }
        }
        // The first size field disagreeing with the second.
        var broken = bytes
        let blockSize = (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[sizeField + $1]) << (8 * UInt64($1)) }
        let start = magic + 16 - Int(blockSize) - 8
        broken[start] ^= 0x01
        #expect(throws: APKReadError.self) { try Self.signers(broken) }
    }

    @Test func everyByteOfTheBlockCorruptedNeverCrashes() throws {
        let set = try BuiltAPKs.get()
        let bytes = Array(try Data(contentsOf: set.v3))
        let magic = try Self.magicOffset(bytes)
        let blockSize = (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[magic - 8 + $1]) << (8 * UInt64($1)) }
        let start = magic + 16 - Int(blockSize) - 8
        // Each byte of the block's framing and its first signer (the certificate lies within), set to 0xff.
        for at in start..<min(magic + 16, start + 1200) {
            var broken = bytes
            broken[at] = broken[at] == 0xff ? 0x00 : 0xff
            _ = try? Self.signers(broken)
        }
    }

    @Test func aGarbageJARSignatureIsNamed() {
        #expect(throws: APKReadError(source: "app.apk: META-INF/CERT.RSA", code: .malformedJARSignature, reason: "is not a PKCS #7 signature, as a v1 signature file is")) {
            try JARSignature.signers(inEnvelope: Array("not der".utf8), source: "app.apk: META-INF/CERT.RSA")
        }
    }

    @Test(arguments: [("META-INF/CERT.RSA", true), ("META-INF/key.ec", true), ("META-INF/A.DSA", true), ("META-INF/sub/CERT.RSA", false),
                      ("CERT.RSA", false), ("META-INF/CERT.SF", false), ("META-INF/.RSA", true)])
    func signatureBlockNames(name: String, isBlock: Bool) {
        #expect(JARSignature.isSignatureBlock(name) == isBlock)
    }
}
