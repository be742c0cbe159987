/// Which proxy, if any, each transfer goes through: decided here as libcurl decides it, and handed
/// to libcurl for every transfer (CURLOPT_PROXY, CURLOPT_NOPROXY), so that a transfer knows whether it
/// went through a proxy (libcurl 7.88 cannot say so afterwards) and libcurl reads no variable itself.
///
/// libcurl's rules (lib/url.c, lib/noproxy.c), followed here:
/// - `--proxy URL` (CURLOPT_PROXY) wins over every variable; `--proxy ""` means no proxy at all.
/// - Otherwise, for an `https://` URL `https_proxy`, then `HTTPS_PROXY`; for an `http://` URL only
///   `http_proxy` (libcurl never reads `HTTP_PROXY`: a CGI program gets it from a request's
///   `Proxy:` header); then `all_proxy`, then `ALL_PROXY`. The lower-case name is read first; a
///   variable set to the empty string counts as unset.
/// - `--noproxy LIST` (CURLOPT_NOPROXY) wins over `no_proxy`, then `NO_PROXY`, and applies to the
///   proxy of `--proxy` too: `*` alone bypasses every host; otherwise names separated by commas (or
///   blanks, as libcurl 7.88 still accepts), each matching the host itself and every name under it
///   (`example.com` and `.example.com` both match `www.example.com`, not `notexample.com`), case
///   insensitively, a trailing dot ignored; an IP address matches the URL's address, with `/BITS`
///   a whole network.
public struct ProxyRoute: Sendable, Equatable {
    /// Where a proxy setting came from, for the messages that name it.
    public enum Source: Sendable, Equatable, CustomStringConvertible {
        /// `--proxy`.
        case option
        /// An environment variable, by name.
        case environment(String)

        public var description: String {
            switch self {
            case .option: return "--proxy"
            case .environment(let name): return name
            }
        }
    }

    /// One proxy setting: where it came from and what it says.
    public struct Setting: Sendable, Equatable {
        public var source: Source
        /// The proxy, or why its text cannot be used.
        public var endpoint: Result<ProxyEndpoint, ProxyEndpoint.ParseError>
    }

    /// The proxy of `https://` URLs and of `http://` URLs (nil: none).
    public var https: Setting?
    public var http: Setting?
    /// The hosts reached directly.
    public var noProxy: NoProxyList

    /// No proxy for any transfer.
    public static let direct = ProxyRoute(https: nil, http: nil, noProxy: NoProxyList(""))

    init(https: Setting?, http: Setting?, noProxy: NoProxyList) {
        self.https = https
        self.http = http
        self.noProxy = noProxy
    }

    /// The route `--proxy` (nil when not given) and `--noproxy` ask for, with `environment`'s
    /// variables where the options say nothing (see the type's rules).
    public init(proxy: String?, noProxy: String?, environment: [String: String]) {
        func variable(_ names: String...) -> (String, String)? {
            for name in names {
                if let value = environment[name], !value.isEmpty { return (name, value) }
            }
            return nil
        }
        func parsed(_ text: String) -> Result<ProxyEndpoint, ProxyEndpoint.ParseError> {
            do { return .success(try ProxyEndpoint.parse(text)) } catch { return .failure(error) }
        }
        func setting(_ found: (String, String)?) -> Setting? {
            found.map { name, value in Setting(source: .environment(name), endpoint: parsed(value)) }
        }
        if let proxy {
            let given = proxy.isEmpty ? nil : Setting(source: .option, endpoint: parsed(proxy))
            https = given
            http = given
        } else {
            https = setting(variable("https_proxy", "HTTPS_PROXY") ?? variable("all_proxy", "ALL_PROXY"))
            http = setting(variable("http_proxy") ?? variable("all_proxy", "ALL_PROXY"))
        }
        self.noProxy = NoProxyList(noProxy ?? variable("no_proxy", "NO_PROXY")?.1 ?? "")
    }

