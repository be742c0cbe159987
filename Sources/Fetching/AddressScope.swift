import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where an IP address leads: the public internet, or a place only this machine or its own network
/// reaches (loopback, private ranges, link-local, cloud metadata at 169.254.169.254, multicast,
/// reserved blocks). Apple's CDN fetches only from public addresses ("Connections to private/reserved
/// IP addresses are not allowed"), and a redirect followed for diagnosis must not reach the others.
public enum AddressScope: String, Sendable, Equatable, Codable {
    case `public`, loopback, `private`, linkLocal, uniqueLocal, sharedCGNAT, multicast, reserved

    /// True for every scope but `.public`.
    public var isRestricted: Bool { self != .public }

    /// Words for a sentence: "a loopback address".
    public var description: String {
        switch self {
        case .public: return "a public address"
        case .loopback: return "a loopback address"
        case .private: return "a private address (RFC 1918)"
        case .linkLocal: return "a link-local address (cloud metadata services live there)"
        case .uniqueLocal: return "a unique-local IPv6 address (RFC 4193)"
        case .sharedCGNAT: return "a carrier-grade NAT address (100.64.0.0/10)"
        case .multicast: return "a multicast address"
        case .reserved: return "a reserved address"
        }
    }

    /// The scope of an address in text form ("10.0.0.1", "::1", "[fe80::1]"); nil when it is not one.
    public init?(text: String) {
        guard let bytes = Self.bytes(of: text) else { return nil }
        self = bytes.count == 4 ? Self(ipv4: bytes) : Self(ipv6: bytes)
    }

    /// The bytes (4 or 16, network order) of an address in text form, brackets and a zone id
    /// allowed; nil when the text is not an address.
    static func bytes(of text: String) -> [UInt8]? {
        var text = text
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        if let percent = text.firstIndex(of: "%") { text = String(text[..<percent]) }  // zone id
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: v6) { Array($0) } }
        return nil
    }

    /// The scope of an IPv4 address in network byte order (4 bytes).
    public init(ipv4 b: [UInt8]) {
        guard b.count == 4 else { self = .reserved; return }
        switch (b[0], b[1]) {
        case (127, _): self = .loopback
        case (10, _), (172, 16...31), (192, 168): self = .private
        case (169, 254): self = .linkLocal
        case (100, 64...127): self = .sharedCGNAT
        case (224...239, _): self = .multicast
        // 0/8 "this network", 192.0.0/24 protocol assignments, the documentation nets, 198.18/15
        // benchmarking, 240/4 future use and the broadcast address.
        case (0, _), (240...255, _), (198, 18...19): self = .reserved
        case (192, 0) where b[2] == 0 || b[2] == 2: self = .reserved
        case (198, 51) where b[2] == 100: self = .reserved
        case (203, 0) where b[2] == 113: self = .reserved
        default: self = .public
        }
    }

    /// The scope of an IPv6 address in network byte order (16 bytes); IPv4-mapped and NAT64
    /// addresses are judged by the IPv4 address inside.
    public init(ipv6 b: [UInt8]) {
        guard b.count == 16 else { self = .reserved; return }
        let zeroPrefix = b[0..<10].allSatisfy { $0 == 0 }
        if zeroPrefix && b[10] == 0xFF && b[11] == 0xFF { self = Self(ipv4: Array(b[12..<16])); return }  // ::ffff:a.b.c.d
        if b[0..<12].allSatisfy({ $0 == 0 }) {
            // :: (unspecified), ::1 (loopback), and the deprecated IPv4-compatible ::a.b.c.d.
            self = b[15] == 1 && b[12..<15].allSatisfy({ $0 == 0 }) ? .loopback : .reserved
            return
        }
        if b[0] == 0x00, b[1] == 0x64, b[2] == 0xFF, b[3] == 0x9B, b[4..<12].allSatisfy({ $0 == 0 }) {
            self = Self(ipv4: Array(b[12..<16]))  // 64:ff9b::/96 NAT64
            return
        }
        if b[0] == 0x20, b[1] == 0x02 {
            let inner = Self(ipv4: Array(b[2..<6]))  // 2002::/16 6to4
            if inner.isRestricted { self = inner; return }
        }
        switch b[0] {
        case 0xFF: self = .multicast
        case 0xFC, 0xFD: self = .uniqueLocal
        case 0xFE where b[1] & 0xC0 == 0x80: self = .linkLocal
        case 0xFE where b[1] & 0xC0 == 0xC0: self = .reserved  // fec0::/10, deprecated site-local
        default:
            // 2001:db8::/32 documentation; 100::/64 discard; everything outside 2000::/3 is unassigned.
            if b[0] == 0x20, b[1] == 0x01, b[2] == 0x0D, b[3] == 0xB8 { self = .reserved }
            else if b[0] == 0x01, b[1] == 0x00, b[2..<8].allSatisfy({ $0 == 0 }) { self = .reserved }
            else if b[0] & 0xE0 != 0x20 { self = .reserved }
            else { self = .public }
        }
    }
}
