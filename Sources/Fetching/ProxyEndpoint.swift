/// A proxy as written in `--proxy` or an environment variable (curl's syntax: `[SCHEME://][USER:PASSWORD@]HOST[:PORT]`),
/// read the way libcurl reads it: no scheme is `http://`, no port is 1080 (443 for `https://`).
///
/// What is shown of it anywhere (console, reports, errors) is `shown`, `scheme://host:port`: never
/// the credentials. Only `curlText` carries them, and it goes to libcurl alone.
public struct ProxyEndpoint: Sendable, Equatable {
    /// The proxy protocols libcurl speaks.
    public enum Scheme: String, Sendable, CaseIterable {
        case http, https, socks4, socks4a, socks5, socks5h
    }

    public var scheme: Scheme
    /// The host as written (lower-cased; an IPv6 address in brackets).
    public var host: String
    public var port: Int
    /// True when the text held `USER[:PASSWORD]@`.
    public var hasCredentials: Bool
    /// The text handed to libcurl (CURLOPT_PROXY), credentials and all. Never shown.
    let curlText: String
    /// The parts of the credentials as written, to be masked in any text that might repeat them.
    let secrets: [String]

    /// `scheme://host:port`: the proxy as every output names it.
    public var shown: String { "\(scheme.rawValue)://\(host):\(port)" }

    /// Why a proxy text cannot be used. The text itself is never kept: `shown` is the masked form.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The text as it may be shown (credentials masked, `ProxyEndpoint.masked`).
        public var shown: String
        public var reason: String
        public var description: String { "\(shown): \(reason)" }
    }

    /// Reads `text`; throws with the reason (and the text masked) when libcurl could not use it.
    public static func parse(_ text: String) throws(ParseError) -> ProxyEndpoint {
        func fail(_ reason: String) -> ParseError { ParseError(shown: masked(text), reason: reason) }
        var rest = Substring(text)
        var scheme = Scheme.http
        if let separator = rest.range(of: "://") {
            let name = rest[..<separator.lowerBound].lowercased()
            guard let known = Scheme(rawValue: name) else {
                throw fail("the proxy scheme '\(name)' is not one libcurl speaks (\(Scheme.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            scheme = known
            rest = rest[separator.upperBound...]
        }
        // The authority ends at the first '/', '?' or '#'; what follows (a path) libcurl ignores.
        if let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
        var secrets: [String] = []
        var hasCredentials = false
        if let at = rest.lastIndex(of: "@") {
            let userInfo = String(rest[..<at])
            hasCredentials = true
            secrets = [userInfo] + userInfo.split(separator: ":", maxSplits: 1).map(String.init).filter { $0.count >= 4 }
            rest = rest[rest.index(after: at)...]
        }
        var host = String(rest)
        var portText: String?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { throw fail("the IPv6 address has no closing ']'") }
            let after = host[host.index(after: close)...]
            if after.hasPrefix(":") { portText = String(after.dropFirst()) } else if !after.isEmpty { throw fail("text after the IPv6 address") }
            host = String(host[...close])
        } else if let colon = host.lastIndex(of: ":") {
            portText = String(host[host.index(after: colon)...])
            host = String(host[..<colon])
        }
        guard !host.isEmpty, host != "[]" else { throw fail("no proxy host") }
        guard host.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != "@" }) else {
            throw fail("the proxy host holds a space or a character outside ASCII")
        }
        var port = scheme == .https ? 443 : 1080
        if let portText {
            guard let number = Int(portText), portText.allSatisfy(\.isASCII), (1...65535).contains(number) else {
                throw fail("the port '\(portText)' is not a number from 1 to 65535")
            }
            port = number
        }
        return ProxyEndpoint(scheme: scheme, host: host.lowercased(), port: port, hasCredentials: hasCredentials,
                             curlText: text, secrets: secrets)
    }

    /// `text` with anything between `://` (or the start) and the last `@` of the authority replaced
    /// by `***`: safe to show even when the text is not a proxy URL at all.
    public static func masked(_ text: String) -> String {
        let start = text.range(of: "://")?.upperBound ?? text.startIndex
        let authorityEnd = text[start...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? text.endIndex
        guard let at = text[start..<authorityEnd].lastIndex(of: "@") else { return text }
        return String(text[..<start]) + "***" + String(text[at...])
    }

    /// `message` (curl's error text, say) with the credentials of this proxy masked, should it repeat them.
    func masking(_ message: String) -> String {
        secrets.reduce(message) { $0.replacingOccurrences(of: $1, with: "***") }
    }
}
