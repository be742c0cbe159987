import Audit

/// The one line the HTML and Markdown headers give a routed run (`RunRoute`), so a report made
/// through a staging address, a private CA or a proxy says so where a ticket's reader looks first.
enum RoutePhrases {
    /// "Checked through a staging route (--connect-to a:443:b:8443; --cacert ca.pem, SHA-256 ab12…):
    /// Apple and devices reach the servers public DNS gives them and trust only public CAs, so what
    /// they get may differ.",
    /// with the proxy named; nil for a run without a route.
    static func line(_ route: RunRoute?) -> String? {
        guard let route else { return nil }
        let proxy = route.proxy.map { proxy in "the proxy " + proxy + (route.proxySource.map { " (\($0))" } ?? "") }
        guard route.isStaging else { return proxy.map { "Fetched through " + $0 + "." } }
        var options = route.connectTo.map { "--connect-to " + $0 } + route.resolve.map { "--resolve " + $0 }
        if let ca = route.caFile {
            options.append("--cacert " + ca.path + (ca.sha256.map { ", SHA-256 " + $0 } ?? ""))
        }
        if let proxy { options.append(proxy) }
        return "Checked through a staging route (" + options.joined(separator: "; ")
            + "): Apple and devices reach the servers public DNS gives them and trust only public CAs, so what they get may differ."
    }
}
