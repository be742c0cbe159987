/// A transfer's passage through a proxy: which proxy, and what it answered the tunnel request with.
public struct ProxyUse: Sendable, Equatable {
    /// `scheme://host:port` (never the credentials).
    public var proxy: String
    /// Where the proxy was set (`--proxy`, `https_proxy`, ...).
    public var source: ProxyRoute.Source
    /// The status the proxy answered the tunnel request (CONNECT) with (CURLINFO_HTTP_CONNECTCODE);
    /// nil when no answer came (or none was asked for: a plain `http://` transfer).
    public var tunnelStatus: Int?

    public init(proxy: String, source: ProxyRoute.Source, tunnelStatus: Int? = nil) {
        self.proxy = proxy
        self.source = source
        self.tunnelStatus = tunnelStatus
    }

    /// True when the proxy answered the tunnel request with an error status: it did not open the
    /// connection to the site (its policy, or the site's name or server it could not reach).
    public var refusedTunnel: Bool {
        guard let tunnelStatus else { return false }
        return !(200...299).contains(tunnelStatus)
    }
}

/// The proxy itself cannot be used: it cannot be resolved or connected to, asks for credentials
/// it was not given (or refuses those it was), or fails its own handshake. Whatever a site is
/// like, every transfer would fail the same way, so the fetch stops and the run ends with status 2
/// rather than blaming each domain. Names the proxy as `shown` (`scheme://host:port`), never its
/// credentials.
public struct ProxyFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// Its host name does not resolve (CURLE_COULDNT_RESOLVE_PROXY).
        case unresolvable
        /// Nothing accepts connections there: refused, no route, nothing listening (CURLE_COULDNT_CONNECT).
        case unreachable
        /// It answered 407 Proxy Authentication Required.
        case authenticationRequired
        /// Its SOCKS handshake failed or it rejected the user (CURLE_PROXY, CURLINFO_PROXY_ERROR).
        case handshake
        /// The TLS connection to an `https://` proxy failed.
        case tls
        /// Its setting cannot be read as a proxy URL.
        case invalid
    }

    /// `scheme://host:port`, or for `.invalid` the text with its credentials masked.
    public var proxy: String
    public var source: ProxyRoute.Source
    public var reason: Reason
    /// True when credentials were given in the proxy URL.
    public var credentialsGiven: Bool
    /// curl's code and text (credentials masked), or the reason a setting cannot be read.
    public var curlCode: Int?
    public var detail: String

    public init(proxy: String, source: ProxyRoute.Source, reason: Reason, credentialsGiven: Bool = false,
                curlCode: Int? = nil, detail: String) {
        self.proxy = proxy
        self.source = source
        self.reason = reason
        self.credentialsGiven = credentialsGiven
        self.curlCode = curlCode
        self.detail = detail
    }

    /// A setting that cannot be read (`ProxyRoute.problem`).
    public init(invalid error: ProxyEndpoint.ParseError, source: ProxyRoute.Source) {
        self.init(proxy: error.shown, source: source, reason: .invalid, detail: error.reason)
    }

    /// The one sentence that says what is wrong with the proxy, cause first.
    public var description: String {
        let named = "the proxy \(proxy) (\(source))"
        let curl = curlCode.map { " (curl error \($0): \(detail))" } ?? ""
        switch reason {
        case .unresolvable: return "\(named) cannot be resolved\(curl)"
        case .unreachable: return "\(named) cannot be connected to: nothing accepts connections there\(curl)"
        case .authenticationRequired:
            return credentialsGiven
                ? "\(named) refused the credentials given in its URL (407 Proxy Authentication Required)"
                : "\(named) asks for credentials (407 Proxy Authentication Required); give them in its URL: scheme://USER:PASSWORD@host:port"
        case .handshake: return "\(named) refused the connection handshake\(curl)"
        case .tls: return "the TLS connection to \(named) failed\(curl)"
        case .invalid: return "\(source) \(proxy) is not a proxy URL libcurl can use: \(detail)"
        }
    }
}
