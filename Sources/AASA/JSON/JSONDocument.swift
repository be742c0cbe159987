/// The result of parsing: the root value plus the facts an auditor reports that the value alone loses.
public struct JSONDocument: Sendable {
    /// The top-level value (any JSON type; the caller checks that it is an object).
    public var root: JSONValue
    /// A UTF-8 byte order mark was present and skipped; RFC 8259 forbids it, so callers report it.
    public var hadByteOrderMark: Bool
    /// Every repeated key in any object, in document order.
    public var duplicateKeys: [JSONDuplicateKey]
    /// Where each value starts in the text, for turning a JSON pointer into a line and column.
    /// Empty for a document that was built, not parsed.
    public var positions: JSONPositions

    /// Creates a document; the parser fills in all fields.
    public init(root: JSONValue, hadByteOrderMark: Bool = false, duplicateKeys: [JSONDuplicateKey] = [],
                positions: JSONPositions = JSONPositions()) {
        self.root = root
        self.hadByteOrderMark = hadByteOrderMark
        self.duplicateKeys = duplicateKeys
        self.positions = positions
    }

    /// The line and column where the value `pointer` names starts, or, when the pointer leads past
    /// what the document has (a missing member), where its deepest existing value starts. Nil for a
    /// document that was not parsed, or a pointer that is not one ("" is the root).
    public func position(of pointer: String) -> TextPosition? {
        positions(of: [pointer])[0]
    }

    /// `position(of:)` for many pointers at once, in their order: the tree is walked once along the
    /// paths they name and the text counted once, so a file's thousand findings cost one pass.
    public func positions(of pointers: [String]) -> [TextPosition?] {
        positions.resolve(pointers, in: root)
    }
}

/// A 1-based line and column in a JSON text; the column counts Unicode scalars, as the parser's
/// errors do, and a skipped byte order mark is not a column.
public struct TextPosition: Sendable, Equatable, Hashable, Codable {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}
