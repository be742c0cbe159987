import Foundation

/// What a Mach-O executable's code signature says about entitlements.
public enum CodeSignatureEntitlements: Sendable, Equatable {
    /// The entitlements blob's property list (XML), as signed.
    case propertyList(Data)
    /// No `LC_CODE_SIGNATURE` load command: the executable is not signed.
    case unsigned
    /// A code signature without an entitlements blob (slot 5): signed without entitlements, or a
    /// simulator build (whose entitlements are in the bundle's `archived-expanded-entitlements.xcent`).
    case noEntitlementsBlob
}

/// Reads the entitlements blob of a Mach-O executable's code signature, thin or universal, through a
/// `ByteSource`: only the headers, the load commands and the signature are read, each bounded and
/// checked against the image's size before it is read.
///
/// Layout (Apple's `<mach-o/loader.h>`, `<mach-o/fat.h>` and the code-signing SuperBlob format):
/// the image's load commands follow its header; `LC_CODE_SIGNATURE` (0x1d) holds `dataoff`/`datasize`
/// of the signature, relative to the image; the signature is a big-endian SuperBlob (magic
/// 0xfade0cc0, length, count, then `count` {type, offset} pairs); slot type 5 is the entitlements blob
/// (magic 0xfade7171, length, then the XML property list). A universal file (0xcafebabe, or 0xcafebabf
/// with 64-bit offsets; always big-endian) lists its slices first.
///
/// Reads only move forward (the slices in file order, the signature after the load commands, the
/// entitlements blob after the SuperBlob's index), so a source that can only stream, such as a
/// deflated zip member, is read once.
public enum MachOSignatureReader {
    static let fatMagic: UInt32 = 0xcafe_babe
    static let fatMagic64: UInt32 = 0xcafe_babf
    static let codeSignatureCommand: UInt32 = 0x1d
    static let superBlobMagic: UInt32 = 0xfade_0cc0
    static let entitlementsSlot: UInt32 = 5
    static let entitlementsMagic: UInt32 = 0xfade_7171
    static let derEntitlementsMagic: UInt32 = 0xfade_7172

    /// Whether the first bytes of a file look like a Mach-O image or a universal binary. A universal
    /// header must declare 1 to `limits.universalSlices` slices: a Java class file shares 0xcafebabe,
    /// followed by its version (45 or more).
    public static func looksLikeMachO(_ head: [UInt8], limits: EntitlementsReadLimits = .standard) -> Bool {
        guard head.count >= 8 else { return false }
        let magic = bigEndian(head, 0)
        switch magic {
        case 0xfeed_face, 0xfeed_facf, 0xcefa_edfe, 0xcffa_edfe: return true
        case fatMagic, fatMagic64:
            let slices = bigEndian(head, 4)
            return slices >= 1 && slices <= limits.universalSlices
        default: return false
        }
    }

    /// The entitlements in the code signature of the executable in `source`. A universal binary's
    /// slices must agree: the same entitlements blob, or blobs with the same application identifier,
    /// Team ID and Associated Domains (what this tool reads); slices that differ there, or of which
    /// some are signed with entitlements and some not, are an error naming the slices.
    public static func entitlements(in source: ByteSource, limits: EntitlementsReadLimits = .standard) throws(EntitlementsReadError)
        -> CodeSignatureEntitlements
    {
        let head = try source.read("the Mach-O header", at: 0, count: min(8, Int(min(source.size, 8))))
        guard head.count >= 4 else { throw EntitlementsReadError(source: source.name, reason: "is \(head.count) bytes long, too short for a Mach-O header") }
        let magic = bigEndian(head, 0)
        guard magic == fatMagic || magic == fatMagic64 else {
            return try slice(in: source, at: 0, size: source.size, label: nil, limits: limits)
        }
        let slices = try universalSlices(in: source, wide: magic == fatMagic64, limits: limits)
        var outcomes: [(label: String, outcome: CodeSignatureEntitlements)] = []
        for slice in slices {
            outcomes.append((slice.label, try self.slice(in: source, at: slice.offset, size: slice.size, label: slice.label, limits: limits)))
        }
        return try agreement(of: outcomes, source: source.name)
    }

