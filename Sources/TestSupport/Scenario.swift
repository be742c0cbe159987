import Foundation

/// One server name on the test nginx and what it serves: a situation the auditor must recognise.
public struct Scenario: Sendable {
    /// Which certificate the server presents.
    public enum Certificate: Sendable {
        case valid
        case expired
        case notYetValid
        case expiringInDays(Int)
        /// Valid, but issued for another host name.
        case wrongHost
        case selfSigned
        /// Certificates curl accepts and Apple refuses (support.apple.com/103769, 102028): without the
        /// serverAuth EKU, signed with SHA-1, valid for this many days, the host only in the Common
        /// Name, an RSA key of 1024 bits. The server accepts SHA-1 and RSA 1024 (`@SECLEVEL=0`).
        case noServerAuth
        case sha1
        case validForDays(Int)
        case commonNameOnly
        case rsa(Int)
    }

    /// The server name (SNI and Host), e.g. `good.test`.
    public var host: String
    public var certificate: Certificate
    /// nginx directives inside the `server` block (locations, gzip, limit_rate ...).
    /// `FILES` is replaced by the folder holding the scenario files.
    public var directives: String

    public init(host: String, certificate: Certificate = .valid, directives: String) {
        self.host = host
        self.certificate = certificate
        self.directives = directives
    }
}

/// Files the scenarios serve, written into the server's folder.
public enum ScenarioFiles {
    /// A small valid modern AASA file.
    public static let good = """
        {
          "applinks": {
            "details": [
              { "appIDs": ["ABQ7KM3X2P.com.exemplo.app"], "components": [ { "/": "/buy/*" } ] }
            ]
          },
          "webcredentials": { "apps": ["ABQ7KM3X2P.com.exemplo.app"] }
        }

        """
    /// Valid too, but different from `good`: the root copy of a domain whose two copies diverge.
    public static let other = """
        { "applinks": { "details": [ { "appIDs": ["ZYXWV98765.com.exemplo.old"], "components": [ { "/": "/old/*" } ] } ] } }

        """
    /// The app of `good` listed under an old Team ID (an app moved to another team), in applinks and
    /// webcredentials.
    public static let drifted = good.replacingOccurrences(of: "ABQ7KM3X2P.", with: "OLDTEAM999.")
    /// Valid JSON with schema mistakes people make: a lower-case, short Team ID, `paths` given as a
    /// string, a boolean written as a string, and a misspelled service key.
    public static let badSchema = """
        {
          "applinks": {
            "details": [
              { "appIDs": ["abcde.com.exemplo.app"], "components": [ { "/": "/buy/*", "exclude": "true" } ] },
              { "appID": "ABQ7KM3X2P.com.exemplo.app", "paths": "/help/*" }
            ]
          },
          "webcredential": { "apps": ["ABQ7KM3X2P.com.exemplo.app"] }
        }

        """
    /// A partner's file Apple reads, with one good app ID and one malformed one (no Team ID): the
    /// file Apple uses, whose first app's links work and whose second app's links do not.
    public static let partner = """
        {
          "applinks": {
            "details": [
              { "appIDs": ["ZXCVB12345.com.partner.app", "com.partner.app2"], "components": [ { "/": "/account/*" } ] }
            ]
          }
        }

        """
    /// A single-page app's catch-all page.
    public static let html = "<!doctype html>\n<html><head><title>Shop</title></head><body><div id=\"root\"></div></body></html>\n"
    /// Invalid JSON: a trailing comma.
    public static let invalidJSON = "{\n  \"applinks\": {\n    \"details\": [ { \"appIDs\": [\"ABQ7KM3X2P.com.exemplo.app\"], },\n    ]\n  }\n}\n"
    /// Valid JSON whose root is an array.
    public static let arrayRoot = "[ { \"applinks\": {} } ]\n"