    /// The first setting whose text cannot be used (the `https://` one first): the run cannot start.
    public var problem: (source: Source, error: ProxyEndpoint.ParseError)? {
        for setting in [https, http].compactMap({ $0 }) {
            if case .failure(let error) = setting.endpoint { return (setting.source, error) }
        }
        return nil
    }

    /// True when some transfer may go through a proxy.
    public var usesProxy: Bool { https != nil || http != nil }

    /// The proxy a transfer to `url` goes through, and where it was set; nil: straight to the host.
    public func proxy(for url: String) -> (endpoint: ProxyEndpoint, source: Source)? {
        let lowered = url.prefix(8).lowercased()
        let setting = lowered.hasPrefix("https://") ? https : lowered.hasPrefix("http://") ? http : nil
        guard let setting, case .success(let endpoint) = setting.endpoint else { return nil }
        if let (host, _) = HostKey.hostAndPort(of: url), noProxy.bypasses(host) { return nil }
        return (endpoint, setting.source)
    }

    /// What report.json and the console may say of the route: the proxy of `https://` URLs
    /// (`scheme://host:port`, never the credentials) and where it was set; nil without one.
    public var shown: (proxy: String, source: Source)? {
        guard let https, case .success(let endpoint) = https.endpoint else { return nil }
        return (endpoint.shown, https.source)
    }
}

/// curl's no-proxy list (`--noproxy`, `no_proxy`): the hosts reached without the proxy.
public struct NoProxyList: Sendable, Equatable {
    /// The list as given.
    public let text: String

    public init(_ text: String) {
        self.text = text
    }

    /// The patterns: split on commas and blanks, empty ones dropped.
    var patterns: [Substring] {
        text.split { $0 == "," || $0 == " " || $0 == "\t" }
    }

    /// True when a transfer to `host` (a name, an IPv4 address, or an IPv6 address with or without
    /// brackets) goes straight to it.
    public func bypasses(_ host: String) -> Bool {
        guard !host.isEmpty, !text.isEmpty else { return false }
        if text == "*" { return true }
        var name = Substring(host)
        if name.hasPrefix("["), name.hasSuffix("]") { name = name.dropFirst().dropLast() }
        if let address = IPAddressBytes(String(name)) {
            return patterns.contains { pattern in
                let parts = pattern.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
                guard let network = IPAddressBytes(String(parts[0])), network.count == address.count else { return false }
                var bits = address.count * 8
                if parts.count == 2 {
                    // libcurl: no number or 0 is the whole address; more bits than the address has never match.
                    guard let given = Int(parts[1]), given >= 0, given <= address.count * 8 else { return false }
                    if given > 0 { bits = given }
                }
                return address.matches(network, bits: bits)
            }
        }
        if name.hasSuffix(".") { name = name.dropLast() }
        let lowered = name.lowercased()
        return patterns.contains { pattern in
            var token = Substring(pattern.lowercased())
            if token.hasSuffix(".") { token = token.dropLast() }
            if token.hasPrefix(".") { token = token.dropFirst() }
            guard !token.isEmpty else { return false }
            return lowered == token || lowered.hasSuffix("." + token)
        }
    }
}

/// An IP address's bytes in network order (4 or 16), read by inet_pton.
struct IPAddressBytes: Equatable {
    let bytes: [UInt8]
    var count: Int { bytes.count }

    init?(_ text: String) {
        guard let bytes = AddressScope.bytes(of: text) else { return nil }
        self.bytes = bytes
    }

    /// True when the first `bits` bits of the two addresses are the same.
    func matches(_ other: IPAddressBytes, bits: Int) -> Bool {
        let whole = bits / 8, rest = bits % 8
        guard bytes.prefix(whole) == other.bytes.prefix(whole) else { return false }
        guard rest > 0, whole < bytes.count else { return true }
        let mask = UInt8(0xFF << (8 - rest) & 0xFF)
        return bytes[whole] & mask == other.bytes[whole] & mask
    }
}
