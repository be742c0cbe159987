/// Sizes of a response body.
public struct ByteCounts: Sendable, Equatable {
    /// Body bytes as they crossed the wire (before content decoding).
    public var transferred: Int
    /// Body bytes after content decoding (gzip, br ...), counted up to the cap.
    public var decoded: Int
    /// True when reading stopped at `limit`: the decoded body is larger than `limit`.
    public var truncated: Bool
    /// The cap that was in force.
    public var limit: Int

    public init(transferred: Int = 0, decoded: Int = 0, truncated: Bool = false, limit: Int = 0) {
        self.transferred = transferred
        self.decoded = decoded
        self.truncated = truncated
        self.limit = limit
    }
}