    /// The package of the Android app in the assetlinks.json scenarios.
    public static let androidPackage = "com.exemplo.app"
    /// The release key's SHA-256 fingerprint (made up, well-formed) listed by `assetLinks`.
    public static let releaseFingerprint = "D2:EA:8B:A3:B0:4B:5C:C0:6A:4B:48:E5:AD:5F:C2:9B:22:4D:63:67:A4:A5:26:1D:22:27:71:49:48:38:A7:0C"
    /// A debug key's SHA-256 fingerprint (made up), the only one `assetLinksDebugOnly` lists.
    public static let debugFingerprint = "A1:B2:C3:D4:E5:F6:07:18:29:3A:4B:5C:6D:7E:8F:90:A1:B2:C3:D4:E5:F6:07:18:29:3A:4B:5C:6D:7E:8F:90"
    /// A valid Digital Asset Links statement list: App Links and shared sign-in for the app.
    public static let assetLinks = """
        [
          {
            "relation": ["delegate_permission/common.handle_all_urls", "delegate_permission/common.get_login_creds"],
            "target": { "namespace": "android_app", "package_name": "\(androidPackage)",
                        "sha256_cert_fingerprints": ["\(releaseFingerprint)"] }
          }
        ]

        """
    /// The release fingerprint written in lower case: Android's documentation wants it upper case.
    public static let assetLinksLowercase = assetLinks.replacingOccurrences(of: releaseFingerprint, with: releaseFingerprint.lowercased())
    /// Lists only the debug key's fingerprint.
    public static let assetLinksDebugOnly = assetLinks.replacingOccurrences(of: releaseFingerprint, with: debugFingerprint)
    /// The host serving the lists the include scenarios include (`Scenarios.includeList`).
    public static let includeHost = "include-list.test"
    /// A statement list of include statements only.
    public static func assetLinksIncluding(_ urls: [String]) -> String {
        "[\n" + urls.map { "  { \"include\": \"\($0)\" }" }.joined(separator: ",\n") + "\n]\n"
    }
    /// Includes the good list (`assetLinks`) from another host.
    public static let assetLinksIncludingGood = assetLinksIncluding(["https://\(includeHost)/lists/app.json"])
    /// Includes a missing list, a redirected one and one that includes another in turn.
    public static let assetLinksIncludingBroken = assetLinksIncluding(
        ["https://\(includeHost)/lists/missing.json", "https://\(includeHost)/lists/moved.json", "https://\(includeHost)/lists/nested.json"])
    /// The debug-only statement, and an include of the good list: Android does not read that one (one level).
    public static let includedNested = assetLinksDebugOnly.replacingOccurrences(
        of: "\n]", with: ",\n  { \"include\": \"https://\(includeHost)/lists/app.json\" }\n]")
    /// Google's Digital Asset Links API answer holding the release key's App Links statement (`assetLinks`'s).
    public static let googleDALRelease = """
        {"statements":[{"source":{"web":{"site":"https://example.test."}},"relation":"delegate_permission/common.handle_all_urls",
          "target":{"androidApp":{"packageName":"\(androidPackage)","certificate":{"sha256Fingerprint":"\(releaseFingerprint)"}}}}],
         "maxAge":"86400s","debugString":"********************* Errors *********************\\nNone!"}

        """
    /// Google's answer when its fetch of the site failed on the Content-Type.
    public static let googleDALWrongType = """
        {"maxAge":"600s","errorCode":["ERROR_CODE_WRONG_CONTENT_TYPE"],"debugString":"Content type was text/html"}

        """
    /// Invalid JSON: a trailing comma.
    public static let assetLinksInvalid = "[ { \"relation\": [\"delegate_permission/common.handle_all_urls\"], } ]\n"

    /// A valid AASA file larger than Apple's 128 KB limit.
    public static func large() -> String {
        let component = "{ \"/\": \"/products/item-with-a-long-name-%05d/*\", \"comment\": \"padding to pass Apple's size limit\" }"
        let components = (0..<1800).map { String(format: component, $0) }.joined(separator: ",\n")
        return "{ \"applinks\": { \"details\": [ { \"appIDs\": [\"ABQ7KM3X2P.com.exemplo.app\"], \"components\": [\n\(components)\n] } ] } }\n"
    }
}

