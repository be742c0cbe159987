/// A value of a binary XML attribute, typed as Android's `Res_value` stores it.
public enum BinaryXMLValue: Sendable, Equatable {
    /// A string (`TYPE_STRING`, or an attribute with only its raw text).
    case string(String)
    /// `TYPE_INT_BOOLEAN`: any non-zero data is true, as Android's TypedArray.getBoolean reads it.
    case boolean(Bool)
    /// `TYPE_INT_DEC` or `TYPE_INT_HEX`.
    case integer(Int32)
    /// `TYPE_REFERENCE`: a resource id (`@string/host`), resolved only through resources.arsc.
    case reference(UInt32)
    /// Any other type (float, dimension, colour, …), kept as its type and data.
    case other(type: UInt8, data: UInt32)
}

/// One attribute of a start tag.
public struct BinaryXMLAttribute: Sendable, Equatable {
    /// The namespace URI, nil for none (`package` on `<manifest>`).
    public var namespace: String?
    /// The attribute's name as the string pool spells it.
    public var name: String
    /// The resource id the resource map gives the name (`0x010104ee` for android:autoVerify), nil when
    /// none: Android reads framework attributes by this id, never by their spelled name.
    public var resourceID: UInt32?
    /// The typed value.
    public var value: BinaryXMLValue
}

/// A start or end tag, in document order.
public enum BinaryXMLNode: Sendable, Equatable {
    case start(name: String, attributes: [BinaryXMLAttribute], line: UInt32)
    case end(name: String)
}

/// Android's binary XML (the compiled `AndroidManifest.xml` of an APK), read from its chunks: the
/// string pool (UTF-8 or UTF-16), the resource map, and start/end element chunks with typed
/// attributes (AOSP's `ResourceTypes.h`: `ResChunk_header`, `ResStringPool_header`,
/// `ResXMLTree_node`, `ResXMLTree_attrExt`, `ResXMLTree_attribute`, `Res_value`). Every offset,
/// length and count comes from the file and is checked before it is used.
public enum BinaryXML {
    // Chunk types (ResourceTypes.h).
    static let xmlType: UInt16 = 0x0003
    static let stringPoolType: UInt16 = 0x0001
    static let resourceMapType: UInt16 = 0x0180
    static let startElementType: UInt16 = 0x0102
    static let endElementType: UInt16 = 0x0103
    /// No string (a 0xffffffff index).
    static let noIndex: UInt32 = 0xffff_ffff

    /// The tags of the document in `bytes`, called `source` in errors.
    public static func nodes(in bytes: [UInt8], source: String, limits: APKReadLimits = .standard) throws(APKReadError) -> [BinaryXMLNode] {
        let fail = ManifestFailure(source: source)
        guard bytes.count <= limits.manifestBytes else {
            throw fail.overLimit("is \(bytes.count) bytes, more than the \(limits.manifestBytes) read for a manifest")
        }
        let file = LittleEndianReader(bytes)
        guard let type = file.u16(at: 0), let headerSize = file.u16(at: 2), let size = file.u32(at: 4) else {
            throw fail("is \(bytes.count) bytes, too short for Android binary XML (a plain-text manifest is not what an APK carries)")
        }
        guard type == xmlType else {
            throw fail("is not Android binary XML (its first chunk is of type 0x\(hex(type)), not 0x0003)")
        }
        guard headerSize >= 8, UInt64(size) <= UInt64(bytes.count), UInt32(headerSize) <= size else {
            throw fail("has an XML header declaring \(size) bytes with a \(headerSize)-byte header, for a file of \(bytes.count) bytes")
        }
        var pool: StringPool?
        var resourceMap: [UInt32] = []
        var nodes: [BinaryXMLNode] = []
        var depth = 0
        var elements = 0
        var offset = Int(headerSize)
        let end = Int(size)
        while offset < end {
            guard let chunkType = file.u16(at: offset), let chunkHeader = file.u16(at: offset + 2), let chunkSize32 = file.u32(at: offset + 4) else {
                throw fail("ends inside a chunk header at byte \(offset)")
            }
            let chunkSize = Int(chunkSize32)
            guard chunkHeader >= 8, Int(chunkHeader) <= chunkSize, chunkSize <= end - offset else {
                throw fail("has a chunk of type 0x\(hex(chunkType)) at byte \(offset) declaring \(chunkSize) bytes with a \(chunkHeader)-byte header, past the end of its document (\(end) bytes)")
            }
            let chunk = LittleEndianReader(bytes, from: offset, to: offset + chunkSize)
            switch chunkType {
            case stringPoolType:
                guard pool == nil else { throw fail("has a second string pool at byte \(offset)") }
                pool = try StringPool(chunk: chunk, headerSize: Int(chunkHeader), limits: limits, fail: fail)
            case resourceMapType:
                let count = (chunkSize - Int(chunkHeader)) / 4
                resourceMap = (0..<count).compactMap { chunk.u32(at: offset + Int(chunkHeader) + 4 * $0) }
            case startElementType:
                guard var strings = pool else { throw fail("has an element at byte \(offset) before its string pool") }
                elements += 1
                depth += 1
                guard elements <= limits.manifestElements else {
                    throw fail.overLimit("has more than \(limits.manifestElements) elements")
                }
                guard depth <= limits.manifestDepth else {
                    throw fail.overLimit("nests elements more than \(limits.manifestDepth) deep")
                }
                nodes.append(try startElement(chunk, at: offset, headerSize: Int(chunkHeader), strings: &strings, resourceMap: resourceMap, limits: limits, fail: fail))
                pool = strings
            case endElementType:
                guard var strings = pool else { throw fail("has an end tag at byte \(offset) before its string pool") }
                let ext = offset + Int(chunkHeader)
                guard let nameIndex = chunk.u32(at: ext + 4) else { throw fail("ends inside the end tag at byte \(offset)") }
                guard depth > 0 else { throw fail("has an end tag at byte \(offset) with no element open") }
                depth -= 1
                nodes.append(.end(name: try strings.string(nameIndex, what: "an end tag's name", fail: fail)))
                pool = strings
            default:
                // Namespaces, CDATA and chunk types this reader does not need are skipped, as Android does.
                break
            }
            offset += chunkSize
        }
        guard depth == 0 else { throw fail("ends with \(depth) element\(depth == 1 ? "" : "s") still open") }
        return nodes
    }

