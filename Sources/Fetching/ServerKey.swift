import Foundation

/// The server a URL's transfer connects to, as `host:port`: what `FetchOptions.maxPerHost` counts.
///
/// The URL's host and port, unless a `--connect-to` entry routes them elsewhere: then its target,
/// so that every name sent to one server shares one limit (the same grouping libcurl uses for
/// CURLMOPT_MAX_HOST_CONNECTIONS). `--resolve` changes an address, not the name, and so not the key.
struct ServerKey {
    /// One `HOST:PORT:CONNECT_HOST:CONNECT_PORT` entry; empty fields match any / keep the original.
    struct Route: Equatable {
        var host: String
        var port: String
        var connectHost: String
        var connectPort: String
    }

    let routes: [Route]

    init(connectTo: [String]) {
        routes = connectTo.compactMap { entry in
            let fields = FetchOptions.splitHostFields(entry)
            guard fields.count == 4 else { return nil }
            return Route(host: fields[0].lowercased(), port: fields[1], connectHost: fields[2].lowercased(), connectPort: fields[3])
        }
    }

    /// `host:port` for `url`; the URL itself when it has no recognisable host (such a transfer fails
    /// on its own and needs no grouping).
    func key(for url: String) -> String {
        guard let (host, port) = Self.hostAndPort(of: url) else { return url }
        // Like curl, the first entry that matches host and port wins.
        for route in routes where (route.host.isEmpty || route.host == host) && (route.port.isEmpty || route.port == port) {
            return (route.connectHost.isEmpty ? host : route.connectHost) + ":" + (route.connectPort.isEmpty ? port : route.connectPort)
        }
        return host + ":" + port
    }

    /// The lower-cased host (IPv6 in brackets, as written) and the port (the scheme's default when
    /// none is given) of an absolute http(s) URL.
    static func hostAndPort(of url: String) -> (String, String)? {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        let scheme = url[..<schemeEnd.lowerBound].lowercased()
        var authority = url[schemeEnd.upperBound...]
        if let end = authority.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { authority = authority[..<end] }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        let defaultPort = scheme == "http" ? "80" : "443"
        var host = authority, port = Substring(defaultPort)
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[...close]
            let rest = authority[authority.index(after: close)...]
            if rest.hasPrefix(":"), rest.count > 1 { port = rest.dropFirst() }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            let given = authority[authority.index(after: colon)...]
            if !given.isEmpty { port = given }
        }
        guard !host.isEmpty else { return nil }
        return (host.lowercased(), String(port))
    }
}
