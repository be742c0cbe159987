import Foundation

/// A service an Associated Domains entry names (`applinks:`, `webcredentials:` ...), and what it asks of the
/// domain's file.
public enum AssociatedDomainService: String, Sendable, Codable, CaseIterable {
    /// Universal links: the app must have an `applinks.details` entry.
    case applinks
    /// Shared web credentials: the app must be in `webcredentials.apps`.
    case webcredentials
    /// An App Clip: it must be in `appclips.apps`.
    case appclips
    /// Handoff: the app must be in `activitycontinuation.apps`.
    case activitycontinuation

    /// What the service must find in the file, for messages (`an applinks details entry`).
    public var requirement: String {
        switch self {
        case .applinks: return "an applinks details entry"
        default: return "a place in \(rawValue).apps"
        }
    }
}

/// An entry's alternate mode (`?mode=developer`, `?mode=managed`, `?mode=developer+managed`): the device
/// fetches the file straight from the origin instead of Apple's CDN, and only on some devices.
public enum AssociatedDomainMode: String, Sendable, Codable, CaseIterable {
    case developer
    case managed
    case developerManaged = "developer+managed"

    /// Which devices use an entry in this mode, as a sentence fragment.
    public var devices: String {
        switch self {
        case .developer: return "only on devices in developer mode with Associated Domains Development turned on, for a development-signed app"
        case .managed: return "only on devices managed by an MDM that allows it (AssociatedDomainsEnableDirectDownloads on iOS, EnableDirectDownloads on macOS)"
        case .developerManaged: return "only on devices both in developer mode (Associated Domains Development turned on, for a development-signed app) and managed by an MDM that allows it"
        }
    }

    /// True for the modes only development devices use: `developer`, and `developer+managed`, which Apple's
    /// Xcode documentation says is "accessible only from devices that are in both developer and managed
    /// modes" (*Configuring an associated domain*); developer mode takes a development-signed app.
    /// `managed` alone serves release builds on MDM-managed devices.
    public var isDevelopmentOnly: Bool { self != .managed }
}

/// One entry of an app's `com.apple.developer.associated-domains` entitlement, checked:
/// `service:host[?mode=...]`, the host optionally `*.`-prefixed. Pure.
public struct AssociatedDomainEntry: Sendable, Equatable, Codable {
    /// The entry as written.
    public var text: String
    /// Its 0-based index in the entitlement's array.
    public var index: Int
    public var service: AssociatedDomainService
    /// The host in ASCII (Punycode) form, without `*.`.
    public var host: String
    /// The host's Unicode form, when it differs.
    public var unicodeHost: String?
    /// `*.host`: the entry matches every subdomain of `host`, not `host` itself.
    public var wildcard: Bool
    /// `?mode=...`, or nil for an entry the device reads through Apple's CDN.
    public var mode: AssociatedDomainMode?

    public init(text: String, index: Int, service: AssociatedDomainService, host: String, unicodeHost: String? = nil,
                wildcard: Bool = false, mode: AssociatedDomainMode? = nil) {
        self.text = text
        self.index = index
        self.service = service
        self.host = host
        self.unicodeHost = unicodeHost
        self.wildcard = wildcard
        self.mode = mode
    }

    /// The host pattern as the entry names it: `*.example.com` or `www.example.com`.
    public var pattern: String { wildcard ? "*." + host : host }

    /// The host whose file Apple reads for this entry. For `*.example.com` it is `example.com`'s
    /// (TN3155: a wildcard entry is served by the file at the root domain), which is also why an explicit
    /// `applinks:www.example.com` needs a file of its own.
    public var fileHost: String { host }

    /// What makes an entry the same as another (a duplicate): service, host pattern and mode.
    public var identity: String { "\(service.rawValue):\(pattern)?\(mode?.rawValue ?? "")" }

    /// Whether the entry covers URLs on `urlHost` (ASCII): the host itself, or for a wildcard any
    /// subdomain of it but not the host itself.
    public func covers(_ urlHost: String) -> Bool {
        let host = urlHost.lowercased()
        return wildcard ? host.hasSuffix("." + self.host) : host == self.host
    }