    /// One slice of a universal binary: where it is and what it is called in errors.
    struct Slice {
        var label: String
        var offset: UInt64
        var size: UInt64
    }

    /// The slices of a universal binary, in file order, each checked to lie within the file, after
    /// the slice table and apart from the others.
    static func universalSlices(in source: ByteSource, wide: Bool, limits: EntitlementsReadLimits) throws(EntitlementsReadError) -> [Slice] {
        let header = try source.read("the universal header", at: 0, count: 8)
        let count = Int(bigEndian(header, 4))
        guard count >= 1, count <= limits.universalSlices else {
            let what = bigEndian(header, 0) == fatMagic ? " (a Java class file starts with the same 0xcafebabe)" : ""
            throw EntitlementsReadError(source: source.name, reason: "is a universal binary declaring \(count) slices, not 1 to \(limits.universalSlices)\(what)")
        }
        let entrySize = wide ? 32 : 20
        let table = try source.read("the universal binary's slice table", at: 8, count: count * entrySize)
        let tableEnd = UInt64(8 + count * entrySize)
        var slices: [Slice] = []
        for index in 0..<count {
            let base = index * entrySize
            let cpu = bigEndian(table, base), subtype = bigEndian(table, base + 4)
            let offset = wide ? bigEndian64(table, base + 8) : UInt64(bigEndian(table, base + 8))
            let size = wide ? bigEndian64(table, base + 16) : UInt64(bigEndian(table, base + 12))
            let label = "slice \(index + 1) of \(count) (\(architecture(cpu: cpu, subtype: subtype)))"
            guard offset >= tableEnd, offset <= source.size, size <= source.size - offset else {
                throw EntitlementsReadError(source: source.name, reason: "its \(label) lies at bytes \(offset) to \(offset &+ size), outside the file (slice table ends at \(tableEnd), file \(source.size) bytes)")
            }
            slices.append(Slice(label: label, offset: offset, size: size))
        }
        slices.sort { $0.offset < $1.offset }
        for (earlier, later) in zip(slices, slices.dropFirst()) where earlier.offset + earlier.size > later.offset {
            throw EntitlementsReadError(source: source.name, reason: "its \(earlier.label) and \(later.label) overlap")
        }
        return slices
    }