    private static func startElement(_ chunk: LittleEndianReader, at offset: Int, headerSize: Int, strings: inout StringPool, resourceMap: [UInt32],
                                     limits: APKReadLimits, fail: ManifestFailure) throws(APKReadError) -> BinaryXMLNode {
        let ext = offset + headerSize
        guard let nameIndex = chunk.u32(at: ext + 4), let attributeStart = chunk.u16(at: ext + 8), let attributeSize = chunk.u16(at: ext + 10),
              let attributeCount = chunk.u16(at: ext + 12) else {
            throw fail("ends inside the start tag at byte \(offset)")
        }
        let line = chunk.u32(at: offset + 8) ?? 0
        let name = try strings.string(nameIndex, what: "an element's name", fail: fail)
        guard Int(attributeCount) <= limits.elementAttributes else {
            throw fail.overLimit("has an element <\(name)> declaring \(attributeCount) attributes, more than \(limits.elementAttributes)")
        }
        guard attributeCount == 0 || attributeSize >= 20 else {
            throw fail("has an element <\(name)> whose attributes are \(attributeSize) bytes each, fewer than the 20 an attribute takes")
        }
        var attributes: [BinaryXMLAttribute] = []
        for index in 0..<Int(attributeCount) {
            let at = ext + Int(attributeStart) + index * Int(attributeSize)
            guard let namespace = chunk.u32(at: at), let attributeName = chunk.u32(at: at + 4), let raw = chunk.u32(at: at + 8),
                  let type = chunk.u8(at: at + 15), let data = chunk.u32(at: at + 16) else {
                throw fail("has an element <\(name)> whose attribute \(index + 1) of \(attributeCount) lies past the end of its chunk")
            }
            let resourceID = Int(exactly: attributeName).flatMap { $0 < resourceMap.count && resourceMap[$0] != 0 ? resourceMap[$0] : nil }
            let value: BinaryXMLValue
            switch type {
            case 0x03: value = .string(try strings.string(data, what: "a string value", fail: fail))
            case 0x12: value = .boolean(data != 0)
            case 0x10, 0x11: value = .integer(Int32(bitPattern: data))
            case 0x01: value = .reference(data)
            case 0x00 where raw != noIndex: value = .string(try strings.string(raw, what: "a raw value", fail: fail))
            default: value = .other(type: type, data: data)
            }
            attributes.append(BinaryXMLAttribute(
                namespace: namespace == noIndex ? nil : try strings.string(namespace, what: "an attribute's namespace", fail: fail),
                name: try strings.string(attributeName, what: "an attribute's name", fail: fail),
                resourceID: resourceID, value: value))
        }
        return .start(name: name, attributes: attributes, line: line)
    }

    static func hex<T: BinaryInteger>(_ value: T) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - text.count)) + text
    }
}

/// A binary XML string pool: offsets into UTF-8 or UTF-16 strings, decoded when first asked for,
/// within a budget of decoded bytes (strings that overlap or repeat cannot multiply the work).
struct StringPool {
    private let chunk: LittleEndianReader
    private let count: Int
    private let offsetsStart: Int
    private let stringsStart: Int
    private let stringsEnd: Int
    private let utf8: Bool
    private var cache: [UInt32: String] = [:]
    private var budget: Int

