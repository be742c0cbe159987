import Foundation

/// What `FetchOptions.maxPerHost` counts: the URL's host name and port, as `host:port`.
///
/// The name in the URL, not the server the transfer connects to: `--connect-to` (and `--resolve`)
/// change where a name goes, not which site it is. So every domain of the list is its own host, and
/// Apple's CDN (one name for every domain) is one host; names routed to one server share no limit
/// but `--concurrency`, whoever routed them there chose that server (a loopback benchmark, a staging
/// server: `--concurrency` is the knob for it). docs/scaling.md says why.
enum HostKey {
    /// `host:port` for `url`; the URL itself when it has no recognisable host (such a transfer fails
    /// on its own and needs no grouping).
    static func key(for url: String) -> String {
        guard let (host, port) = hostAndPort(of: url) else { return url }
        return host + ":" + port
    }

    /// The lower-cased host (IPv6 in brackets, as written) and the port (the scheme's default when
    /// none is given) of an absolute http(s) URL. Read on the UTF-8 bytes (every delimiter is ASCII):
    /// it runs on the loop's thread several times per transfer.
    static func hostAndPort(of url: String) -> (String, String)? {
        guard let schemeEnd = schemeSeparator(in: url) else { return nil }
        let bytes = url.utf8
        let scheme = bytes[..<schemeEnd.lowerBound]
        let isHTTP = scheme.count == 4 && zip(scheme, "http".utf8).allSatisfy { $0 | 0x20 == $1 }
        let defaultPort = isHTTP ? "80" : "443"
        var authority = bytes[schemeEnd.upperBound...]
        if let end = authority.firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
            authority = authority[..<end]
        }
        if let at = authority.lastIndex(of: UInt8(ascii: "@")) { authority = authority[authority.index(after: at)...] }
        var host = authority
        var port: Substring.UTF8View?
        if authority.first == UInt8(ascii: "[") {
            guard let close = authority.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            host = authority[...close]
            let rest = authority[authority.index(after: close)...]
            if rest.first == UInt8(ascii: ":"), rest.count > 1 { port = rest.dropFirst() }
        } else if let colon = authority.lastIndex(of: UInt8(ascii: ":")) {
            host = authority[..<colon]
            let given = authority[authority.index(after: colon)...]
            if !given.isEmpty { port = given }
        }
        guard !host.isEmpty else { return nil }
        let hostText = Substring(host)
        let lowered = hostText.utf8.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") || $0 >= 0x80 }
            ? hostText.lowercased() : String(hostText)
        return (lowered, port.map { String(Substring($0)) } ?? defaultPort)
    }

    /// Where the first "://" is, found on the bytes: Foundation's `range(of:)` goes through NSString,
    /// and this runs for every transfer (twice).
    static func schemeSeparator(in url: String) -> Range<String.Index>? {
        let bytes = url.utf8
        var index = bytes.startIndex
        while index != bytes.endIndex {
            if bytes[index] == UInt8(ascii: ":") {
                let second = bytes.index(after: index)
                if second != bytes.endIndex, bytes[second] == UInt8(ascii: "/") {
                    let third = bytes.index(after: second)
                    if third != bytes.endIndex, bytes[third] == UInt8(ascii: "/") { return index..<bytes.index(after: third) }
                }
            }
            index = bytes.index(after: index)
        }
        return nil
    }
}

/// Transfers in flight per `HostKey`, and whether one more may start: the decision
/// `FetchOptions.maxPerHost` makes, kept apart from the loop so it can be tested on its own.
struct HostLimit {
    /// At most this many per host; 0 or less: no limit.
    let limit: Int
    private var inFlight: [String: Int] = [:]

    init(limit: Int) {
        self.limit = limit
    }

    /// Whether a transfer of `host` (a `HostKey`) may start now.
    func hasRoom(_ host: String) -> Bool {
        limit <= 0 || inFlight[host, default: 0] < limit
    }

    mutating func started(_ host: String) {
        inFlight[host, default: 0] += 1
    }

    mutating func finished(_ host: String) {
        let left = inFlight[host, default: 1] - 1
        inFlight[host] = left > 0 ? left : nil
    }

    mutating func removeAll() {
        inFlight.removeAll()
    }
}
