import Audit
import Foundation

/// Encodes a value as report.json's `JSONEncoder` does (`[.prettyPrinted, .sortedKeys,
/// .withoutEscapingSlashes]`, ISO 8601 dates), byte for byte, at a fraction of its cost.
///
/// Every finished domain of a run is encoded once for the results spool, on the audit's worker;
/// Foundation's encoder builds a tree of boxed values and dictionaries for it and was about a
/// twentieth of the whole audit's CPU (issue 28). This one keeps the tree in flat arrays (the
/// values with the member that holds each, and the members of objects and arrays, each container's
/// linked in the order they were set), with one encoder for the whole value, and writes it in one pass, with Foundation's
/// rules: keys in the order of their UTF-8 bytes, two spaces an indent, `" : "` after a key, an
/// empty array or object as its brackets around a blank line, strings escaped as `JSONWriter`
/// escapes them (quote, backslash, control characters; slashes and non-ASCII as they are), a
/// `Double` as its `description` without a trailing `.0`, a `Date` as `date.formatted(.iso8601)`,
/// a `URL` as its `absoluteString`, a value that encodes nothing as `{}`.
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
        try encode(value, depth: 0)
    }

    /// `value` as `encode(_:)` writes it, but every line `depth` levels (two spaces each) deeper, the
    /// first one included, as it sits inside the containers of a larger document (an empty
    /// container's blank line stays empty, as there).
    public func encode<T: Encodable>(_ value: T, depth: Int) throws -> Data {
        let tree = ValueTree()
        try tree.encodeRoot(value)
        var writer = TreeWriter(tree: tree)
        defer { writer.output.free() }
        writer.output.indent(depth)
        try writer.write(slot: 0, depth: depth)
        return writer.output.data
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

/// One encoded value. An object's or array's members are `Member`s linked from `first` to `last`
/// (-1: none), in the order they were set.
private enum Node {
    /// Not encoded (yet): a value that encodes nothing is written as `{}`, as `JSONEncoder` does.
    case pending
    case string(String)
    /// A number's text as JSON holds it.
    case number(String)
    case bool(Bool)
    case null
    case object(first: Int32, last: Int32)
    case array(first: Int32, last: Int32, count: Int32)
}

/// One member of an object (its key) or element of an array (its position), and where its value is.
private struct Member {
    var key: String
    /// The key's first eight UTF-8 bytes as a big-endian number (zeros after a shorter key), which
    /// orders two keys as their bytes do unless the two are equal; the writer sorts every object, and
    /// comparing numbers first spares it most of the string comparisons. 0 for an array's element.
    var prefix: UInt64
    /// The key's `intValue`, or an array element's position: for a coding path.
    var intValue: Int?
    var isElement: Bool
    /// The value's slot, the container's slot, and the next member of the same container (-1: none).
    var slot: Int32
    var owner: Int32
    var next: Int32
}

/// The values of one encoding: slot 0 is the top-level value. Every value's `encode(to:)` is given
/// this one encoder; `current` is the slot it fills, set around each nested call (no encoder, box or
/// array per value: those allocations were most of the cost of a tree of objects).
private final class ValueTree: Encoder {
    // Unchecked: no access to these outlives the statement that makes it (none is held across a
    // value's `encode(to:)`), and the run-time checks of a class's properties cost as much as the
    // rest of the encoding.
    @exclusivity(unchecked) var nodes: [Node] = []
    /// For each slot, the member that holds it (-1: the top level).
    @exclusivity(unchecked) var holders: [Int32] = []
    @exclusivity(unchecked) var members: [Member] = []
    @exclusivity(unchecked) var current = 0

    init() {
        // A domain's result has a few hundred values.
        nodes.reserveCapacity(256)
        holders.reserveCapacity(256)
        members.reserveCapacity(256)
    }

    var codingPath: [CodingKey] { path(of: current) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// The coding path of `slot`, from the members that hold it: built only when asked (an error; no
    /// type of the report asks).
    func path(of slot: Int) -> [CodingKey] {
        var path: [CodingKey] = []
        var holder = holders[slot]
        while holder >= 0 {
            let member = members[Int(holder)]
            path.append(member.isElement ? PathKey(index: member.intValue ?? 0) : PathKey(member.key, intValue: member.intValue))
            holder = holders[Int(member.owner)]
        }
        return path.reversed()
    }

    func encodeRoot<T: Encodable>(_ value: T) throws {
        nodes.append(.pending)
        holders.append(-1)
        try encode(value, into: 0)
        if case .pending = nodes[0] {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
        }
    }

    /// Encodes `value` into `slot`: the types `JSONEncoder` writes its own way first, then the
    /// value's own `encode(to:)`.
    func encode<T: Encodable>(_ value: T, into slot: Int) throws {
        // By type, not `as?`: a dynamic cast per value is much of what Foundation's encoder costs.
        if T.self == String.self { nodes[slot] = .string(Self.same(value, String.self)); return }
        if T.self == Date.self { nodes[slot] = .string(PrettySortedJSONEncoder.iso8601(Self.same(value, Date.self))); return }
        if T.self == URL.self { nodes[slot] = .string(Self.same(value, URL.self).absoluteString); return }
        if T.self == Data.self { throw PrettySortedJSONEncoder.Unsupported(what: "Data") }
        if T.self == Decimal.self { throw PrettySortedJSONEncoder.Unsupported(what: "Decimal") }
        let outer = current
        current = slot
        defer { current = outer }
        try value.encode(to: self)
    }

    /// `value` as `U`, which is its type (checked by the caller).
    @inline(__always)
    private static func same<T, U>(_ value: T, _ type: U.Type) -> U {
        withUnsafePointer(to: value) { $0.withMemoryRebound(to: U.self, capacity: 1) { $0.pointee } }
    }

    /// A new slot holding `node`, the last member of the container in `owner`.
    func add(_ node: Node, to owner: Int, key: String, intValue: Int?) -> Int {
        let slot = nodes.count
        let index = Int32(members.count)
        var isElement = false
        switch nodes[owner] {
        case .object(let first, let last):
            if last >= 0 { members[Int(last)].next = index }
            nodes[owner] = .object(first: first < 0 ? index : first, last: index)
        case .array(let first, let last, let count):
            if last >= 0 { members[Int(last)].next = index }
            nodes[owner] = .array(first: first < 0 ? index : first, last: index, count: count + 1)
            isElement = true
        default:
            preconditionFailure("a member added to a slot that is not a container")
        }
        var prefix: UInt64 = 0
        if !isElement {
            var count = 0
            for byte in key.utf8 {
                if count == 8 { break }
                prefix = prefix << 8 | UInt64(byte)
                count += 1
            }
            prefix <<= 8 * (8 - count)  // 64 bits of shift give 0
        }
        members.append(Member(key: key, prefix: prefix, intValue: intValue, isElement: isElement, slot: Int32(slot), owner: Int32(owner), next: -1))
        nodes.append(node)
        holders.append(index)
        return slot
    }

    /// The number of elements of the array in `slot`.
    func count(of slot: Int) -> Int {
        if case .array(_, _, let count) = nodes[slot] { return Int(count) }
        return 0
    }

    /// Makes `slot` an object unless it is one (a value that asks for its keyed container twice gets one object).
    func makeObject(_ slot: Int) {
        if case .object = nodes[slot] { return }
        nodes[slot] = .object(first: -1, last: -1)
    }

    func makeArray(_ slot: Int) {
        if case .array = nodes[slot] { return }
        nodes[slot] = .array(first: -1, last: -1, count: 0)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        makeObject(current)
        return KeyedEncodingContainer(KeyedContainer<Key>(tree: self, slot: current))
    }

    func unkeyedContainer() -> UnkeyedEncodingContainer {
        makeArray(current)
        return UnkeyedContainer(tree: self, slot: current)
    }

    func singleValueContainer() -> SingleValueEncodingContainer {
        SingleContainer(tree: self, slot: current)
    }

    /// The node of a floating-point number, or the refusal `JSONEncoder` gives a non-finite one
    /// (`path`: where it would have gone).
    static func number<F: BinaryFloatingPoint & CustomStringConvertible>(_ value: F, path: @autoclosure () -> [CodingKey]) throws -> Node {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: path(), debugDescription: "Unable to encode \(F.self).\(value) directly in JSON."))
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return .number(text)
    }
}

