/// The result of parsing: the root value plus the facts an auditor reports that the value alone loses.
public struct JSONDocument: Sendable {
    /// The top-level value (any JSON type; the caller checks that it is an object).
    public var root: JSONValue
    /// A UTF-8 byte order mark was present and skipped; RFC 8259 forbids it, so callers report it.
    public var hadByteOrderMark: Bool
    /// Every repeated key in any object, in document order.
    public var duplicateKeys: [JSONDuplicateKey]

    /// Creates a document; the parser fills in all fields.
    public init(root: JSONValue, hadByteOrderMark: Bool = false, duplicateKeys: [JSONDuplicateKey] = []) {
        self.root = root
        self.hadByteOrderMark = hadByteOrderMark
        self.duplicateKeys = duplicateKeys
    }
}
