import Foundation

/// What one HTTP transfer produced: plain facts, no verdicts.
public struct FetchResponse: Sendable, Equatable {
    /// The URL that was requested.
    public var url: String
    /// The HTTP status, or nil when no response arrived.
    public var status: Int?
    /// Response headers of the final response, names lower-cased, in arrival order.
    public var headers: [HTTPHeader]
    /// The decoded body, cut at the byte cap.
    public var body: Data
    /// Byte counts of the body.
    public var bytes: ByteCounts
    /// The absolute redirect target curl computed from `Location`, when the response is a redirect.
    public var redirectURL: String?
    /// TLS facts of the connection, when a TLS handshake was attempted.
    public var tls: TLSFacts?
    /// Where the time went.
    public var timings: Timings
    /// Why the transfer failed, when it did (a cut body is not a failure).
    public var error: TransferError?
    /// The IP addresses curl tried to connect to, in order (at most 16): those DNS gave, or the
    /// ones `--connect-to` / `--resolve` named. Empty when a kept-alive connection was reused, and
    /// through a proxy (`proxy`): the proxy resolves the name, and its own address is not the site's.
    public var addresses: [String]
    /// True when `--connect-to` or `--resolve` routes this URL's host: the user chose the server.
    public var routed: Bool
    /// The address of the connection the transfer used (CURLINFO_PRIMARY_IP); nil when none was made.
    public var primaryAddress: String?
    /// The proxy the transfer went through, and what it answered; nil: straight to the site.
    public var proxy: ProxyUse?
    /// Set when the proxy itself could not be used: the transfer says nothing about the site, and
    /// the fetch stops (`SiteFetcher` throws it).
    public var proxyFailure: ProxyFailure?

    public init(
        url: String, status: Int? = nil, headers: [HTTPHeader] = [], body: Data = Data(),
        bytes: ByteCounts = ByteCounts(), redirectURL: String? = nil, tls: TLSFacts? = nil,
        timings: Timings = Timings(), error: TransferError? = nil, addresses: [String] = [], routed: Bool = false,
        primaryAddress: String? = nil, proxy: ProxyUse? = nil, proxyFailure: ProxyFailure? = nil
    ) {
        self.primaryAddress = primaryAddress
        self.proxy = proxy
        self.proxyFailure = proxyFailure
        self.addresses = addresses
        self.routed = routed
        self.url = url
        self.status = status
        self.headers = headers
        self.body = body
        self.bytes = bytes
        self.redirectURL = redirectURL
        self.tls = tls
        self.timings = timings
        self.error = error
    }

    /// The value of the first header with this name (case-insensitive), if any.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name == wanted }?.value
    }
}
