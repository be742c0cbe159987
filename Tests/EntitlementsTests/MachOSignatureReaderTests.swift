import Foundation
import Testing
import TestSupport

@testable import Entitlements

@Suite struct MachOSignatureReaderTests {
    static let plist = MachOImage.entitlementsPropertyList(
        applicationIdentifier: "ABQ7KM3X2P.com.exemplo.app", teamIdentifier: "ABQ7KM3X2P",
        associatedDomains: ["applinks:example.com", "webcredentials:example.com"])

    static func read(_ bytes: Data, limits: EntitlementsReadLimits = .standard) throws(EntitlementsReadError) -> CodeSignatureEntitlements {
        try MachOSignatureReader.entitlements(in: MemoryByteSource([UInt8](bytes), name: "App"), limits: limits)
    }

    /// The reason of the error reading `bytes` gives (it must give one).
    static func failure(_ bytes: Data, limits: EntitlementsReadLimits = .standard) -> String? {
        do {
            _ = try read(bytes, limits: limits)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test(arguments: [(true, false), (true, true), (false, false), (false, true)])
    func readsTheEntitlementsOfAThinImageOfEitherWidthAndByteOrder(wide: Bool, bigEndian: Bool) throws {
        let image = MachOImage.thin(entitlements: Self.plist, wide: wide, bigEndian: bigEndian)
        #expect(try Self.read(image.bytes) == .propertyList(Self.plist))
    }

    @Test func unsignedAndSignedWithoutEntitlementsAreToldApart() throws {
        #expect(try Self.read(MachOImage.thin(entitlements: nil, signed: false).bytes) == .unsigned)
        #expect(try Self.read(MachOImage.thin(entitlements: nil).bytes) == .noEntitlementsBlob)
    }

    @Test(arguments: [false, true])
    func readsAUniversalBinaryWhoseSlicesAgree(wide: Bool) throws {
        let fat = MachOImage.universal([
            (.x86_64, MachOImage.thin(entitlements: Self.plist, cpu: .x86_64)),
            (.arm64, MachOImage.thin(entitlements: Self.plist)),
        ], wide: wide)
        #expect(try Self.read(fat.bytes) == .propertyList(Self.plist))
        #expect(MachOSignatureReader.looksLikeMachO([UInt8](fat.bytes.prefix(8))))
    }

    @Test func slicesThatDifferAreAnErrorNamingThem() {
        let other = MachOImage.entitlementsPropertyList(applicationIdentifier: "OLDTEAM999.com.exemplo.app", associatedDomains: ["applinks:example.com"])
        let differing = MachOImage.universal([
            (.x86_64, MachOImage.thin(entitlements: Self.plist, cpu: .x86_64)), (.arm64, MachOImage.thin(entitlements: other)),
        ])
        #expect(Self.failure(differing.bytes) == "its slice 1 of 2 (x86_64) and slice 2 of 2 (arm64) are signed with different entitlements (application identifier, Team ID or Associated Domains)")
        let halfSigned = MachOImage.universal([
            (.x86_64, MachOImage.thin(entitlements: Self.plist, cpu: .x86_64)), (.arm64, MachOImage.thin(entitlements: nil, signed: false)),
        ])
        #expect(Self.failure(halfSigned.bytes) == "its slice 1 of 2 (x86_64) is signed with entitlements, but its slice 2 of 2 (arm64) is not signed")
    }

    @Test func slicesWhoseBlobsDifferOnlyInKeysNotReadAgree() throws {
        let withExtra = MachOImage.entitlementsPropertyList(
            applicationIdentifier: "ABQ7KM3X2P.com.exemplo.app", teamIdentifier: "ABQ7KM3X2P",
            associatedDomains: ["applinks:example.com", "webcredentials:example.com"], extra: ["get-task-allow": true])
        let fat = MachOImage.universal([(.x86_64, MachOImage.thin(entitlements: withExtra, cpu: .x86_64)), (.arm64, MachOImage.thin(entitlements: Self.plist))])
        #expect(try Self.read(fat.bytes) == .propertyList(withExtra))
    }

    @Test func everyTruncationIsAnErrorNotACrash() {
        let thin = MachOImage.thin(entitlements: Self.plist)
        let fat = MachOImage.universal([(.arm64, thin), (.x86_64, MachOImage.thin(entitlements: Self.plist, cpu: .x86_64))])
        // Every prefix of the thin image (a few hundred), and the fat one cut at each structure's boundary and next to it.
        for length in 0..<thin.bytes.count {
            #expect(Self.failure(thin.bytes.prefix(length)) != nil, "thin image cut at \(length)")
        }
        #expect(thin.boundaries.count >= 12)
        for boundary in fat.boundaries where boundary < fat.bytes.count {
            for length in [boundary - 1, boundary, boundary + 1] where length >= 0 {
                #expect(Self.failure(fat.bytes.prefix(length)) != nil, "universal binary cut at \(length)")
            }
        }
    }

    /// `bytes` with the 32-bit value at `offset` replaced.
    static func patched(_ bytes: Data, at offset: Int, _ value: UInt32, bigEndian: Bool = false) -> Data {
        var copy = [UInt8](bytes)
        let word = bigEndian ? [UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)]
            : [UInt8(value & 0xff), UInt8(value >> 8 & 0xff), UInt8(value >> 16 & 0xff), UInt8(value >> 24)]
        copy.replaceSubrange(offset..<offset + 4, with: word)
        return Data(copy)
    }

    @Test func offsetsAndCountsFromTheFileAreChecked() throws {
        let image = MachOImage.thin(entitlements: Self.plist)
        let command = try #require(image.codeSignatureCommandOffset), signature = try #require(image.signatureOffset)
        let blob = try #require(image.entitlementsBlobOffset)
        let cases: [(Data, String)] = [
            (Self.patched(image.bytes, at: 20, 0xffff_fff0), "its load commands (4294967280 bytes) run past the end of the image"),
            (Self.patched(image.bytes, at: 16, 0x7fff_ffff), "declares 2147483647 load commands in 40 bytes"),
            (Self.patched(image.bytes, at: command + 4, 0xffff_fff8), "load command 2 of 2 (0x1d) is 4294967288 bytes, outside the load commands"),
            (Self.patched(image.bytes, at: command + 4, 0), "load command 2 of 2 (0x1d) is 0 bytes"),
            (Self.patched(image.bytes, at: command + 8, 0xffff_ff00), "its code signature (bytes 4294967040 to"),
            (Self.patched(image.bytes, at: command + 8, 8), "lies outside the image (load commands end at 72"),
            (Self.patched(image.bytes, at: command + 12, 0xffff_ffff), "lies outside the image"),
            (Self.patched(image.bytes, at: signature, 0xdead_beef, bigEndian: true), "its code signature starts with 0xdeadbeef"),
            (Self.patched(image.bytes, at: signature + 4, 0xffff_ffff, bigEndian: true), "its code signature's SuperBlob claims 4294967295 bytes"),
            (Self.patched(image.bytes, at: signature + 8, 0xffff_ffff, bigEndian: true), "claims 4294967295 blobs"),
            (Self.patched(image.bytes, at: signature + 12 + 8 + 4, 0xffff_fff0, bigEndian: true), "its entitlements blob is at byte 4294967280 of the SuperBlob, outside it"),
            (Self.patched(image.bytes, at: signature + 12 + 8 + 4, 4, bigEndian: true), "its entitlements blob is at byte 4 of the SuperBlob, outside it"),
            (Self.patched(image.bytes, at: blob, 0xfade_0c02, bigEndian: true), "its entitlements blob starts with 0xfade0c02, not 0xfade7171"),
            (Self.patched(image.bytes, at: blob + 4, 0xffff_ffff, bigEndian: true), "its entitlements blob claims 4294967295 bytes"),
            (Self.patched(image.bytes, at: blob + 4, 3, bigEndian: true), "its entitlements blob claims 3 bytes"),
            (Self.patched(image.bytes, at: signature + 12 + 16, 5, bigEndian: true), "its code signature has two entitlements blobs"),
        ]
        for (bytes, expected) in cases {
            let reason = Self.failure(bytes)
            #expect(reason?.contains(expected) == true, "expected “\(expected)”, got \(reason ?? "no error")")
        }
    }

    @Test func limitsAreEnforcedWhateverTheFileClaims() {
        let image = MachOImage.thin(entitlements: Self.plist)
        #expect(Self.failure(image.bytes, limits: EntitlementsReadLimits(propertyListBytes: 64))?.contains("more than the 64 read") == true)
        #expect(Self.failure(image.bytes, limits: EntitlementsReadLimits(loadCommandBytes: 16))?.contains("more than the 16 read") == true)
        #expect(Self.failure(image.bytes, limits: EntitlementsReadLimits(signatureBlobs: 2))?.contains("claims 3 blobs") == true)
    }

    @Test func universalHeadersAreChecked() {
        let thin = MachOImage.thin(entitlements: Self.plist)
        let fat = MachOImage.universal([(.arm64, thin), (.x86_64, thin)])
        // A Java class file: 0xcafebabe, then minor version 0 and major version 52.
        let javaClass = Data([0xca, 0xfe, 0xba, 0xbe, 0x00, 0x00, 0x00, 0x34] + [UInt8](repeating: 0, count: 64))
        #expect(!MachOSignatureReader.looksLikeMachO([UInt8](javaClass)))
        #expect(Self.failure(javaClass)?.contains("declaring 52 slices, not 1 to 16 (a Java class file starts with the same 0xcafebabe)") == true)
        #expect(Self.failure(Self.patched(fat.bytes, at: 4, 0, bigEndian: true))?.contains("declaring 0 slices") == true)
        // Slice 1's offset past the end, into the table, and slice 2 moved onto slice 1.
        #expect(Self.failure(Self.patched(fat.bytes, at: 16, 0xffff_0000, bigEndian: true))?.contains("outside the file") == true)
        #expect(Self.failure(Self.patched(fat.bytes, at: 16, 8, bigEndian: true))?.contains("outside the file (slice table ends at 48") == true)
        #expect(Self.failure(Self.patched(fat.bytes, at: 36, 4096, bigEndian: true))?.contains("overlap") == true)
        #expect(Self.failure(Self.patched(fat.bytes, at: 20, 0xffff_ffff, bigEndian: true))?.contains("outside the file") == true)
        // A slice that is not a Mach-O image, and one that is itself universal.
        #expect(Self.failure(Self.patched(fat.bytes, at: 4096, 0x1234_5678, bigEndian: true))?.contains("its slice 1 of 2 (arm64): is not a Mach-O image (it starts with 0x12345678)") == true)
        #expect(Self.failure(Self.patched(fat.bytes, at: 4096, 0xcafe_babe, bigEndian: true))?.contains("nested universal binaries") == true)
    }

    /// A short, seeded fuzz pass: mutated images never crash, hang or allocate wildly; each read ends in a value or an error.
    @Test func mutatedImagesEndInAValueOrAnError() {
        let thin = MachOImage.thin(entitlements: Self.plist)
        let seeds = [thin.bytes, MachOImage.universal([(.arm64, thin), (.x86_64, MachOImage.thin(entitlements: Self.plist, cpu: .x86_64, bigEndian: true))], wide: true).bytes]
        var generator = SplitMix64(seed: 0x15A)
        var outcomes = (values: 0, errors: 0)
        for round in 0..<4000 {
            var bytes = [UInt8](seeds[round % seeds.count])
            for _ in 0..<(1 + Int(generator.next() % 4)) {
                let at = Int(generator.next() % UInt64(bytes.count))
                switch generator.next() % 3 {
                case 0: bytes[at] = UInt8(truncatingIfNeeded: generator.next())
                case 1: bytes[at] = [0x00, 0xff, 0x7f, 0x80][Int(generator.next() % 4)]
                default: bytes.removeSubrange(at..<min(bytes.count, at + Int(generator.next() % 64)))
                }
                if bytes.isEmpty { bytes = [0] }
            }
            do {
                _ = try Self.read(Data(bytes))
                outcomes.values += 1
            } catch {
                #expect(!error.reason.isEmpty)
                outcomes.errors += 1
            }
        }
        #expect(outcomes.errors > 1000 && outcomes.values > 100, "mutations should both break and spare images: \(outcomes)")
    }
}

/// A small deterministic generator for the fuzz pass (the same mutations on every run).
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
