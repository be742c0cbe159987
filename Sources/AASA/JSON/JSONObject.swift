/// A JSON object: its members in document order, repeated keys included.
public struct JSONObject: Sendable, Equatable {
    /// The members in document order; a repeated key appears once per occurrence.
    public var members: [(key: String, value: JSONValue)]

    /// Creates an object from members in order.
    public init(members: [(key: String, value: JSONValue)] = []) {
        self.members = members
    }

    /// The value of the LAST member with this key: what Foundation's and Apple's parsers keep.
    public subscript(key: String) -> JSONValue? {
        members.last(where: { $0.key == key })?.value
    }

    /// Every key in document order, repeats included.
    public var keys: [String] { members.map(\.key) }

    /// Whether the object has no members.
    public var isEmpty: Bool { members.isEmpty }

    /// Each key mapped to its last value: the object as Apple sees it.
    public var effectiveMembers: [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        result.reserveCapacity(members.count)
        for member in members { result[member.key] = member.value }
        return result
    }

    /// Semantic equality: key order is ignored and each key counts by its last value,
    /// so two copies of a file that differ only in key order are equal.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.effectiveMembers == rhs.effectiveMembers
    }
}