    init(chunk: LittleEndianReader, headerSize: Int, limits: APKReadLimits, fail: ManifestFailure) throws(APKReadError) {
        let start = chunk.position
        guard headerSize >= 28, let count = chunk.u32(at: start + 8), let styles = chunk.u32(at: start + 12), let flags = chunk.u32(at: start + 16),
              let stringsOffset = chunk.u32(at: start + 20), let stylesOffset = chunk.u32(at: start + 24) else {
            throw fail("has a string pool at byte \(start) whose header is cut short")
        }
        guard Int(count) <= limits.manifestStrings else {
            throw fail.overLimit("has a string pool declaring \(count) strings, more than \(limits.manifestStrings)")
        }
        let size = chunk.end - start
        // The offsets (4 bytes per string and per style) must fit between the header and the strings.
        let indexBytes = (UInt64(count) + UInt64(styles)) * 4
        guard UInt64(headerSize) + indexBytes <= UInt64(size), count == 0 || (UInt64(stringsOffset) >= UInt64(headerSize) + indexBytes && UInt64(stringsOffset) <= UInt64(size)) else {
            throw fail("has a string pool at byte \(start) whose \(count) string offsets or strings (at \(stringsOffset)) lie outside its \(size) bytes")
        }
        self.chunk = chunk
        self.count = Int(count)
        self.offsetsStart = start + headerSize
        self.stringsStart = start + Int(stringsOffset)
        self.stringsEnd = styles > 0 && stylesOffset > stringsOffset && UInt64(stylesOffset) <= UInt64(size) ? start + Int(stylesOffset) : chunk.end
        self.utf8 = flags & 0x100 != 0
        // Decoding never needs more than a few times the pool's own size, however the offsets overlap.
        self.budget = 4 * size + 4096
    }

    /// String `index`, or an error naming `what` needed it.
    mutating func string(_ index: UInt32, what: String, fail: ManifestFailure) throws(APKReadError) -> String {
        if let known = cache[index] { return known }
        guard let position = Int(exactly: index), position < count, let relative = chunk.u32(at: offsetsStart + 4 * position) else {
            throw fail("refers to string \(index) for \(what), but its string pool has \(count)")
        }
        let at = stringsStart + Int(relative)
        let area = LittleEndianReader(chunk.bytes, from: stringsStart, to: stringsEnd)
        let text: String
        if utf8 {
            // Two lengths, each one byte or two (high bit set): UTF-16 units, then UTF-8 bytes.
            guard let (_, afterUnits) = Self.utf8Length(area, at), let (length, start) = Self.utf8Length(area, afterUnits), area.contains(start, length) else {
                throw fail("has string \(index) (for \(what)) running past the end of its string pool")
            }
            try spend(length, fail: fail)
            text = String(decoding: chunk.bytes[start..<start + length], as: UTF8.self)
        } else {
            // A length of one unit, or two with the first's high bit set; then that many UTF-16 units.
            guard let first = area.u16(at: at) else { throw fail("has string \(index) (for \(what)) running past the end of its string pool") }
            var length = Int(first)
            var start = at + 2
            if first & 0x8000 != 0 {
                guard let second = area.u16(at: at + 2) else { throw fail("has string \(index) (for \(what)) running past the end of its string pool") }
                length = Int(first & 0x7fff) << 16 | Int(second)
                start += 2
            }
            guard length <= (area.end - start) / 2, area.contains(start, 2 * length) else {
                throw fail("has string \(index) (for \(what)) of \(length) UTF-16 units, running past the end of its string pool")
            }
            try spend(2 * length, fail: fail)
            let units = (0..<length).map { UInt16(chunk.bytes[start + 2 * $0]) | UInt16(chunk.bytes[start + 2 * $0 + 1]) << 8 }
            text = String(decoding: units, as: UTF16.self)
        }
        cache[index] = text
        return text
    }

    private mutating func spend(_ bytes: Int, fail: ManifestFailure) throws(APKReadError) {
        budget -= bytes
        guard budget >= 0 else { throw fail("has a string pool whose strings overlap so much that decoding them would take more than a few times its size") }
    }

    private static func utf8Length(_ area: LittleEndianReader, _ at: Int) -> (Int, Int)? {
        guard let first = area.u8(at: at) else { return nil }
        if first & 0x80 == 0 { return (Int(first), at + 1) }
        guard let second = area.u8(at: at + 1) else { return nil }
        return (Int(first & 0x7f) << 8 | Int(second), at + 2)
    }
}

/// The errors of one manifest: malformed by default, over a limit when said.
struct ManifestFailure {
    let source: String

    func callAsFunction(_ reason: String) -> APKReadError { APKReadError(source: source, code: .malformedManifest, reason: reason) }

    func overLimit(_ reason: String) -> APKReadError { APKReadError(source: source, code: .overLimit, reason: reason) }
}
