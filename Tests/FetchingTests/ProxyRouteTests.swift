import Testing
@testable import Fetching

/// The proxy each transfer goes through, chosen as libcurl 7.88 chooses it (lib/url.c
/// `detect_proxy`, lib/noproxy.c `Curl_check_noproxy`), and what may be shown of it.
@Suite struct ProxyRouteTests {
    /// (environment, --proxy, URL, the proxy shown and where it was set, or nil for none).
    @Test(arguments: [
        (["https_proxy": "http://a:1", "HTTPS_PROXY": "http://b:2", "all_proxy": "http://c:3"], nil, "https://x.example/",
         "http://a:1 https_proxy"),
        (["HTTPS_PROXY": "http://b:2", "all_proxy": "http://c:3"], nil, "https://x.example/", "http://b:2 HTTPS_PROXY"),
        // An empty variable counts as unset (curl_getenv).
        (["https_proxy": "", "HTTPS_PROXY": "http://b:2"], nil, "https://x.example/", "http://b:2 HTTPS_PROXY"),
        (["all_proxy": "http://c:3", "ALL_PROXY": "http://d:4"], nil, "https://x.example/", "http://c:3 all_proxy"),
        (["ALL_PROXY": "socks5h://d"], nil, "https://x.example/", "socks5h://d:1080 ALL_PROXY"),
        // http:// URLs: http_proxy only in lower case (HTTP_PROXY may come from a request's Proxy: header).
        (["HTTP_PROXY": "http://e:5", "https_proxy": "http://a:1"], nil, "http://x.example/", nil),
        (["http_proxy": "http://e:5", "https_proxy": "http://a:1"], nil, "http://x.example/", "http://e:5 http_proxy"),
        (["HTTP_PROXY": "http://e:5", "all_proxy": "http://c:3"], nil, "http://x.example/", "http://c:3 all_proxy"),
        // --proxy wins; "" is none at all.
        (["https_proxy": "http://a:1"], "https://p.corp", "https://x.example/", "https://p.corp:443 --proxy"),
        (["https_proxy": "http://a:1"], "", "https://x.example/", nil),
        (["https_proxy": "p.corp:8080"], nil, "https://x.example/", "http://p.corp:8080 https_proxy"),
        ([:], nil, "https://x.example/", nil),
    ] as [([String: String], String?, String, String?)])
    func variablesAndOption(environment: [String: String], option: String?, url: String, expected: String?) {
        let route = ProxyRoute(proxy: option, noProxy: nil, environment: environment)
        let chosen = route.proxy(for: url).map { "\($0.endpoint.shown) \($0.source)" }
        #expect(chosen == expected)
    }

    /// (no-proxy list, host, bypassed).
    @Test(arguments: [
        ("*", "anything.example", true),
        ("example.com", "example.com", true),
        ("example.com", "www.example.com", true),
        (".example.com", "www.example.com", true),
        ("example.com.", "WWW.Example.COM.", true),
        ("example.com", "notexample.com", false),
        ("www.example.com", "example.com", false),
        ("a.test, b.test", "b.test", true),
        ("a.test b.test", "x.b.test", true),
        ("a.test,,b.test", "b.test", true),
        ("*.example.com", "www.example.com", false),
        ("a.test,*", "b.test", false),
        ("10.0.0.0/8", "10.1.2.3", true),
        ("10.0.0.0/8", "11.1.2.3", false),
        ("192.168.1.7", "192.168.1.7", true),
        ("192.168.1.0/33", "192.168.1.7", false),
        ("::1", "[::1]", true),
        ("fd00::/8", "fd12::5", true),
        ("10.0.0.0/8", "fd12::5", false),
        ("", "example.com", false),
    ])
    func noProxyList(list: String, host: String, bypassed: Bool) {
        #expect(NoProxyList(list).bypasses(host) == bypassed)
    }

    @Test func noProxyAppliesToTheProxyOfTheOptionTooAndTheOptionWinsOverTheVariable() {
        let route = ProxyRoute(proxy: "http://p:1", noProxy: nil, environment: ["no_proxy": "internal.test", "NO_PROXY": "*"])
        #expect(route.proxy(for: "https://a.internal.test/x") == nil)
        #expect(route.proxy(for: "https://example.com/x")?.endpoint.shown == "http://p:1")
        let given = ProxyRoute(proxy: "http://p:1", noProxy: "", environment: ["no_proxy": "*"])
        #expect(given.proxy(for: "https://a.internal.test/x") != nil)
        #expect(ProxyRoute(proxy: nil, noProxy: nil, environment: ["NO_PROXY": "example.com", "https_proxy": "http://p:1"])
            .proxy(for: "https://www.example.com:8443/") == nil)
    }

    /// (text, shown, default port, credentials given).
    @Test(arguments: [
        ("proxy.corp", "http://proxy.corp:1080", false),
        ("HTTP://Proxy.Corp:3128/", "http://proxy.corp:3128", false),
        ("https://proxy.corp", "https://proxy.corp:443", false),
        ("http://user:pa:ss@proxy.corp:8080", "http://proxy.corp:8080", true),
        ("socks5://u@[::1]:1081", "socks5://[::1]:1081", true),
    ])
    func endpoints(text: String, shown: String, credentials: Bool) throws {
        let endpoint = try ProxyEndpoint.parse(text)
        #expect(endpoint.shown == shown)
        #expect(endpoint.hasCredentials == credentials)
        #expect(endpoint.curlText == text)
    }

    @Test func credentialsAreMaskedInEverythingShown() throws {
        #expect(ProxyEndpoint.masked("http://user:secret@host:1/path@x") == "http://***@host:1/path@x")
        #expect(ProxyEndpoint.masked("user:secret@host") == "***@host")
        #expect(ProxyEndpoint.masked("http://host:1") == "http://host:1")
        let route = ProxyRoute(proxy: nil, noProxy: nil, environment: ["https_proxy": "bogus://user:secret@host"])
        let problem = route.problem
        #expect(problem?.source == .environment("https_proxy"))
        #expect(problem.map { "\($0.error)" }?.contains("secret") == false)
        #expect(problem?.error.shown == "bogus://***@host")
        let failure = ProxyFailure(proxy: "http://host:1", source: .option, reason: .authenticationRequired, credentialsGiven: true, detail: "")
        #expect(failure.description.contains("refused the credentials"))
        #expect(try ProxyEndpoint.parse("http://user:secret-long@h:1").masking("said user:secret-long and secret-long") == "said *** and ***")
    }
}