/// The scenarios every integration test shares: one server name each.
public enum Scenarios {
    static func aasa(_ location: String, file: String, type: String = "application/json", extra: String = "") -> String {
        "location = \(location) { default_type \(type); alias FILES/\(file); \(extra) }"
    }
    static let wellKnown = "/.well-known/apple-app-site-association"
    static let root = "/apple-app-site-association"
    static let notFoundElsewhere = "location / { return 404; }"
    /// Answers Apple's crawler with 403 and everyone else with the file (a WAF's bot rule).
    static func blockingCrawler(_ location: String) -> String {
        "location = \(location) { if ($http_user_agent ~ \"AASA-Bot\") { return 403; } default_type application/json; alias FILES/good.json; }"
    }

    /// Answers Apple's crawler the way Cloudflare's challenge does (403, `cf-mitigated: challenge`,
    /// a `CF-RAY`, the "Just a moment..." page) and everyone else with the file.
    static func challengingCrawler(_ location: String) -> String {
        """
        location = \(location) { if ($http_user_agent ~ "AASA-Bot") { rewrite ^ /cdn-cgi/challenge last; } default_type application/json; alias FILES/good.json; }
        location = /cdn-cgi/challenge {
          internal;
          default_type text/html;
          add_header cf-mitigated challenge always;
          add_header CF-RAY 8f1c2d3e4a5b6c7d-AMS always;
          return 403 "<!DOCTYPE html><html lang=en-US><head><title>Just a moment...</title></head><body><noscript>Enable JavaScript and cookies to continue</noscript><script src=/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1></script></body></html>";
        }
        """
    }

    /// The base URL the tests give `--apple-cdn`: the `cdn.test` server below plays Apple's CDN.
    public static let appleCDNBase = "https://cdn.test/a/v1/"
    /// Domains whose CDN copy is a fresh copy of good.json (what their origin serves, or its
    /// unwrapped JSON for signed.test).
    public static let freshOnCDN = ["good", "wellknown-only", "root-only", "differ", "charset", "gzip", "signed",
                                    "wrong-type", "expiring"]
    /// A 404 the way Apple's CDN answers when its last fetch from the origin failed (failures are cached).
    static func cdnFailure(_ domain: String, reason: String, maxAge: Int) -> String {
        """
        location = /a/v1/\(domain) {
          add_header Apple-Failure-Reason "\(reason)" always;
          add_header Apple-Failure-Details '{"cause":"\(reason)"}' always;
          add_header Apple-From "https://\(domain)/.well-known/apple-app-site-association" always;
          add_header Apple-Try-Direct false always;
          add_header Cache-Control max-age=\(maxAge) always;
          return 404;
        }
        """
    }

    /// Apple's CDN: fresh copies for `freshOnCDN`, partner.test and drift.test, an old copy for stale.test, cached failures for
    /// notfound.test, bot-blocked.test and cdn-failure.test, and a plain 404 for every other domain.
    static let appleCDN = Scenario(host: "cdn.test", directives: [
        "location ~ ^/a/v1/(\(freshOnCDN.joined(separator: "|")))\\.test$ { default_type application/json; root FILES; try_files /good.json =404; add_header Apple-Origin-Format json; add_header Cache-Control max-age=21600; }",
        "location = /a/v1/partner.test { default_type application/json; alias FILES/partner.json; add_header Apple-Origin-Format json; add_header Cache-Control max-age=21600; }",
        "location = /a/v1/drift.test { default_type application/json; alias FILES/drifted.json; add_header Apple-Origin-Format json; add_header Cache-Control max-age=21600; }",
        "location = /a/v1/stale.test { default_type application/json; alias FILES/other.json; add_header Apple-Origin-Format json; add_header Cache-Control max-age=21600; add_header Age 7200; }",
        cdnFailure("notfound.test", reason: "SWCERR00101 Bad HTTP Response: 404 Not Found", maxAge: 3600),
        cdnFailure("bot-blocked.test", reason: "SWCERR00101 Bad HTTP Response: 403 Forbidden", maxAge: 3600),
        cdnFailure("cdn-failure.test", reason: "SWCERR00301 Timeout", maxAge: 1800),
        notFoundElsewhere,
    ].joined(separator: "\n"))

    /// The base URL the tests give `--google-dal-base`: the `dal.test` server below plays Google's
    /// Digital Asset Links API.
    public static let googleDALBase = "https://dal.test"

