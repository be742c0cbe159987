import Audit
import Foundation

/// Encodes a value as report.json's `JSONEncoder` does (`[.prettyPrinted, .sortedKeys,
/// .withoutEscapingSlashes]`, ISO 8601 dates), byte for byte, at a fraction of its cost.
///
/// Every finished domain of a run is encoded once for the results spool, on the audit's worker;
/// Foundation's encoder builds a tree of boxed values and dictionaries for it and was about a
/// twentieth of the whole audit's CPU (issue 28). This one builds a smaller tree (scalars held as they
/// are, objects as arrays of pairs) and writes it in one pass, with Foundation's rules: keys in the
/// order of their UTF-8 bytes, two spaces an indent, `" : "` after a key, an empty array or object
/// as its brackets around a blank line, strings escaped as `JSONWriter` escapes them (quote,
/// backslash, control characters; slashes and non-ASCII as they are), a `Double` as its
/// `description` without a trailing `.0`, a `Date` as `date.formatted(.iso8601)`, a `URL` as its
/// `absoluteString`, a value that encodes nothing as `{}`.
///
/// What it does not reproduce it refuses (`Unsupported`: `Data`, `Decimal`, a super encoder), and
/// `JSONReporter.encodeDomain` then asks `JSONEncoder`; `PrettySortedJSONEncoderTests` compares the
/// two on every kind of result the tests make.
public struct PrettySortedJSONEncoder {
    /// A value this encoder does not write as `JSONEncoder` would.
    public struct Unsupported: Error, CustomStringConvertible {
        public var what: String
        public var description: String { "PrettySortedJSONEncoder does not encode \(what)" }
    }

    public init() {}

    public func encode<T: Encodable>(_ value: T) throws -> Data {
        let root = try NodeEncoder.node(for: value, parent: nil, key: nil, topLevel: true)
        var writer = NodeWriter()
        writer.bytes.reserveCapacity(4096)
        try writer.write(root, depth: 0)
        return Data(writer.bytes)
    }

    /// `date.formatted(.iso8601)` ("2026-12-03T14:00:00Z"), computed (`UTCTime`) for years 1900 to
    /// 9999: a report holds a few dates per domain, and the format style costs more than the rest of
    /// a date's encoding. Any other date, or one a hair below a whole second (where rounding could
    /// differ), is left to the format style.
    static func iso8601(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        guard interval.isFinite, interval - interval.rounded(.down) < 0.999, let time = UTCTime(date) else {
            return date.formatted(.iso8601)
        }
        return time.iso8601Text
    }
}

/// One encoded value: scalars as they are, containers by reference (a container handed out is
/// filled after it is stored in its parent).
private enum Node {
    case string(String)
    /// A number's text as JSON holds it.
    case number(String)
    case bool(Bool)
    case null
    case object(ObjectBox)
    case array(ArrayBox)
    /// What a nested encoder encodes, known once it is done (`{}` if it encodes nothing).
    case encoder(NodeEncoder)
}

private final class ObjectBox {
    /// `prefix`: the key's first eight UTF-8 bytes as a big-endian number (zeros after a shorter
    /// key), which orders two keys as their bytes do unless the two are equal; the writer sorts
    /// every object, and comparing numbers first spares it most of the string comparisons.
    var pairs: [(key: String, prefix: UInt64, value: Node)]

    /// Room for a record's objects (most have 5 to 20 keys) from the start: grown by doubling from
    /// empty, each would be allocated four or five times while it is filled.
    init(capacity: Int = 0) {
        pairs = []
        pairs.reserveCapacity(capacity)
    }

    func append(_ key: String, _ value: Node) {
        var prefix: UInt64 = 0, count = 0
        for byte in key.utf8 {
            if count == 8 { break }
            prefix = prefix << 8 | UInt64(byte)
            count += 1
        }
        pairs.append((key, prefix << (8 * (8 - count)), value))  // 64 bits of shift give 0
    }
}

private final class ArrayBox {
    var items: [Node] = []
}