    /// The code-signature entitlements of the thin image of `size` bytes at `offset`.
    static func slice(in source: ByteSource, at offset: UInt64, size: UInt64, label: String?, limits: EntitlementsReadLimits) throws(EntitlementsReadError)
        -> CodeSignatureEntitlements
    {
        let place = label.map { "its \($0): " } ?? ""
        func failure(_ reason: String) -> EntitlementsReadError { EntitlementsReadError(source: source.name, reason: place + reason) }
        guard size >= 28 else { throw failure("is \(size) bytes, too short for a Mach-O header") }
        let magicBytes = try source.read("the Mach-O header", at: offset, count: 4)
        let little: Bool, wide: Bool
        switch bigEndian(magicBytes, 0) {
        case 0xfeed_face: (little, wide) = (false, false)
        case 0xfeed_facf: (little, wide) = (false, true)
        case 0xcefa_edfe: (little, wide) = (true, false)
        case 0xcffa_edfe: (little, wide) = (true, true)
        case fatMagic, fatMagic64: throw failure("is itself a universal binary (nested universal binaries are not valid)")
        default: throw failure("is not a Mach-O image (it starts with 0x\(hex(bigEndian(magicBytes, 0))))")
        }
        let headerSize = wide ? 32 : 28
        guard size >= UInt64(headerSize) else { throw failure("is \(size) bytes, too short for a 64-bit Mach-O header") }
        let header = magicBytes + (try source.read("the Mach-O header", at: offset + 4, count: headerSize - 4))
        func word(_ bytes: [UInt8], _ at: Int) -> UInt32 { little ? littleEndian(bytes, at) : bigEndian(bytes, at) }
        let commandCount = Int(word(header, 16)), commandBytes = Int(word(header, 20))
        guard UInt64(commandBytes) <= size - UInt64(headerSize) else {
            throw failure("its load commands (\(commandBytes) bytes) run past the end of the image (\(size) bytes)")
        }
        guard commandBytes <= limits.loadCommandBytes else {
            throw failure("its load commands are \(commandBytes) bytes, more than the \(limits.loadCommandBytes) read")
        }
        guard commandCount <= commandBytes / 8 else {
            throw failure("declares \(commandCount) load commands in \(commandBytes) bytes (each takes at least 8)")
        }
        let commands = try source.read("the load commands", at: offset + UInt64(headerSize), count: commandBytes)
        var position = 0
        var signature: (offset: UInt64, size: UInt64)?
        for index in 0..<commandCount {
            guard position + 8 <= commandBytes else { throw failure("load command \(index + 1) of \(commandCount) starts past the end of the load commands") }
            let command = word(commands, position), commandSize = Int(word(commands, position + 4))
            guard commandSize >= 8, commandSize <= commandBytes - position else {
                throw failure("load command \(index + 1) of \(commandCount) (0x\(hex(command))) is \(commandSize) bytes, outside the load commands")
            }
            if command == codeSignatureCommand {
                guard signature == nil else { throw failure("has two LC_CODE_SIGNATURE load commands") }
                guard commandSize >= 16 else { throw failure("its LC_CODE_SIGNATURE load command is \(commandSize) bytes, not 16") }
                signature = (UInt64(word(commands, position + 8)), UInt64(word(commands, position + 12)))
            }
            position += commandSize
        }
        guard let signature else { return .unsigned }
        let commandsEnd = UInt64(headerSize + commandBytes)
        guard signature.offset >= commandsEnd, signature.offset <= size, signature.size <= size - signature.offset else {
            throw failure("its code signature (bytes \(signature.offset) to \(signature.offset + signature.size)) lies outside the image (load commands end at \(commandsEnd), image \(size) bytes)")
        }
        return try entitlements(inSignatureAt: offset + signature.offset, size: signature.size, source: source, failure: failure, limits: limits)
    }

    /// The entitlements blob of the SuperBlob of `size` bytes at `start` (absolute in the source).
    static func entitlements(inSignatureAt start: UInt64, size: UInt64, source: ByteSource, failure: (String) -> EntitlementsReadError,
                             limits: EntitlementsReadLimits) throws(EntitlementsReadError) -> CodeSignatureEntitlements
    {
        guard size >= 12 else { throw failure("its code signature is \(size) bytes, too short for a SuperBlob") }
        let header = try source.read("the code signature's SuperBlob header", at: start, count: 12)
        let magic = bigEndian(header, 0), length = UInt64(bigEndian(header, 4)), count = Int(bigEndian(header, 8))
        guard magic == superBlobMagic else {
            throw failure("its code signature starts with 0x\(hex(magic)), not an embedded signature's SuperBlob (0xfade0cc0)")
        }
        guard length >= 12, length <= size else { throw failure("its code signature's SuperBlob claims \(length) bytes; the signature holds \(size)") }
        guard count <= limits.signatureBlobs, 12 + UInt64(count) * 8 <= length else {
            throw failure("its code signature's SuperBlob claims \(count) blobs, more than its \(length) bytes can index")
        }
        let index = try source.read("the code signature's blob index", at: start + 12, count: count * 8)
        let indexEnd = 12 + UInt64(count) * 8
        var blobOffset: UInt64?
        var hasDER = false
        for entry in 0..<count {
            let type = bigEndian(index, entry * 8), offset = UInt64(bigEndian(index, entry * 8 + 4))
            if type == 7 { hasDER = true }
            guard type == entitlementsSlot else { continue }
            guard blobOffset == nil else { throw failure("its code signature has two entitlements blobs") }
            blobOffset = offset
        }
        guard let blobOffset else {
            // The DER form (slot 7) always comes with the XML one in Apple's signatures; alone it is not this tool's to decode.
            if hasDER { throw failure("its code signature has a DER entitlements blob but no XML one (slot 5)") }
            return .noEntitlementsBlob
        }
        guard blobOffset >= indexEnd, blobOffset <= length, length - blobOffset >= 8 else {
            throw failure("its entitlements blob is at byte \(blobOffset) of the SuperBlob, outside it (index ends at \(indexEnd), SuperBlob \(length) bytes)")
        }
        let blobHeader = try source.read("the entitlements blob's header", at: start + blobOffset, count: 8)
        let blobMagic = bigEndian(blobHeader, 0), blobLength = UInt64(bigEndian(blobHeader, 4))
        guard blobMagic == entitlementsMagic else {
            throw failure("its entitlements blob starts with 0x\(hex(blobMagic)), not 0xfade7171")
        }
        guard blobLength >= 8, blobLength <= length - blobOffset else {
            throw failure("its entitlements blob claims \(blobLength) bytes; \(length - blobOffset) remain in the SuperBlob")
        }
        guard blobLength - 8 <= UInt64(limits.propertyListBytes) else {
            throw failure("its entitlements blob is \(blobLength - 8) bytes, more than the \(limits.propertyListBytes) read")
        }
        let plist = try source.read("the entitlements property list", at: start + blobOffset + 8, count: Int(blobLength - 8))
        return .propertyList(Data(plist))
    }