    /// Google's Digital Asset Links API, answering `statements:list` for App Links by the site asked
    /// (a query for another relation is a 400, as the API's would be useless): the release key for
    /// android-good.test and android-debug-only.test (whose origin lists only the debug key), an
    /// error code for android-html-type.test, a 503 for android-invalid.test and an HTML page for
    /// android-lowercase.test; 404 for every other site.
    static func googleDALSite(_ host: String) -> String { "$args ~ \"source[.]web[.]site=https://\(host.replacingOccurrences(of: ".", with: "[.]"))(&|$)\"" }
    static let googleDAL = Scenario(host: "dal.test", directives: """
        location = /v1/statements:list {
          if ($arg_relation != "delegate_permission/common.handle_all_urls") { return 400; }
          if (\(googleDALSite("android-good.test"))) { rewrite ^ /answers/dal-release.json? last; }
          if (\(googleDALSite("android-debug-only.test"))) { rewrite ^ /answers/dal-release.json? last; }
          if (\(googleDALSite("android-html-type.test"))) { rewrite ^ /answers/dal-wrong-type.json? last; }
          if (\(googleDALSite("android-lowercase.test"))) { rewrite ^ /answers/index.html? last; }
          if (\(googleDALSite("android-invalid.test"))) { return 503; }
          return 404;
        }
        location /answers/ { internal; default_type application/json; alias FILES/; }
        location / { return 404; }
        """)

