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
    /// none is given) of an absolute http(s) URL. Read on the UTF-8 bytes by offset (every delimiter is
    /// ASCII): it runs on the loop's thread twice per transfer, and the string index walk it replaced
    /// cost about 3,600 instructions a URL.
    static func hostAndPort(of url: String) -> (String, String)? {
        var url = url
        return url.withUTF8 { hostAndPort(bytes: $0) }
    }

    private static func hostAndPort(bytes: UnsafeBufferPointer<UInt8>) -> (String, String)? {
        guard let colon = schemeSeparator(in: bytes) else { return nil }
        let isHTTP = colon == 4 && zip(bytes[0..<4], "http".utf8).allSatisfy { $0 | 0x20 == $1 }
        let defaultPort = isHTTP ? "80" : "443"
        // The authority: after "://", up to the path, query or fragment, after any user information.
        var start = colon + 3
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "/"), bytes[end] != UInt8(ascii: "?"), bytes[end] != UInt8(ascii: "#") {
            end += 1
        }
        if let at = (start..<end).last(where: { bytes[$0] == UInt8(ascii: "@") }) { start = at + 1 }
        var hostEnd = end
        var port: Range<Int>?
        if start < end, bytes[start] == UInt8(ascii: "[") {
            guard let close = (start..<end).first(where: { bytes[$0] == UInt8(ascii: "]") }) else { return nil }
            hostEnd = close + 1
            if hostEnd < end, bytes[hostEnd] == UInt8(ascii: ":"), end - hostEnd > 1 { port = (hostEnd + 1)..<end }
        } else if let separator = (start..<end).last(where: { bytes[$0] == UInt8(ascii: ":") }) {
            hostEnd = separator
            if separator + 1 < end { port = (separator + 1)..<end }
        }
        guard hostEnd > start else { return nil }
        let host = UnsafeBufferPointer(rebasing: bytes[start..<hostEnd])
        let text = String(decoding: host, as: UTF8.self)
        let lowered = host.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") || $0 >= 0x80 } ? text.lowercased() : text
        return (lowered, port.map { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self) } ?? defaultPort)
    }

    /// The offset of the first "://" (its colon).
    static func schemeSeparator(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        while index + 2 < bytes.count {
            if bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == UInt8(ascii: "/"), bytes[index + 2] == UInt8(ascii: "/") { return index }
            index += 1
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