    /// One answer for all slices: the same for each, or an error saying how they differ.
    static func agreement(of outcomes: [(label: String, outcome: CodeSignatureEntitlements)], source: String) throws(EntitlementsReadError)
        -> CodeSignatureEntitlements
    {
        guard let first = outcomes.first else { return .unsigned }
        for other in outcomes.dropFirst() where other.outcome != first.outcome {
            switch (first.outcome, other.outcome) {
            case (.propertyList(let one), .propertyList(let two)):
                // Blobs may differ in keys this tool does not read (or in white space); what it reads must agree.
                let a = try? EntitlementsPropertyList.entitlements(from: one, source: source, kind: .machO)
                let b = try? EntitlementsPropertyList.entitlements(from: two, source: source, kind: .machO)
                if let a, let b, a == b { continue }
                throw EntitlementsReadError(source: source, reason: "its \(first.label) and \(other.label) are signed with different entitlements (application identifier, Team ID or Associated Domains)")
            default:
                throw EntitlementsReadError(source: source, reason: "its \(first.label) \(describe(first.outcome)), but its \(other.label) \(describe(other.outcome))")
            }
        }
        return first.outcome
    }

    static func describe(_ outcome: CodeSignatureEntitlements) -> String {
        switch outcome {
        case .propertyList: return "is signed with entitlements"
        case .unsigned: return "is not signed"
        case .noEntitlementsBlob: return "is signed without an entitlements blob"
        }
    }

    /// A CPU type's usual name (`arm64`, `x86_64`), or its numbers.
    static func architecture(cpu: UInt32, subtype: UInt32) -> String {
        switch (cpu, subtype & 0x00ff_ffff) {
        case (0x0100_000c, 2): return "arm64e"
        case (0x0100_000c, _): return "arm64"
        case (0x0200_000c, _): return "arm64_32"
        case (0x0100_0007, _): return "x86_64"
        case (7, _): return "i386"
        case (12, _): return "arm"
        case (0x0100_0012, _): return "ppc64"
        case (18, _): return "ppc"
        default: return "cpu type \(cpu)"
        }
    }

    static func bigEndian(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }

    static func littleEndian(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at + 3]) << 24 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at])
    }

    static func bigEndian64(_ bytes: [UInt8], _ at: Int) -> UInt64 {
        UInt64(bigEndian(bytes, at)) << 32 | UInt64(bigEndian(bytes, at + 4))
    }

    static func hex(_ value: UInt32) -> String { String(value, radix: 16) }
}