    public static let all: [Scenario] = [
        Scenario(host: "good.test", directives: [
            aasa(wellKnown, file: "good.json"), aasa(root, file: "good.json"), notFoundElsewhere,
        ].joined(separator: "\n")),
        Scenario(host: "wellknown-only.test", directives: [aasa(wellKnown, file: "good.json"), notFoundElsewhere].joined(separator: "\n")),
        Scenario(host: "root-only.test", directives: [aasa(root, file: "good.json"), notFoundElsewhere].joined(separator: "\n")),
        Scenario(host: "differ.test", directives: [aasa(wellKnown, file: "good.json"), aasa(root, file: "other.json"), notFoundElsewhere].joined(separator: "\n")),
        Scenario(host: "redirect.test", directives: """
            location = \(wellKnown) { return 301 https://good.test\(wellKnown); }
            location = \(root) { return 302 https://good.test\(root); }
            """),
        Scenario(host: "redirect-loop.test", directives: "location / { return 301 https://redirect-loop.test$uri; }"),
        Scenario(host: "notfound.test", directives: notFoundElsewhere),
        Scenario(host: "error500.test", directives: "location / { return 500; }"),
        Scenario(host: "wrong-type.test", directives: [
            aasa(wellKnown, file: "good.json", type: "text/plain"), aasa(root, file: "good.json", type: "text/plain"), notFoundElsewhere,
        ].joined(separator: "\n")),
        Scenario(host: "charset.test", directives: [
            aasa(wellKnown, file: "good.json", type: "\"application/json; charset=utf-8\""), notFoundElsewhere,
        ].joined(separator: "\n")),
        Scenario(host: "html.test", directives: [aasa(wellKnown, file: "index.html", type: "text/html"), aasa(root, file: "index.html", type: "text/html")].joined(separator: "\n")),
        Scenario(host: "gzip.test", directives: [
            "gzip on; gzip_types application/json; gzip_min_length 0;",
            aasa(wellKnown, file: "good.json"), aasa(root, file: "good.json"), notFoundElsewhere,
        ].joined(separator: "\n")),
        Scenario(host: "large.test", directives: [aasa(wellKnown, file: "large.json"), aasa(root, file: "large.json"), notFoundElsewhere].joined(separator: "\n")),
        Scenario(host: "large-gzip.test", directives: [
            "gzip on; gzip_types application/json; gzip_min_length 0;",
            aasa(wellKnown, file: "large.json"), notFoundElsewhere,
        ].joined(separator: "\n")),
        Scenario(host: "invalid-json.test", directives: [aasa(wellKnown, file: "invalid.json"), notFoundElsewhere].joined(separator: "\n")),
        // A file Apple reads with a broken entry: the file Apple uses (issue 13).
        Scenario(host: "partner.test", directives: [aasa(wellKnown, file: "partner.json"), notFoundElsewhere].joined(separator: "\n")),
        // An app moved to another team: its bundle ID listed under the old Team ID (issue 15).
        Scenario(host: "drift.test", directives: [aasa(wellKnown, file: "drifted.json"), notFoundElsewhere].joined(separator: "\n")),
        Scenario(host: "bad-schema.test", directives: [aasa(wellKnown, file: "bad-schema.json"), notFoundElsewhere].joined(separator: "\n")),
        Scenario(host: "array-root.test", directives: [aasa(wellKnown, file: "array.json"), notFoundElsewhere].joined(separator: "\n")),
        Scenario(host: "signed.test", directives: [aasa(wellKnown, file: "signed.der", type: "application/pkcs7-mime"), notFoundElsewhere].joined(separator: "\n")),
        Scenario(host: "slow.test", directives: [
            aasa(wellKnown, file: "good.json", extra: "limit_rate 1;"), aasa(root, file: "good.json", extra: "limit_rate 1;"),
        ].joined(separator: "\n")),
        Scenario(host: "expired.test", certificate: .expired, directives: [aasa(wellKnown, file: "good.json"), notFoundElsewhere].joined(separator: "\n")),
        Scenario(host: "not-yet-valid.test", certificate: .notYetValid, directives: [aasa(wellKnown, file: "good.json"), notFoundElsewhere].joined(separator: "\n")),
        Scenario(host: "expiring.test", certificate: .expiringInDays(5), directives: [aasa(wellKnown, file: "good.json"), notFoundElsewhere].joined(separator: "\n")),
        Scenario(host: "mismatch.test", certificate: .wrongHost, directives: [aasa(wellKnown, file: "good.json"), notFoundElsewhere].joined(separator: "\n")),
        // Any number of distinct names on one server (wildcard certificate), for tests at scale.
        Scenario(host: "*.many.test", directives: [aasa(wellKnown, file: "good.json"), aasa(root, file: "good.json"), notFoundElsewhere].joined(separator: "\n")),
        families,
        Scenario(host: "self-signed.test", certificate: .selfSigned, directives: [aasa(wellKnown, file: "good.json"), notFoundElsewhere].joined(separator: "\n")),
        // Certificates curl accepts (or OpenSSL's default security level refuses) and Apple refuses (issue 29).
        Scenario(host: "no-eku.test", certificate: .noServerAuth, directives: [aasa(wellKnown, file: "good.json"), notFoundElsewhere].joined(separator: "\n")),
        Scenario(host: "sha1.test", certificate: .sha1, directives: [weakCrypto, aasa(wellKnown, file: "good.json"), notFoundElsewhere].joined(separator: "\n")),
        Scenario(host: "long-validity.test", certificate: .validForDays(900), directives: [aasa(wellKnown, file: "good.json"), notFoundElsewhere].joined(separator: "\n")),
        Scenario(host: "cn-only.test", certificate: .commonNameOnly, directives: [aasa(wellKnown, file: "good.json"), notFoundElsewhere].joined(separator: "\n")),
        Scenario(host: "rsa1024.test", certificate: .rsa(1024), directives: [weakCrypto, aasa(wellKnown, file: "good.json"), notFoundElsewhere].joined(separator: "\n")),

        // Apple's CDN and its crawler.
        appleCDN,
        googleDAL,
        Scenario(host: "stale.test", directives: [aasa(wellKnown, file: "good.json"), aasa(root, file: "good.json"), notFoundElsewhere].joined(separator: "\n")),
        Scenario(host: "cdn-failure.test", directives: [aasa(wellKnown, file: "good.json"), notFoundElsewhere].joined(separator: "\n")),
        Scenario(host: "bot-blocked.test", directives: [blockingCrawler(wellKnown), blockingCrawler(root), notFoundElsewhere].joined(separator: "\n")),
        Scenario(host: "cf-challenge.test", directives: [challengingCrawler(wellKnown), aasa(root, file: "good.json"), notFoundElsewhere].joined(separator: "\n")),
    ] + android

