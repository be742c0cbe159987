/// A key that occurs more than once in one object; parsers disagree about which value wins.
public struct JSONDuplicateKey: Sendable, Equatable {
    /// RFC 6901 JSON pointer of the object holding the key ("" for the root).
    public var pointer: String
    /// The repeated key.
    public var key: String
    /// 1-based line of the repeated occurrence's opening quote.
    public var line: Int
    /// 1-based column, in characters, of the repeated occurrence's opening quote.
    public var column: Int

    /// Creates a duplicate-key record.
    public init(pointer: String, key: String, line: Int, column: Int) {
        self.pointer = pointer
        self.key = key
        self.line = line
        self.column = column
    }
}