/// A key of a coding path: a member's, or an array element's ("Index 3", as Foundation's).
private struct PathKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(_ text: String, intValue: Int?) { self.stringValue = text; self.intValue = intValue }
    init(index: Int) { self.stringValue = "Index \(index)"; self.intValue = index }
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) { self.init(index: intValue) }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let tree: ValueTree
    let slot: Int
    var codingPath: [CodingKey] { tree.path(of: slot) }

    @discardableResult
    private func put(_ node: Node, _ key: Key) -> Int { tree.add(node, to: slot, key: key.stringValue, intValue: key.intValue) }
    private func path(_ key: Key) -> [CodingKey] { codingPath + [key] }

    mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { put(try ValueTree.number(value, path: path(key)), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { put(try ValueTree.number(value, path: path(key)), key) }
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
        try tree.encode(value, into: put(.pending, key))
    }

    // The protocol's own `encodeIfPresent` goes through one more generic call per value; most of
    // a result's optional members are of these types.
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { if let value { put(.string(value), key) } }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { if let value { put(.number(value.description), key) } }
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { if let value { put(.bool(value), key) } }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try tree.encode(value, into: put(.pending, key)) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let nested = put(.object(first: -1, last: -1), key)
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(tree: tree, slot: nested))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer {
        UnkeyedContainer(tree: tree, slot: put(.array(first: -1, last: -1, count: 0), key))
    }

    /// No type of the report uses a super encoder: the refusal is an encoder whose every container
    /// throws `Unsupported`, so the value falls back to `JSONEncoder`.
    mutating func superEncoder() -> Encoder { RefusingEncoder() }
    mutating func superEncoder(forKey key: Key) -> Encoder { RefusingEncoder() }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let tree: ValueTree
    let slot: Int
    var codingPath: [CodingKey] { tree.path(of: slot) }
    var count: Int { tree.count(of: slot) }

    @discardableResult
    private func add(_ node: Node) -> Int { tree.add(node, to: slot, key: "", intValue: count) }
    private var nextPath: [CodingKey] { codingPath + [PathKey(index: count)] }

    mutating func encodeNil() throws { add(.null) }
    mutating func encode(_ value: Bool) throws { add(.bool(value)) }
    mutating func encode(_ value: String) throws { add(.string(value)) }
    mutating func encode(_ value: Double) throws { add(try ValueTree.number(value, path: nextPath)) }
    mutating func encode(_ value: Float) throws { add(try ValueTree.number(value, path: nextPath)) }
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
        try tree.encode(value, into: add(.pending))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(KeyedContainer<NestedKey>(tree: tree, slot: add(.object(first: -1, last: -1))))
    }

    mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer {
        UnkeyedContainer(tree: tree, slot: add(.array(first: -1, last: -1, count: 0)))
    }

    mutating func superEncoder() -> Encoder { RefusingEncoder() }
}

