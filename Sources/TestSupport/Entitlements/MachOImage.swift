import Foundation

/// A Mach-O executable made at test time: a header, an `LC_UUID` and (when signed) an
/// `LC_CODE_SIGNATURE` load command, then a code signature SuperBlob holding a stand-in
/// CodeDirectory, the entitlements blob (slot 5, magic 0xfade7171) and an empty CMS blob, laid out
/// as `codesign` lays them out. Nothing else (no segments, no code): the entitlements readers look at
/// the load commands and the signature only. The offsets of each part are kept so that a negative
/// test can truncate or corrupt the image exactly there.
public struct MachOImage: Sendable {
    /// A CPU type and subtype, as a slice's header and a universal binary's table name them.
    public struct CPU: Sendable, Equatable {
        /// `cputype` (`CPU_TYPE_ARM64` is 0x0100000c).
        public var type: UInt32
        /// `cpusubtype`.
        public var subtype: UInt32
        /// 64-bit ARM (iPhones since 2013, Apple silicon Macs).
        public static let arm64 = CPU(type: 0x0100_000c, subtype: 0)
        /// 64-bit Intel.
        public static let x86_64 = CPU(type: 0x0100_0007, subtype: 3)
        /// 32-bit ARM.
        public static let armv7 = CPU(type: 12, subtype: 9)
        /// 32-bit Intel.
        public static let i386 = CPU(type: 7, subtype: 3)
    }

    /// The image.
    public var bytes: Data
    /// Where the load commands start (after the 28- or 32-byte header).
    public var loadCommandsOffset: Int
    /// Where the `LC_CODE_SIGNATURE` command starts (its `dataoff` is 8 bytes in, `datasize` 12), when signed.
    public var codeSignatureCommandOffset: Int?
    /// Where the SuperBlob starts (its count is 8 bytes in, its index 12), when signed.
    public var signatureOffset: Int?
    /// Where the entitlements blob starts (its length is 4 bytes in), when there is one.
    public var entitlementsBlobOffset: Int?
    /// Every offset where a structure of the image starts or ends, in order: where a truncated file is most telling.
    public var boundaries: [Int]

    /// A thin image. `entitlements` is the property list in the entitlements blob (nil: a signature
    /// without one); `signed: false` leaves out the code signature altogether.
    public static func thin(entitlements: Data?, cpu: CPU = .arm64, wide: Bool = true, bigEndian: Bool = false, signed: Bool = true) -> MachOImage {
        var out = ByteWriter()
        func word(_ value: UInt32) { bigEndian ? out.bigEndian(value) : out.littleEndian(value) }
        let headerSize = wide ? 32 : 28
        let commandsSize = 24 + (signed ? 16 : 0)
        // The signature starts 16-byte aligned after the load commands, as codesign places it at the end of __LINKEDIT.
        let signatureOffset = (headerSize + commandsSize + 15) / 16 * 16
        var superBlob = ByteWriter()
        var blobs: [(type: UInt32, blob: [UInt8])] = [(0, blob(magic: 0xfade_0c02, payload: [UInt8](repeating: 0xCD, count: 20)))]
        if let entitlements { blobs.append((5, blob(magic: 0xfade_7171, payload: [UInt8](entitlements)))) }
        blobs.append((0x10000, blob(magic: 0xfade_0b01, payload: [])))
        let indexEnd = 12 + 8 * blobs.count
        let length = indexEnd + blobs.reduce(0) { $0 + $1.blob.count }
        superBlob.bigEndian(0xfade_0cc0)
        superBlob.bigEndian(UInt32(length))
        superBlob.bigEndian(UInt32(blobs.count))
        var offset = indexEnd, entitlementsAt: Int?
        for (type, blob) in blobs {
            superBlob.bigEndian(type)
            superBlob.bigEndian(UInt32(offset))
            if type == 5 { entitlementsAt = offset }
            offset += blob.count
        }
        for (_, blob) in blobs { superBlob.bytes += blob }

        word(wide ? 0xfeed_facf : 0xfeed_face)
        word(cpu.type)
        word(cpu.subtype)
        word(2)  // MH_EXECUTE
        word(signed ? 2 : 1)
        word(UInt32(commandsSize))
        word(0x0020_0085)  // MH_NOUNDEFS | MH_DYLDLINK | MH_TWOLEVEL | MH_PIE
        if wide { word(0) }
        word(0x1b)  // LC_UUID
        word(24)
        out.bytes += (0..<16).map { UInt8($0 * 7 & 0xff) }
        var boundaries = [0, 4, headerSize, headerSize + 8, headerSize + 24]
        var image = MachOImage(bytes: Data(), loadCommandsOffset: headerSize, boundaries: [])
        if signed {
            image.codeSignatureCommandOffset = out.bytes.count
            word(0x1d)  // LC_CODE_SIGNATURE
            word(16)
            word(UInt32(signatureOffset))
            word(UInt32(superBlob.bytes.count))
            boundaries += [headerSize + 32, headerSize + 40]
            out.bytes += [UInt8](repeating: 0, count: signatureOffset - out.bytes.count)
            out.bytes += superBlob.bytes
            image.signatureOffset = signatureOffset
            image.entitlementsBlobOffset = entitlementsAt.map { signatureOffset + $0 }
            boundaries += [signatureOffset, signatureOffset + 12, signatureOffset + indexEnd]
            if let at = image.entitlementsBlobOffset { boundaries += [at, at + 8] }
            boundaries.append(signatureOffset + length)
        }
        image.bytes = Data(out.bytes)
        image.boundaries = boundaries
        return image
    }

