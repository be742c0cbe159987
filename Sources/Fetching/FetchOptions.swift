import Foundation

/// How transfers are made: limits, trust and routing. Shared by every transfer of a run.
public struct FetchOptions: Sendable, Equatable {
    /// The User-Agent header sent with every request.
    public var userAgent: String
    /// A PEM bundle of CA certificates to trust instead of the system store.
    public var caFile: String?
    /// curl-style `HOST:PORT:CONNECT_HOST:CONNECT_PORT` entries (CURLOPT_CONNECT_TO).
    public var connectTo: [String]
    /// curl-style `HOST:PORT:ADDR[,ADDR]` entries (CURLOPT_RESOLVE).
    public var resolve: [String]
    /// Seconds allowed to connect (TCP and TLS).
    public var connectTimeout: Double
    /// Seconds allowed for a whole transfer.
    public var totalTimeout: Double
    /// Body bytes kept (after decoding); reading stops beyond this.
    public var maxBytes: Int
    /// A transfer slower than `lowSpeedLimit` bytes/s for `lowSpeedTime` seconds is given up on.
    public var lowSpeedLimit: Int
    public var lowSpeedTime: Int
    /// Transfers in flight at once.
    public var concurrency: Int
    /// Redirect hops followed for diagnosis (never for the verdict).
    public var maxRedirectHops: Int
    /// The base URL of Apple's CDN (`https://app-site-association.cdn-apple.com/a/v1/`); the domain is
    /// appended. Nil: the CDN copy is not fetched. `connectTo` and `resolve` apply to its host too.
    public var appleCDNBase: String?
    /// The User-Agent of Apple's crawler; when set, the file is fetched a second time with it.
    /// Nil: no crawler fetch.
    public var crawlerUserAgent: String?
    /// The base URL of Google's Digital Asset Links API (`https://digitalassetlinks.googleapis.com`,
    /// no trailing "/"). When set, each domain whose assetlinks.json is fetched also gets Google's
    /// `statements:list` answer for it (`SiteFetch.googleDAL`). The user's address, like the CDN's: not
    /// held to public addresses; proxies, `connectTo` and `resolve` apply. Nil: not asked.
    public var googleDALBase: String?
    /// Transfers in flight at once to one host name and port of a URL (0: no limit): each domain of
    /// the list, and Apple's CDN (one name for all). Counted by the URL's name, not by where
    /// `connectTo` routes it (`HostKey`): names routed to one server are held only by `concurrency`.
    /// Transfers over the limit wait in the loop; a domain's next transfer goes first, on the
    /// connection its previous one left. Idle kept-alive connections are bounded by curl's connection
    /// cache, not by this.
    public var maxPerHost: Int = FetchOptions.defaultMaxPerHost
    /// When `.well-known`'s connection multiplexes (HTTP/2), the root location and the crawler's
    /// repeat are sent on it as soon as it is up, not one after the other (docs/scaling.md: at 50 ms
    /// round trips this is two round trips fewer per domain). False: always one after the other.
    public var multiplexesLocations = true
    /// Which domains also get `/.well-known/assetlinks.json` fetched (Android App Links), on the
    /// connection of their Apple fetches.
    public var assetLinks: AssetLinksSelection = .none
    /// Domains (ASCII) that devices read straight from the origin only: every reason to audit them is an
    /// entitlement entry with `?mode=`. Neither Apple's CDN copy nor the crawler's fetch is made for them.
    public var originOnly: Set<String> = []
    /// Which proxy each transfer goes through (`--proxy`, `--noproxy`, the proxy variables), as
    /// libcurl would choose; `.direct` (the default here) reads no variable. The command line gives
    /// `ProxyRoute(proxy:noProxy:environment:)`.
    public var proxy: ProxyRoute = .direct

    /// Which address families transfers use, and whether `.well-known` is compared over both
    /// (the audit's `--ip-families`, `both` by default there). Default: either, no comparison.
    public var addressFamilies: AddressFamilies = .any

    /// A small default, so that one site (and Apple's CDN, one name for every domain) is not hammered.
    public static let defaultMaxPerHost = 6

