import Fetching

/// The transfer never produced a response: DNS, refused, reset, timeout. Keeps curl's own code and
/// text, as each finding's technical detail (`Finding.detail`), out of its sentence.
public enum NetworkCheck: LocationCheck {
    /// The check's stable id, stored in each of its findings (`Finding.check`).
    public static let id = "network"
    public static let dns = Rule("network.dns", .error, check: id,
        meaning: "The domain name does not resolve, so Apple cannot fetch anything from it.",
        fix: "Check the DNS records (A/AAAA) of the domain, and the spelling in domains.txt.")
    public static let refused = Rule("network.refused", .error, check: id,
        meaning: "The server refused the connection on port 443.",
        fix: "Make sure an HTTPS server listens on port 443 and a firewall does not block it.")
    public static let timeout = Rule("network.timeout", .error, check: id,
        meaning: "The server did not answer in time (Apple's CDN reports this as SWCERR00301 Timeout).",
        fix: "Make the file answer quickly from every network; check firewalls that drop packets, and slow upstreams.")
    public static let reset = Rule("network.reset", .error, check: id,
        meaning: "The connection was closed or reset before a complete response arrived.",
        fix: "Check the server and any proxy or load balancer in front of it for errors when serving this path.")
    public static let tooLarge = Rule("network.too-large", .error, check: id,
        meaning: "The response was too large to read: its header lines (trailers and interim 1xx responses included) exceed the tool's 256 KB cap, one header line exceeds libcurl's 100 KB, or its Content-Length is beyond any count (a misconfigured server or proxy adding headers without end).",
        fix: "Find what adds the headers (cookies, a proxy, an application loop, a long redirect target) and keep the header section to a few kilobytes, with a correct Content-Length.")
    public static let restrictedAddress = Rule("network.private-address", .error, check: id,
        meaning: "DNS gives the domain only loopback, private, link-local or other non-public addresses. Apple's CDN refuses such origins (\"Connections to private/reserved IP addresses are not allowed\"), so it cannot serve the file to devices.",
        fix: "Publish public A/AAAA records for the domain (check split-horizon DNS too). To audit a staging or internal server on purpose, route the name with --connect-to or --resolve.")
    public static let proxyRefused = Rule("network.proxy", .error, check: id,
        meaning: "The proxy this run goes through (--proxy, https_proxy) would not open a connection to the domain: it answered the tunnel request (CONNECT) with an error status, so nothing could be fetched. The proxy decided this, for its own reason: its policy (403), or a name it cannot resolve or a server it cannot reach (squid answers 503 to both). Devices on other networks do not use this proxy.",
        fix: "Read the status and the proxy's log for the reason. If the domain's DNS or server is at fault, fix that; if the proxy's policy blocks it, ask whoever runs the proxy, or list the domain in --noproxy to reach it directly.")
    public static let failed = Rule("network.error", .error, check: id,
        meaning: "The transfer failed for another reason; curl's error text, the finding's technical detail, says which.",
        fix: "Read curl's error text in the finding's technical detail and fix the server accordingly.")

    public static let rules = [dns, refused, timeout, reset, tooLarge, restrictedAddress, proxyRefused, failed]

    public static func findings(for location: FetchedLocation) -> [Finding] {
        // The cause (where the name leads) before the consequence (the transfer failing there).
        let response = location.response
        let addresses = restrictedAddressFindings(response)
        if let proxy = response.proxy, proxy.refusedTunnel, let status = proxy.tunnelStatus {
            return addresses + [proxyRefused.finding("The proxy \(proxy.proxy) (\(proxy.source)) answered \(status) to the request "
                + "for a tunnel to this domain, so nothing was fetched from it.", detail: response.error.map(technicalDetail))]
        }
        guard let error = response.error, error.kind != .tls else { return addresses }
        return addresses + transferFindings(error, through: response.proxy)
    }

    /// Every address curl tried is non-public, and the user did not route the name there.
    /// Nothing when a kept-alive connection was reused (no addresses were tried), and nothing
    /// through a proxy: the proxy resolved the name, and the address connected to is the proxy's.
    static func restrictedAddressFindings(_ response: FetchResponse) -> [Finding] {
        guard !response.routed, response.proxy == nil, !response.addresses.isEmpty else { return [] }
        let scopes = response.addresses.map { (address: $0, scope: AddressScope(text: $0) ?? .reserved) }
        guard scopes.allSatisfy({ $0.scope.isRestricted }) else { return [] }
        let listed = scopes.prefix(4).map { "\($0.address) (\($0.scope.description))" }.joined(separator: ", ")
        return [restrictedAddress.finding("The name resolves only to non-public addresses: \(listed)"
            + "\(scopes.count > 4 ? " and \(scopes.count - 4) more" : ""). Apple's CDN does not connect to such addresses.")]
    }

    /// `through`: the proxy the transfer went through, named so the failure is not taken for the site's alone.
    static func transferFindings(_ error: TransferError, through proxy: ProxyUse? = nil) -> [Finding] {
        let via = proxy.map { " through the proxy \($0.proxy)" } ?? ""
        let detail = technicalDetail(error)
        switch error.kind {
        case .dns: return [dns.finding("The name could not be resolved\(via).", detail: detail)]
        case .refused: return [refused.finding("The connection was refused\(via).", detail: detail)]
        case .timeout: return [timeout.finding("No complete answer arrived within the time limit\(via).", detail: detail)]
        case .reset: return [reset.finding("The connection broke off before a complete answer arrived\(via).", detail: detail)]
        case .tooLarge: return [tooLarge.finding("The response was too large to read\(via).", detail: detail)]
        case .tls, .other: return [failed.finding("The transfer failed\(via).", detail: detail)]
        }
    }

    /// curl's code and text, verbatim, as a finding's technical detail: "curl error 7: Failed to connect to …".
    public static func technicalDetail(_ error: TransferError) -> String {
        "curl error \(error.curlCode): \(error.message)"
    }
}