    /// Parses entry `index` of the entitlement.
    public static func parse(_ text: String, index: Int) throws(AssociatedDomainEntryError) -> AssociatedDomainEntry {
        func fail(_ reason: String) -> AssociatedDomainEntryError { AssociatedDomainEntryError(text: text, index: index, reason: reason) }
        let services = AssociatedDomainService.allCases.map(\.rawValue).joined(separator: ", ")
        guard !text.isEmpty else { throw fail("the entry is empty; write service:host, e.g. applinks:example.com") }
        if text.contains(where: { $0.isWhitespace }) {
            throw fail("it contains white space; an entry is service:host with no spaces, e.g. applinks:example.com")
        }
        guard let colon = text.firstIndex(of: ":") else {
            throw fail("no service; write service:host (services: \(services)), e.g. applinks:\(text)")
        }
        let serviceName = String(text[..<colon])
        guard let service = AssociatedDomainService(rawValue: serviceName) else {
            let near = AssociatedDomainService.allCases.first { $0.rawValue == serviceName.lowercased() }
            throw fail("unknown service \"\(serviceName)\"" + (near.map { "; services are lower-case: \($0.rawValue)" } ?? "; the services are \(services)"))
        }
        var rest = Substring(text[text.index(after: colon)...])
        if rest.hasPrefix("//") || rest.lowercased().hasPrefix("https:") || rest.lowercased().hasPrefix("http:") {
            throw fail("it is a URL; the entry names a host only, e.g. \(serviceName):example.com")
        }
        var mode: AssociatedDomainMode?
        if let question = rest.firstIndex(of: "?") {
            let query = String(rest[rest.index(after: question)...])
            rest = rest[..<question]
            guard query.hasPrefix("mode=") else {
                throw fail("\"?\(query)\" is not an alternate mode; the only query an entry takes is ?mode=developer, ?mode=managed or ?mode=developer+managed")
            }
            let value = String(query.dropFirst("mode=".count))
            guard let parsed = AssociatedDomainMode(rawValue: value) else {
                throw fail("unknown mode \"\(value)\"; the modes are developer, managed and developer+managed")
            }
            mode = parsed
        }
        if rest.contains("/") {
            throw fail("it has a path; the entry names a host only (Apple reads the file at the host's /.well-known/), e.g. \(serviceName):\(rest.prefix { $0 != "/" })")
        }
        if rest.contains("#") { throw fail("it has a fragment; the entry names a host only") }
        if rest.hasPrefix("[") {
            throw fail("the host \(rest) is an IP address, not a domain name: Apple matches associated domains by host name")
        }
        if let colon = rest.firstIndex(of: ":") {
            let before = rest[..<colon], after = rest[rest.index(after: colon)...]
            if !after.isEmpty && after.allSatisfy({ $0.isASCII && $0.isNumber }) {
                throw fail("it has a port (\(after)); Apple fetches the file over HTTPS on port 443 and an entry names a host only")
            }
            if AssociatedDomainService(rawValue: before.lowercased()) != nil {
                throw fail("it names the service twice; write \(serviceName):\(after)")
            }
            throw fail("it has a \":\" after the host (\(before)); an entry is service:host with one \":\", e.g. \(serviceName):\(before)")
        }
        var wildcard = false
        if rest.hasPrefix("*.") {
            wildcard = true
            rest = rest.dropFirst(2)
            if service == .appclips { throw fail("appclips entries take no *. wildcard (Apple allows it for the other services only)") }
        }
        if rest.contains("*") { throw fail("\"*\" is allowed only as a leading \"*.\" (every subdomain)") }
        guard !rest.isEmpty else { throw fail("the host is empty; write \(serviceName):example.com") }
        let name: DomainName
        do {
            name = try DomainName.parse(String(rest)).name
        } catch {
            throw fail("the host \(rest) is not a domain name: \(error.description)")
        }
        return AssociatedDomainEntry(text: text, index: index, service: service, host: name.ascii,
                                     unicodeHost: name.isInternationalized ? name.unicode : nil, wildcard: wildcard, mode: mode)
    }
}

/// An entry of the Associated Domains entitlement that cannot be used: what, which, why.
public struct AssociatedDomainEntryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The entry as written.
    public var text: String
    /// Its 0-based index in the entitlement's array.
    public var index: Int
    public var reason: String

    public init(text: String, index: Int, reason: String) {
        self.text = text
        self.index = index
        self.reason = reason
    }

    public var description: String { "com.apple.developer.associated-domains[\(index)] \"\(text)\": \(reason)" }
}
