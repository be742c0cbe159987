import AASA

/// An IP address family.
public enum IPFamily: String, Sendable, Equatable, CaseIterable {
    case ipv4, ipv6

    /// The family of an address as curl prints it ("203.0.113.7", "2001:db8::1"), or nil when empty.
    public init?(address: String) {
        guard !address.isEmpty else { return nil }
        self = ASCIISearch.contains(":", in: address) ? .ipv6 : .ipv4
    }

    /// The other family.
    public var other: IPFamily { self == .ipv4 ? .ipv6 : .ipv4 }

    /// "IPv4", "IPv6".
    public var name: String { self == .ipv4 ? "IPv4" : "IPv6" }
}

/// Which address families the transfers use (`--ip-families`).
public enum AddressFamilies: Sendable, Equatable {
    /// Either family, as curl picks (happy eyeballs); `.well-known` is fetched again over the family
    /// its first fetch did not use, so a name whose two families serve differently is seen.
    case compare
    /// Either family, as curl picks, and no second fetch.
    case any
    /// Every transfer over this family only (CURLOPT_IPRESOLVE).
    case only(IPFamily)

    /// The family every transfer is held to, if any.
    var forced: IPFamily? {
        if case .only(let family) = self { return family }
        return nil
    }
}
