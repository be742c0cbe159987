/// Where the values of a parsed document start: the byte offset of each value in pre-order (the
/// order the parser meets them), and the text, so an offset can be counted into a line and column.
///
/// The parser only appends one offset per value; a pointer is resolved later, when a caller asks,
/// by walking the value tree along the pointer and counting the values it steps over.
public struct JSONPositions: Sendable {
    /// The text as parsed (an array shares its storage with the caller's; nothing is copied).
    let text: [UInt8]
    /// Where the content starts: 3 after a byte order mark, else 0.
    let contentStart: Int
    /// The byte offset of each value, in pre-order.
    let valueStarts: [Int]

    /// No positions: a document built in code.
    public init() {
        self.init(text: [], contentStart: 0, valueStarts: [])
    }

    init(text: [UInt8], contentStart: Int, valueStarts: [Int]) {
        self.text = text
        self.contentStart = contentStart
        self.valueStarts = valueStarts
    }

    /// The reference tokens of an RFC 6901 pointer, unescaped; nil when it is not a pointer.
    /// By bytes: a file's thousands of findings each have one, and String's `replacing` cost more
    /// than the rest of the placement.
    static func tokens(of pointer: String) -> [String]? {
        let bytes = pointer.utf8
        guard let first = bytes.first else { return [] }
        guard first == UInt8(ascii: "/") else { return nil }
        var tokens: [String] = []
        var token: [UInt8] = []
        var tilde = false
        for byte in bytes.dropFirst() {
            if tilde {
                tilde = false
                // "~0" is "~", "~1" is "/" (RFC 6901 §4); any other "~" is kept as written.
                switch byte {
                case UInt8(ascii: "0"): token.append(UInt8(ascii: "~")); continue
                case UInt8(ascii: "1"): token.append(UInt8(ascii: "/")); continue
                default: token.append(UInt8(ascii: "~"))
                }
            }
            switch byte {
            case UInt8(ascii: "/"):
                tokens.append(String(decoding: token, as: UTF8.self))
                token.removeAll(keepingCapacity: true)
            case UInt8(ascii: "~"):
                tilde = true
            default:
                token.append(byte)
            }
        }
        if tilde { token.append(UInt8(ascii: "~")) }
        tokens.append(String(decoding: token, as: UTF8.self))
        return tokens
    }

    /// The pointers wanted below one value, by their next token.
    private final class Wanted {
        var children: [String: Wanted] = [:]
        /// Indexes (into the caller's list) of the pointers that end here.
        var ending: [Int] = []
    }

    /// Positions of `pointers` (see `JSONDocument.positions(of:)`).
    func resolve(_ pointers: [String], in root: JSONValue) -> [TextPosition?] {
        var offsets = [Int?](repeating: nil, count: pointers.count)
        guard !valueStarts.isEmpty else { return offsets.map { _ in nil } }
        let top = Wanted()
        for (index, pointer) in pointers.enumerated() {
            guard let tokens = Self.tokens(of: pointer) else { continue }
            var node = top
            for token in tokens {
                if let next = node.children[token] {
                    node = next
                } else {
                    let next = Wanted()
                    node.children[token] = next
                    node = next
                }
            }
            node.ending.append(index)
        }
        walk(root, at: 0, wanted: top, offsets: &offsets)
        return lineAndColumn(offsets)
    }

    /// Gives every pointer that ends at or below `value` (pre-order index `index`) the offset of
    /// the deepest value it reaches: this one, unless a child it names exists.
    private func walk(_ value: JSONValue, at index: Int, wanted: Wanted, offsets: inout [Int?]) {
        guard index < valueStarts.count else { return }
        let start = valueStarts[index]
        for ending in wanted.ending { offsets[ending] = start }
        guard !wanted.children.isEmpty else { return }
        // Every pointer below here gets this value's start until a deeper value is found for it.
        markAll(wanted.children.values, offset: start, offsets: &offsets)
        var childIndex = index + 1
        switch value {
        case .array(let elements):
            let last = wanted.children.keys.compactMap(Self.arrayIndex).max() ?? -1
            for (position, element) in elements.enumerated() {
                guard position <= last else { break }
                if let next = wanted.children[String(position)] {
                    walk(element, at: childIndex, wanted: next, offsets: &offsets)
                }
                childIndex += Self.valueCount(element)
            }
        case .object(let object):
            // A repeated key names its last value (what Apple's parser keeps), so the later one
            // overwrites; every member is stepped over to count the values before the next.
            for member in object.members {
                if let next = wanted.children[member.key] {
                    walk(member.value, at: childIndex, wanted: next, offsets: &offsets)
                }
                childIndex += Self.valueCount(member.value)
            }
        default:
            break
        }
    }

    private func markAll(_ nodes: Dictionary<String, Wanted>.Values, offset: Int, offsets: inout [Int?]) {
        var pending = Array(nodes)
        while let node = pending.popLast() {
            for ending in node.ending { offsets[ending] = offset }
            pending.append(contentsOf: node.children.values)
        }
    }

    /// An array index token: digits only, no leading zero (RFC 6901 §4).
    private static func arrayIndex(_ token: String) -> Int? {
        guard let first = token.utf8.first, first != UInt8(ascii: "0") || token.utf8.count == 1,
              token.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        return Int(token)
    }

    /// How many values `value` is, itself and everything nested in it (iterative: nesting is deep).
    static func valueCount(_ value: JSONValue) -> Int {
        var count = 0
        var pending = [value]
        while let next = pending.popLast() {
            count += 1
            switch next {
            case .array(let elements): pending.append(contentsOf: elements)
            case .object(let object): pending.append(contentsOf: object.members.lazy.map(\.value))
            default: break
            }
        }
        return count
    }

    /// Lines and columns of the offsets, counted in one pass over the text in increasing order.
    private func lineAndColumn(_ offsets: [Int?]) -> [TextPosition?] {
        var result = [TextPosition?](repeating: nil, count: offsets.count)
        let order = offsets.indices.filter { offsets[$0] != nil }.sorted { (offsets[$0] ?? 0) < (offsets[$1] ?? 0) }
        var counter = LineCounter(bytes: text, contentStart: contentStart)
        for index in order {
            guard let offset = offsets[index] else { continue }
            let position = counter.position(of: offset)
            result[index] = TextPosition(line: position.line, column: position.column)
        }
        return result
    }
}