/// An array element's key in a coding path. Its text is made only when asked (an error's path):
/// every element of every array gets one, and none of the report's types reads it.
private struct IndexKey: CodingKey {
    private var text: String?
    var intValue: Int?
    var stringValue: String { text ?? "Index \(intValue ?? 0)" }
    init(stringValue: String) { self.text = stringValue }
    init(intValue: Int) { self.intValue = intValue }
}

private final class NodeEncoder: Encoder {
    let parent: NodeEncoder?
    let key: CodingKey?
    var node: Node?

    init(parent: NodeEncoder?, key: CodingKey?) {
        self.parent = parent
        self.key = key
    }

    /// Built only when asked (no type of the report asks): keeping it up to date costs an array per value.
    var codingPath: [CodingKey] {
        var path: [CodingKey] = []
        var encoder: NodeEncoder? = self
        while let current = encoder {
            if let key = current.key { path.append(key) }
            encoder = current.parent
        }
        return path.reversed()
    }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let box: ObjectBox
        if case .object(let existing)? = node {
            box = existing
        } else {
            box = ObjectBox(capacity: 16)
            node = .object(box)
        }
        return KeyedEncodingContainer(KeyedContainer<Key>(box: box, encoder: self))
    }

    func unkeyedContainer() -> UnkeyedEncodingContainer {
        let box: ArrayBox
        if case .array(let existing)? = node {
            box = existing
        } else {
            box = ArrayBox()
            node = .array(box)
        }
        return UnkeyedContainer(box: box, encoder: self)
    }

    func singleValueContainer() -> SingleValueEncodingContainer {
        SingleContainer(encoder: self)
    }

    /// The node of `value`: the types `JSONEncoder` writes its own way first, then the value's own
    /// `encode(to:)` into a nested encoder.
    /// `topLevel`: a value that encodes nothing is an error there, as in `JSONEncoder`.
    static func node<T: Encodable>(for value: T, parent: NodeEncoder?, key: CodingKey?, topLevel: Bool = false) throws -> Node {
        // By type, not `as?`: a dynamic cast per value is much of what Foundation's encoder costs.
        if T.self == String.self { return .string(Self.same(value, String.self)) }
        if T.self == Date.self { return .string(PrettySortedJSONEncoder.iso8601(Self.same(value, Date.self))) }
        if T.self == URL.self { return .string(Self.same(value, URL.self).absoluteString) }
        if T.self == Data.self { throw PrettySortedJSONEncoder.Unsupported(what: "Data") }
        if T.self == Decimal.self { throw PrettySortedJSONEncoder.Unsupported(what: "Decimal") }
        let encoder = NodeEncoder(parent: parent, key: key)
        try value.encode(to: encoder)
        if let node = encoder.node { return node }
        guard !topLevel else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
        }
        return .object(ObjectBox())
    }

    /// `value` as `U`, which is its type (checked by the caller).
    @inline(__always)
    private static func same<T, U>(_ value: T, _ type: U.Type) -> U {
        withUnsafePointer(to: value) { $0.withMemoryRebound(to: U.self, capacity: 1) { $0.pointee } }
    }

    static func number<F: BinaryFloatingPoint & CustomStringConvertible>(_ value: F, encoder: NodeEncoder, key: CodingKey?) throws -> Node {
        guard value.isFinite else {
            var path = encoder.codingPath
            if let key { path.append(key) }
            throw EncodingError.invalidValue(value, .init(codingPath: path, debugDescription: "Unable to encode \(F.self).\(value) directly in JSON."))
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return .number(text)
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let box: ObjectBox
    let encoder: NodeEncoder
    var codingPath: [CodingKey] { encoder.codingPath }

    private func put(_ node: Node, _ key: Key) { box.append(key.stringValue, node) }

    mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { put(try NodeEncoder.number(value, encoder: encoder, key: key), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { put(try NodeEncoder.number(value, encoder: encoder, key: key), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { put(.number(value.description), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { put(.number(value.description), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { put(.number(value.description), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { put(.number(value.description), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { put(.number(value.description), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { put(.number(value.description), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { put(.number(value.description), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { put(.number(value.description), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { put(.number(value.description), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { put(.number(value.description), key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        put(try NodeEncoder.node(for: value, parent: encoder, key: key), key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let nested = NodeEncoder(parent: encoder, key: key)
        put(.encoder(nested), key)
        return nested.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer {
        let nested = NodeEncoder(parent: encoder, key: key)
        put(.encoder(nested), key)
        return nested.unkeyedContainer()
    }

    mutating func superEncoder() -> Encoder { Self.refusedSuperEncoder() }
    mutating func superEncoder(forKey key: Key) -> Encoder { Self.refusedSuperEncoder() }

    /// No type of the report uses a super encoder; one that did would trap here in tests, never in
    /// a release silently (the refusal is a nested encoder whose node says so).
    private static func refusedSuperEncoder() -> Encoder {
        RefusingEncoder()
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let box: ArrayBox
    let encoder: NodeEncoder
    var codingPath: [CodingKey] { encoder.codingPath }
    var count: Int { box.items.count }

    private func add(_ node: Node) { box.items.append(node) }
    private var nextKey: CodingKey { IndexKey(intValue: box.items.count) }

    mutating func encodeNil() throws { add(.null) }
    mutating func encode(_ value: Bool) throws { add(.bool(value)) }
    mutating func encode(_ value: String) throws { add(.string(value)) }
    mutating func encode(_ value: Double) throws { add(try NodeEncoder.number(value, encoder: encoder, key: nextKey)) }
    mutating func encode(_ value: Float) throws { add(try NodeEncoder.number(value, encoder: encoder, key: nextKey)) }
    mutating func encode(_ value: Int) throws { add(.number(value.description)) }
    mutating func encode(_ value: Int8) throws { add(.number(value.description)) }
    mutating func encode(_ value: Int16) throws { add(.number(value.description)) }
    mutating func encode(_ value: Int32) throws { add(.number(value.description)) }
    mutating func encode(_ value: Int64) throws { add(.number(value.description)) }
    mutating func encode(_ value: UInt) throws { add(.number(value.description)) }
    mutating func encode(_ value: UInt8) throws { add(.number(value.description)) }
    mutating func encode(_ value: UInt16) throws { add(.number(value.description)) }
    mutating func encode(_ value: UInt32) throws { add(.number(value.description)) }
    mutating func encode(_ value: UInt64) throws { add(.number(value.description)) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        add(try NodeEncoder.node(for: value, parent: encoder, key: nextKey))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = NodeEncoder(parent: encoder, key: nextKey)
        add(.encoder(nested))
        return nested.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer {
        let nested = NodeEncoder(parent: encoder, key: nextKey)
        add(.encoder(nested))
        return nested.unkeyedContainer()
    }

    mutating func superEncoder() -> Encoder { RefusingEncoder() }
}

private struct SingleContainer: SingleValueEncodingContainer {
    let encoder: NodeEncoder
    var codingPath: [CodingKey] { encoder.codingPath }

    private func set(_ node: Node) { encoder.node = node }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.bool(value)) }
    mutating func encode(_ value: String) throws { set(.string(value)) }
    mutating func encode(_ value: Double) throws { set(try NodeEncoder.number(value, encoder: encoder, key: nil)) }
    mutating func encode(_ value: Float) throws { set(try NodeEncoder.number(value, encoder: encoder, key: nil)) }
    mutating func encode(_ value: Int) throws { set(.number(value.description)) }
    mutating func encode(_ value: Int8) throws { set(.number(value.description)) }
    mutating func encode(_ value: Int16) throws { set(.number(value.description)) }
    mutating func encode(_ value: Int32) throws { set(.number(value.description)) }
    mutating func encode(_ value: Int64) throws { set(.number(value.description)) }
    mutating func encode(_ value: UInt) throws { set(.number(value.description)) }
    mutating func encode(_ value: UInt8) throws { set(.number(value.description)) }
    mutating func encode(_ value: UInt16) throws { set(.number(value.description)) }
    mutating func encode(_ value: UInt32) throws { set(.number(value.description)) }
    mutating func encode(_ value: UInt64) throws { set(.number(value.description)) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        set(try NodeEncoder.node(for: value, parent: encoder.parent, key: encoder.key))
    }
}

/// What a super encoder is: every container it gives throws `Unsupported` when used, so the value
/// falls back to `JSONEncoder`.
private struct RefusingEncoder: Encoder {
    var codingPath: [CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(RefusingKeyedContainer<Key>())
    }
    func unkeyedContainer() -> UnkeyedEncodingContainer { RefusingUnkeyedContainer() }
    func singleValueContainer() -> SingleValueEncodingContainer { RefusingSingleContainer() }
}

private let refusal = PrettySortedJSONEncoder.Unsupported(what: "a super encoder")

private struct RefusingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    var codingPath: [CodingKey] { [] }
    mutating func encodeNil(forKey key: Key) throws { throw refusal }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { throw refusal }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(RefusingKeyedContainer<NestedKey>())
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer { RefusingUnkeyedContainer() }
    mutating func superEncoder() -> Encoder { RefusingEncoder() }
    mutating func superEncoder(forKey key: Key) -> Encoder { RefusingEncoder() }
}

private struct RefusingUnkeyedContainer: UnkeyedEncodingContainer {
    var codingPath: [CodingKey] { [] }
    var count: Int { 0 }
    mutating func encodeNil() throws { throw refusal }
    mutating func encode<T: Encodable>(_ value: T) throws { throw refusal }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(RefusingKeyedContainer<NestedKey>())
    }
    mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer { RefusingUnkeyedContainer() }
    mutating func superEncoder() -> Encoder { RefusingEncoder() }
}

private struct RefusingSingleContainer: SingleValueEncodingContainer {
    var codingPath: [CodingKey] { [] }
    mutating func encodeNil() throws { throw refusal }
    mutating func encode<T: Encodable>(_ value: T) throws { throw refusal }
}

/// Writes a node tree as `JSONWriter` does with those options.
private struct NodeWriter {
    /// `JSONWriter`'s limit: deeper nesting is an error there too.
    static let maximumDepth = 512

    var bytes: [UInt8] = []

    mutating func write(_ node: Node, depth: Int) throws {
        switch node {
        case .string(let string): writeString(string)
        case .number(let text): bytes.append(contentsOf: text.utf8)
        case .bool(let value): bytes.append(contentsOf: value ? Self.trueBytes : Self.falseBytes)
        case .null: bytes.append(contentsOf: Self.nullBytes)
        case .object(let box): try writeObject(box, depth: depth + 1)
        case .array(let box): try writeArray(box, depth: depth + 1)
        case .encoder(let encoder): try write(encoder.node ?? .object(ObjectBox()), depth: depth)
        }
    }

    private static let trueBytes = Array("true".utf8)
    private static let falseBytes = Array("false".utf8)
    private static let nullBytes = Array("null".utf8)

    private mutating func indent(_ level: Int) {
        for _ in 0..<max(0, level) { bytes.append(0x20); bytes.append(0x20) }
    }

    private mutating func writeArray(_ box: ArrayBox, depth: Int) throws {
        guard depth < Self.maximumDepth else { throw Self.tooDeep }
        bytes.append(UInt8(ascii: "["))
        bytes.append(0x0A)
        var first = true
        for item in box.items {
            if !first { bytes.append(UInt8(ascii: ",")); bytes.append(0x0A) }
            first = false
            indent(depth)
            try write(item, depth: depth)
        }
        bytes.append(0x0A)
        indent(depth - 1)
        bytes.append(UInt8(ascii: "]"))
    }

    private mutating func writeObject(_ box: ObjectBox, depth: Int) throws {
        guard depth < Self.maximumDepth else { throw Self.tooDeep }
        bytes.append(UInt8(ascii: "{"))
        bytes.append(0x0A)
        // JSONEncoder keeps a dictionary: a key set twice holds its last value. Sorted by key, and
        // by the order they were set among equal keys, so the last of each key is the one kept.
        let pairs = box.pairs
        func same(_ a: Int, _ b: Int) -> Bool {
            pairs[a].prefix == pairs[b].prefix && Self.compareUTF8(pairs[a].key, pairs[b].key) == 0
        }
        func precedes(_ a: Int, _ b: Int) -> Bool {
            if pairs[a].prefix != pairs[b].prefix { return pairs[a].prefix < pairs[b].prefix }
            let order = Self.compareUTF8(pairs[a].key, pairs[b].key)
            return order == 0 ? a < b : order < 0
        }
        var order = Array(pairs.indices)
        if pairs.count > 32 {
            order.sort(by: precedes)  // a dictionary with many keys
        } else {
            // A record's objects have a few keys: an insertion sort, in place, is the cheapest.
            for position in order.indices.dropFirst() {
                let index = order[position]
                var slot = position
                while slot > 0, precedes(index, order[slot - 1]) {
                    order[slot] = order[slot - 1]
                    slot -= 1
                }
                order[slot] = index
            }
        }
        var first = true
        for (position, index) in order.enumerated() {
            let pair = pairs[index]
            if position + 1 < order.count, same(order[position + 1], index) { continue }
            if !first { bytes.append(UInt8(ascii: ",")); bytes.append(0x0A) }
            first = false
            indent(depth)
            writeString(pair.key)
            bytes.append(0x20); bytes.append(UInt8(ascii: ":")); bytes.append(0x20)
            try write(pair.value, depth: depth)
        }
        bytes.append(0x0A)
        indent(depth - 1)
        bytes.append(UInt8(ascii: "}"))
    }

    /// The order of `left` and `right` by their UTF-8 bytes (JSONWriter's `utf8.lexicographicallyPrecedes`),
    /// as memcmp gives it: negative, zero or positive.
    private static func compareUTF8(_ left: String, _ right: String) -> Int {
        var left = left, right = right
        return left.withUTF8 { a in
            right.withUTF8 { b in
                let common = min(a.count, b.count)
                if common > 0, let x = a.baseAddress, let y = b.baseAddress {
                    let order = memcmp(x, y, common)
                    if order != 0 { return Int(order) }
                }
                return a.count - b.count
            }
        }
    }

    private static let tooDeep = EncodingError.invalidValue(
        0, .init(codingPath: [], debugDescription: "Too many nested arrays or dictionaries"))

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// `JSONWriter.serializeString` with slashes left alone.
    private mutating func writeString(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            // Most strings need no escape: one copy.
            guard utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
                bytes.append(contentsOf: utf8)
                return
            }
            var mark = 0
            for (offset, byte) in utf8.enumerated() {
                let escape: (UInt8, Bool)  // the letter after the backslash; true: \u00XX
                switch byte {
                case UInt8(ascii: "\""): escape = (byte, false)
                case UInt8(ascii: "\\"): escape = (byte, false)
                case 0x08: escape = (UInt8(ascii: "b"), false)
                case 0x0C: escape = (UInt8(ascii: "f"), false)
                case 0x0A: escape = (UInt8(ascii: "n"), false)
                case 0x0D: escape = (UInt8(ascii: "r"), false)
                case 0x09: escape = (UInt8(ascii: "t"), false)
                case 0x00...0x1F: escape = (byte, true)
                default: continue
                }
                if offset > mark { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[mark..<offset])) }
                bytes.append(UInt8(ascii: "\\"))
                if escape.1 {
                    bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                              Self.hexDigits[Int(byte >> 4)], Self.hexDigits[Int(byte & 0x0F)]])
                } else {
                    bytes.append(escape.0)
                }
                mark = offset + 1
            }
            if utf8.count > mark { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[mark...])) }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