    public init(
        userAgent: String, caFile: String? = nil, connectTo: [String] = [], resolve: [String] = [],
        connectTimeout: Double = 5, totalTimeout: Double = 10, maxBytes: Int = 1 << 20,
        lowSpeedLimit: Int = 100, lowSpeedTime: Int = 5, concurrency: Int = 64, maxRedirectHops: Int = 5,
        appleCDNBase: String? = nil, crawlerUserAgent: String? = nil
    ) {
        self.userAgent = userAgent
        self.caFile = caFile
        self.connectTo = connectTo
        self.resolve = resolve
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.maxBytes = maxBytes
        self.lowSpeedLimit = lowSpeedLimit
        self.lowSpeedTime = lowSpeedTime
        self.concurrency = concurrency
        self.maxRedirectHops = maxRedirectHops
        self.appleCDNBase = appleCDNBase
        self.crawlerUserAgent = crawlerUserAgent
    }
}

/// One transfer to make.
public struct FetchRequest: Sendable, Equatable {
    /// How the transfer treats TLS and the body.
    public enum Mode: Sendable, Equatable {
        /// A normal verifying GET, redirects not followed.
        case verifying
        /// A non-verifying HEAD, made only to read the certificate of a failed handshake.
        case certificateProbe
    }
    public var url: String
    public var mode: Mode
    /// Sent instead of `FetchOptions.userAgent` when set (the crawler's fetch).
    public var userAgent: String?
    /// True for a URL the user did not point the tool at (a redirect target followed for diagnosis):
    /// the transfer connects only to public addresses (`AddressScope`), unless `--connect-to` or
    /// `--resolve` routes its host, which says the user wants to go there.
    public var publicAddressesOnly: Bool
    /// Connect over this address family only (CURLOPT_IPRESOLVE); nil: as `FetchOptions.addressFamilies` says.
    public var ipFamily: IPFamily?

    public init(url: String, mode: Mode = .verifying, userAgent: String? = nil, publicAddressesOnly: Bool = false,
                ipFamily: IPFamily? = nil) {
        self.url = url
        self.ipFamily = ipFamily
        self.mode = mode
        self.userAgent = userAgent
        self.publicAddressesOnly = publicAddressesOnly
    }
}

extension FetchOptions {
    /// True when the first `connectTo` entry that applies to `host` and `port` (as curl takes the
    /// first) sends the connection to an IP address: then every transfer to that name reaches that
    /// one address, over its one family, whatever CURLOPT_IPRESOLVE asks.
    public func connectsToAddress(host: String, port: String) -> Bool {
        let host = host.lowercased()
        for entry in connectTo {
            let fields = Self.splitHostFields(entry)
            guard fields.count >= 4 else { continue }
            let named = fields[0].lowercased()
            guard named.isEmpty || named == host, fields[1].isEmpty || fields[1] == port else { continue }
            return AddressScope(text: fields[2]) != nil
        }
        return false
    }

    /// The fields of curl's `HOST:PORT:...` syntax (`--connect-to`, `--resolve`): split on ':' outside
    /// [brackets], so IPv6 addresses can be given as [::1]. On the bytes, as curl splits them (and a
    /// walk over the characters cost more than the rest of a domain's plan: this runs once per domain).
    public static func splitHostFields(_ text: String) -> [String] {
        var fields: [String] = [], depth = 0
        let bytes = Array(text.utf8)
        var start = 0
        for (offset, byte) in bytes.enumerated() {
            if byte == UInt8(ascii: "[") { depth += 1 }
            if byte == UInt8(ascii: "]") { depth -= 1 }
            if byte == UInt8(ascii: ":") && depth == 0 {
                fields.append(String(decoding: bytes[start..<offset], as: UTF8.self))
                start = offset + 1
            }
        }
        fields.append(String(decoding: bytes[start...], as: UTF8.self))
        return fields
    }
}

/// Which domains of a run get their Android `assetlinks.json` fetched.
public enum AssetLinksSelection: Sendable, Equatable {
    /// None.
    case none
    /// Every domain (`--android`).
    case all
    /// These domains (ASCII names): those with Android expectations in the domain list.
    case domains(Set<String>)

    /// Whether `domain` gets its assetlinks.json fetched.
    public func includes(_ domain: String) -> Bool {
        switch self {
        case .none: return false
        case .all: return true
        case .domains(let names): return names.contains(domain)
        }
    }
}