private struct SingleContainer: SingleValueEncodingContainer {
    let tree: ValueTree
    let slot: Int
    var codingPath: [CodingKey] { tree.path(of: slot) }

    private func set(_ node: Node) { tree.nodes[slot] = node }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.bool(value)) }
    mutating func encode(_ value: String) throws { set(.string(value)) }
    mutating func encode(_ value: Double) throws { set(try ValueTree.number(value, path: codingPath)) }
    mutating func encode(_ value: Float) throws { set(try ValueTree.number(value, path: codingPath)) }
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
        try tree.encode(value, into: slot)
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

/// Writes a value tree as `JSONWriter` does with those options.
private struct TreeWriter {
    /// `JSONWriter`'s limit: deeper nesting is an error there too.
    static let maximumDepth = 512

    let tree: ValueTree
    var output = OutputBytes(capacity: 8192)
    /// The members of the objects being written, each object's after its parent's: one array for
    /// the whole value instead of one per object.
    private var order: [Int32] = []

    init(tree: ValueTree) {
        self.tree = tree
        order.reserveCapacity(64)
    }

    mutating func write(slot: Int, depth: Int) throws {
        switch tree.nodes[slot] {
        case .pending: try writeObject(first: -1, depth: depth + 1)
        case .string(let string): writeString(string)
        case .number(var text): text.withUTF8 { output.append($0) }
        case .bool(let value): output.append(value ? "true" : "false")
        case .null: output.append("null")
        case .object(let first, _): try writeObject(first: first, depth: depth + 1)
        case .array(let first, _, _): try writeArray(first: first, depth: depth + 1)
        }
    }

    private mutating func writeArray(first: Int32, depth: Int) throws {
        guard depth < Self.maximumDepth else { throw Self.tooDeep }
        output.append(UInt8(ascii: "["))
        var index = first
        while index >= 0 {
            let member = tree.members[Int(index)]
            if index != first { output.append(UInt8(ascii: ",")) }
            output.newLine(depth)
            try write(slot: Int(member.slot), depth: depth)
            index = member.next
        }
        if first < 0 { output.append(0x0A) }  // an empty array is its brackets around a blank line
        output.newLine(depth - 1)
        output.append(UInt8(ascii: "]"))
    }