    /// OpenSSL's default security level (2) refuses SHA-1 signatures and RSA keys below 2048 bits;
    /// level 0 lets nginx serve them, so that the client's reaction is what is tested.
    static let weakCrypto = "ssl_ciphers DEFAULT:@SECLEVEL=0;"

    /// Served on their own listeners (`LocalSites`), where they are the default server: nginx takes a
    /// handshake's protocols and ciphers from the listener's default server, not from the name's.
    /// Only RSA key exchange under TLS 1.2: no forward secrecy, outside App Transport Security.
    public static let noForwardSecrecy = Scenario(host: "no-forward-secrecy.test", certificate: .rsa(2048), directives: [
        "ssl_protocols TLSv1.2; ssl_ciphers AES128-GCM-SHA256;", aasa(wellKnown, file: "good.json"), notFoundElsewhere,
    ].joined(separator: "\n"))
    /// A name whose IPv6 address serves another server: the file over IPv4 (127.0.0.1, on the shared
    /// listener), 404 over IPv6 (::1). Reach it with `LocalSites.familyArguments`.
    public static let families = Scenario(host: "families.test", directives: [aasa(wellKnown, file: "good.json"), notFoundElsewhere].joined(separator: "\n"))
    static let familiesOverIPv6 = Scenario(host: "families.test", directives: "location / { return 404; }")

    static let assetLinksPath = "/.well-known/assetlinks.json"

    /// Android's assetlinks.json beside a good AASA file at `.well-known`.
    static func androidSite(_ host: String, _ assetLinks: String) -> Scenario {
        Scenario(host: host, directives: [aasa(wellKnown, file: "good.json"), assetLinks, notFoundElsewhere].joined(separator: "\n"))
    }

    /// The Android App Links scenarios (`--android`): good, redirected, served as text/html, missing,
    /// a lower-case fingerprint, only a debug key's fingerprint, invalid JSON, a single-page app's catch-all.
    static let android: [Scenario] = [
        androidSite("android-good.test", aasa(assetLinksPath, file: "assetlinks.json")),
        androidSite("android-redirect.test", "location = \(assetLinksPath) { return 301 https://android-good.test\(assetLinksPath); }"),
        androidSite("android-html-type.test", aasa(assetLinksPath, file: "assetlinks.json", type: "text/html")),
        androidSite("android-missing.test", ""),
        androidSite("android-lowercase.test", aasa(assetLinksPath, file: "assetlinks-lowercase.json")),
        androidSite("android-debug-only.test", aasa(assetLinksPath, file: "assetlinks-debug.json")),
        androidSite("android-invalid.test", aasa(assetLinksPath, file: "assetlinks-invalid.json")),
        // Android-only sites: assetlinks.json and no AASA file. apk.test serves apk-assetlinks.json,
        // which the test writes (it lists the key of an APK signed at test time).
        Scenario(host: "android-only.test", directives: [aasa(assetLinksPath, file: "assetlinks.json"), notFoundElsewhere].joined(separator: "\n")),
        Scenario(host: "apk.test", directives: [aasa(assetLinksPath, file: "apk-assetlinks.json"), notFoundElsewhere].joined(separator: "\n")),
        Scenario(host: "apk-wrong-key.test", directives: [aasa(assetLinksPath, file: "assetlinks.json"), notFoundElsewhere].joined(separator: "\n")),
        // `include` followed one level: a list included from another host, and a file whose includes
        // fail (a 404, a redirect) or include again.
        androidSite("android-include.test", aasa(assetLinksPath, file: "assetlinks-include.json")),
        androidSite("android-include-broken.test", aasa(assetLinksPath, file: "assetlinks-include-broken.json")),
        Scenario(host: ScenarioFiles.includeHost, directives: [
            aasa("/lists/app.json", file: "assetlinks.json"), aasa("/lists/nested.json", file: "include-nested.json"),
            "location = /lists/moved.json { return 301 https://\(ScenarioFiles.includeHost)/lists/app.json; }", notFoundElsewhere,
        ].joined(separator: "\n")),
        Scenario(host: "android-spa.test", directives: [
            aasa(wellKnown, file: "good.json"),
            "location / { default_type text/html; root FILES; try_files /index.html =404; }",
        ].joined(separator: "\n")),
    ]
}
