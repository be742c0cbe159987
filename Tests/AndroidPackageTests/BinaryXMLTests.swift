import Foundation
import Testing
import TestSupport

@testable import AndroidPackage

/// The binary XML reader on a manifest aapt compiled, and on that manifest broken in every way the
/// file can lie: every cut, lying sizes, offsets and counts. An error is fine; a crash, a trap or a
/// huge allocation is a bug.
@Suite(.enabled(if: AndroidAppFixture.toolsAvailable, "needs aapt, apksigner and openssl (scripts/install-deps.sh --test)"))
struct BinaryXMLTests {
    static func read(_ bytes: [UInt8]) throws(APKReadError) -> AndroidManifest {
        try AndroidManifest.read(try BinaryXML.nodes(in: bytes, source: "m"), source: "m")
    }

    @Test func aaptsManifestIsRead() throws {
        let manifest = try Self.read(try BuiltAPKs.manifestBytes())
        #expect(manifest.packageName == BuiltAPKs.package)
        #expect(AppLinkHosts(manifest).hosts.map(\.declared) == ["shop.test", "*.shop.test"])
    }

    @Test func theStringPoolIsUTF8OrUTF16() throws {
        // aapt writes UTF-16 pools for manifests; the same strings re-encoded as UTF-8 read the same.
        let bytes = try BuiltAPKs.manifestBytes()
        let flags = 8 + 16
        let isUTF8 = bytes[flags + 1] & 0x01 != 0
        #expect(!isUTF8, "aapt wrote a UTF-8 pool: this test needs another UTF-16 source")
        let converted = try Self.reencodeAsUTF8(bytes)
        #expect(try Self.read(converted) == (try Self.read(bytes)))
    }

    @Test func everyCutIsAnErrorNotACrash() throws {
        let bytes = try BuiltAPKs.manifestBytes()
        for length in 0..<bytes.count {
            #expect(throws: APKReadError.self) { try Self.read(Array(bytes.prefix(length))) }
        }
    }

    @Test func plainTextXMLIsNamed() {
        #expect(throws: APKReadError(source: "m", code: .malformedManifest, reason: "is not Android binary XML (its first chunk is of type 0x6d3c, not 0x0003)")) {
            try Self.read(Array("<manifest package=\"a.b\"/>".utf8))
        }
    }

    @Test func seededMutationsNeverCrash() throws {
        let bytes = try BuiltAPKs.manifestBytes()
        var generator = SeededGenerator(seed: 30)
        for _ in 0..<3000 {
            var mutated = bytes
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                let at = Int.random(in: 0..<mutated.count, using: &generator)
                // Bias towards the values that break lengths and offsets.
                mutated[at] = [0x00, 0xff, 0x7f, 0x80, UInt8.random(in: 0...255, using: &generator)].randomElement(using: &generator) ?? 0
            }
            _ = try? Self.read(mutated)
        }
    }

    @Test func limitsAreNamed() throws {
        let bytes = try BuiltAPKs.manifestBytes()
        var limits = APKReadLimits.standard
        limits.manifestStrings = 3
        #expect(throws: APKReadError.self) { try BinaryXML.nodes(in: bytes, source: "m", limits: limits) }
        do {
            _ = try BinaryXML.nodes(in: bytes, source: "m", limits: limits)
        } catch {
            #expect(error.code == .overLimit)
            #expect(error.reason.hasPrefix("has a string pool declaring"))
        }
        limits = .standard
        limits.manifestDepth = 2
        do {
            _ = try BinaryXML.nodes(in: bytes, source: "m", limits: limits)
            Issue.record("a manifest nested deeper than 2 was read")
        } catch {
            #expect(error.code == .overLimit)
        }
    }

    @Test func anAttributeSpelledAutoVerifyWithoutItsResourceIDIsNotAutoVerify() throws {
        // Android reads framework attributes by resource id: blank the resource map and nothing is verified.
        let bytes = try BuiltAPKs.manifestBytes()
        var blanked = bytes
        let map = try #require(Self.chunkOffset(of: 0x0180, in: bytes))
        let size = Int(bytes[map + 4]) | Int(bytes[map + 5]) << 8
        for index in (map + 8)..<(map + size) { blanked[index] = 0 }
        let manifest = try Self.read(blanked)
        #expect(manifest.packageName == BuiltAPKs.package)
        #expect(manifest.intentFilters.allSatisfy { !$0.autoVerify && $0.hosts.isEmpty })
    }

    /// The offset of the first chunk of `type` after the XML header.
    static func chunkOffset(of type: UInt16, in bytes: [UInt8]) -> Int? {
        var offset = 8
        while offset + 8 <= bytes.count {
            let chunkType = UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
            let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16 | Int(bytes[offset + 7]) << 24
            if chunkType == type { return offset }
            guard size > 0 else { return nil }
            offset += size
        }
        return nil
    }

    /// The manifest with its UTF-16 string pool rewritten as UTF-8 (styles dropped: a manifest has none).
    static func reencodeAsUTF8(_ bytes: [UInt8]) throws -> [UInt8] {
        func u32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
        func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xff) } }
        let pool = try #require(chunkOffset(of: 0x0001, in: bytes))
        let headerSize = Int(bytes[pool + 2]) | Int(bytes[pool + 3]) << 8
        let poolSize = u32(pool + 4), count = u32(pool + 8), stringsStart = u32(pool + 20)
        var strings: [String] = []
        for index in 0..<count {
            let at = pool + stringsStart + u32(pool + headerSize + 4 * index)
            let length = Int(bytes[at]) | Int(bytes[at + 1]) << 8
            let units = (0..<length).map { UInt16(bytes[at + 2 + 2 * $0]) | UInt16(bytes[at + 3 + 2 * $0]) << 8 }
            strings.append(String(decoding: units, as: UTF16.self))
        }
        var data: [UInt8] = []
        var offsets: [Int] = []
        for string in strings {
            offsets.append(data.count)
            let utf8 = Array(string.utf8)
            data += [UInt8(string.utf16.count), UInt8(utf8.count)] + utf8 + [0]
        }
        while data.count % 4 != 0 { data.append(0) }
        let newStart = 28 + 4 * count
        var chunk: [UInt8] = [0x01, 0x00, 0x1c, 0x00] + le32(newStart + data.count) + le32(count) + le32(0) + le32(0x100) + le32(newStart) + le32(0)
        for offset in offsets { chunk += le32(offset) }
        chunk += data
        var result = Array(bytes[0..<pool]) + chunk + Array(bytes[(pool + poolSize)...])
        let total = le32(result.count)
        for index in 0..<4 { result[4 + index] = total[index] }
        return result
    }
}

/// A small deterministic generator (SplitMix64), so a failing mutation run can be repeated.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