    private mutating func writeObject(first: Int32, depth: Int) throws {
        guard depth < Self.maximumDepth else { throw Self.tooDeep }
        output.append(UInt8(ascii: "{"))
        let base = order.count
        var index = first
        while index >= 0 {
            order.append(index)
            index = tree.members[Int(index)].next
        }
        // JSONEncoder keeps a dictionary: a key set twice holds its last value. Sorted by key, and
        // by the order they were set among equal keys (member indices grow in that order), so the
        // last of each key is the one kept.
        let members = tree.members
        func same(_ a: Int32, _ b: Int32) -> Bool {
            members[Int(a)].prefix == members[Int(b)].prefix && Self.compareUTF8(members[Int(a)].key, members[Int(b)].key) == 0
        }
        func precedes(_ a: Int32, _ b: Int32) -> Bool {
            let x = members[Int(a)], y = members[Int(b)]
            if x.prefix != y.prefix { return x.prefix < y.prefix }
            let byBytes = Self.compareUTF8(x.key, y.key)
            return byBytes == 0 ? a < b : byBytes < 0
        }
        if order.count - base > 32 {
            order[base...].sort(by: precedes)  // a dictionary with many keys
        } else {
            // A record's objects have a few keys: an insertion sort, in place, is the cheapest.
            var position = base + 1
            while position < order.count {
                let moving = order[position]
                var slot = position
                while slot > base, precedes(moving, order[slot - 1]) {
                    order[slot] = order[slot - 1]
                    slot -= 1
                }
                order[slot] = moving
                position += 1
            }
        }
        var firstWritten = true
        var position = base
        let end = order.count
        while position < end {
            let index = order[position]
            position += 1
            if position < end, same(order[position], index) { continue }
            let member = members[Int(index)]
            if !firstWritten { output.append(UInt8(ascii: ",")) }
            firstWritten = false
            output.newLine(depth)
            writeString(member.key)
            output.append(" : ")
            try write(slot: Int(member.slot), depth: depth)
        }
        if end == base { output.append(0x0A) }  // an empty object is its braces around a blank line
        order.removeSubrange(base...)
        output.newLine(depth - 1)
        output.append(UInt8(ascii: "}"))
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
        var string = string
        string.withUTF8 { utf8 in
            // Most strings need no escape: checked eight bytes at a time, then one copy.
            guard OutputBytes.needsEscape(utf8) else {
                output.reserve(utf8.count + 2)
                output.appendReserved(UInt8(ascii: "\""))
                output.appendReserved(utf8)
                output.appendReserved(UInt8(ascii: "\""))
                return
            }
            output.append(UInt8(ascii: "\""))
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
                if offset > mark { output.append(UnsafeBufferPointer(rebasing: utf8[mark..<offset])) }
                output.append(UInt8(ascii: "\\"))
                if escape.1 {
                    output.append("u00")
                    output.append(Self.hexDigits[Int(byte >> 4)])
                    output.append(Self.hexDigits[Int(byte & 0x0F)])
                } else {
                    output.append(escape.0)
                }
                mark = offset + 1
            }
            if utf8.count > mark { output.append(UnsafeBufferPointer(rebasing: utf8[mark...])) }
            output.append(UInt8(ascii: "\""))
        }
    }
}

/// The bytes being written: grown by doubling, each append one capacity check and a store or a
/// copy (an `Array`'s append checks its uniqueness too, and a short `append(contentsOf:)` costs a
/// call; at a few hundred strings and lines per domain those were most of the writing).
/// `TreeWriter` frees it when it is done (`free`).
private struct OutputBytes {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    func free() { base.deallocate() }

    /// A copy of what was written.
    var data: Data { Data(bytes: base, count: count) }

    /// Room for `extra` more bytes.
    @inline(__always)
    mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(count + extra) }
    }

    private mutating func grow(_ needed: Int) {
        var size = capacity * 2
        while size < needed { size *= 2 }
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
        larger.update(from: base, count: count)
        base.deallocate()
        base = larger
        capacity = size
    }

    /// After `reserve`.
    @inline(__always)
    mutating func appendReserved(_ byte: UInt8) {
        base[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func appendReserved(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    mutating func append(_ byte: UInt8) {
        reserve(1)
        appendReserved(byte)
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        reserve(bytes.count)
        appendReserved(bytes)
    }

    /// An ASCII literal ("true", " : ").
    mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Two spaces per `level`.
    mutating func indent(_ level: Int) {
        let spaces = 2 * max(0, level)
        reserve(spaces)
        (base + count).update(repeating: 0x20, count: spaces)
        count += spaces
    }

    /// Ends the line and indents the next one by `level` (two spaces a level).
    mutating func newLine(_ level: Int) {
        append(0x0A)
        indent(level)
    }

    /// Whether `bytes` has a byte `JSONWriter` escapes: a control character, a quote or a backslash.
    /// Eight bytes a step: a word has a byte below 0x20 when `(w - 0x20…) & ~w & 0x80…` is not zero,
    /// and a byte equal to `c` when `w ^ c…` has a zero byte (both exact as yes-or-no answers).
    static func needsEscape(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let start = bytes.baseAddress else { return false }
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ word: UInt64) -> Bool { (word &- ones) & ~word & highs != 0 }
        var offset = 0
        while offset + 8 <= bytes.count {
            let word = UnsafeRawPointer(start + offset).loadUnaligned(as: UInt64.self)
            if (word &- 0x20 &* ones) & ~word & highs != 0 || hasZeroByte(word ^ (0x22 &* ones)) || hasZeroByte(word ^ (0x5C &* ones)) {
                return true
            }
            offset += 8
        }
        while offset < bytes.count {
            let byte = start[offset]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return true }
            offset += 1
        }
        return false
    }
}
