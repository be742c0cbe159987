/// One response header; the name is lower-cased.
public struct HTTPHeader: Sendable, Equatable {
    public var name: String
    public var value: String
    public init(name: String, value: String) {
        self.name = name.lowercased()
        self.value = value
    }
}