    /// A universal binary of `slices` (each at a 4 KB boundary). `wide` makes the 64-bit form
    /// (0xcafebabf, 64-bit offsets and sizes).
    public static func universal(_ slices: [(cpu: CPU, image: MachOImage)], wide: Bool = false) -> MachOImage {
        var out = ByteWriter()
        out.bigEndian(wide ? 0xcafe_babf : 0xcafe_babe)
        out.bigEndian(UInt32(slices.count))
        let tableEnd = 8 + slices.count * (wide ? 32 : 20)
        var offset = (tableEnd + 4095) / 4096 * 4096
        var placed: [Int] = []
        for slice in slices {
            out.bigEndian(slice.cpu.type)
            out.bigEndian(slice.cpu.subtype)
            if wide { out.bigEndian64(UInt64(offset)); out.bigEndian64(UInt64(slice.image.bytes.count)) }
            else { out.bigEndian(UInt32(offset)); out.bigEndian(UInt32(slice.image.bytes.count)) }
            out.bigEndian(12)  // align 2^12
            if wide { out.bigEndian(0) }
            placed.append(offset)
            offset = (offset + slice.image.bytes.count + 4095) / 4096 * 4096
        }
        var boundaries = [0, 4, 8, tableEnd]
        for (slice, at) in zip(slices, placed) {
            out.bytes += [UInt8](repeating: 0, count: at - out.bytes.count)
            out.bytes += [UInt8](slice.image.bytes)
            boundaries += slice.image.boundaries.map { at + $0 }
        }
        return MachOImage(bytes: Data(out.bytes), loadCommandsOffset: 0, boundaries: boundaries)
    }

    /// An entitlements property list (XML, as `codesign` embeds it) with the keys the readers look at.
    public static func entitlementsPropertyList(applicationIdentifier: String? = nil, teamIdentifier: String? = nil,
                                                associatedDomains: [String]? = nil, extra: [String: Any] = [:]) -> Data {
        var dictionary = extra
        if let applicationIdentifier { dictionary["application-identifier"] = applicationIdentifier }
        if let teamIdentifier { dictionary["com.apple.developer.team-identifier"] = teamIdentifier }
        if let associatedDomains { dictionary["com.apple.developer.associated-domains"] = associatedDomains }
        // Serialising a dictionary of property-list values made here cannot fail; an empty one stands in if it did.
        return (try? PropertyListSerialization.data(fromPropertyList: dictionary, format: .xml, options: 0)) ?? Data()
    }

    /// A code-signing blob: magic, length (both big-endian), payload.
    static func blob(magic: UInt32, payload: [UInt8]) -> [UInt8] {
        var out = ByteWriter()
        out.bigEndian(magic)
        out.bigEndian(UInt32(8 + payload.count))
        out.bytes += payload
        return out.bytes
    }
}

/// Bytes written in either byte order.
struct ByteWriter {
    var bytes: [UInt8] = []
    mutating func bigEndian(_ value: UInt32) { bytes += [UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)] }
    mutating func littleEndian(_ value: UInt32) { bytes += [UInt8(value & 0xff), UInt8(value >> 8 & 0xff), UInt8(value >> 16 & 0xff), UInt8(value >> 24)] }
    mutating func bigEndian64(_ value: UInt64) { bigEndian(UInt32(value >> 32)); bigEndian(UInt32(value & 0xffff_ffff)) }
}
