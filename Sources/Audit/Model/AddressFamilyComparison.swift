import Fetching
import Foundation

/// `.well-known` fetched over each address family of the name (`AddressFamilyCheck`).
public struct AddressFamilyComparison: Sendable, Equatable, Codable {
    /// The first fetch's family first, then the other.
    public var families: [FamilyOutcome]
    /// True when both answered alike: no error, the same status and the same body.
    public var same: Bool

    public init(families: [FamilyOutcome], same: Bool) {
        self.families = families
        self.same = same
    }
}

/// What `.well-known` answered over one address family.
public struct FamilyOutcome: Sendable, Equatable, Codable {
    /// "ipv4" or "ipv6".
    public var family: String
    /// The address connected to, when a connection was made.
    public var address: String?
    public var status: Int?
    /// Body bytes after decoding.
    public var bodyBytes: Int
    /// curl's error text, when the transfer failed.
    public var error: String?

    public init(family: String, address: String?, status: Int?, bodyBytes: Int, error: String?) {
        self.family = family
        self.address = address
        self.status = status
        self.bodyBytes = bodyBytes
        self.error = error
    }

    init(_ response: FetchResponse, family: IPFamily) {
        self.init(family: family.rawValue, address: response.primaryAddress ?? response.addresses.last, status: response.status,
                  bodyBytes: response.body.count, error: response.error?.message)
    }

    /// "(127.0.0.1) it answered 200 with 412 bytes", "(::1) it failed: Connection timed out".
    var text: String {
        let at = address.map { "(\($0)) " } ?? ""
        if let error { return "\(at)it failed: \(error)" }
        guard let status else { return "\(at)no response came" }
        return "\(at)it answered \(status) with \(bodyBytes) byte\(bodyBytes == 1 ? "" : "s")"
    }
}
