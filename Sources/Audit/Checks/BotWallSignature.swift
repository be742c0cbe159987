import Fetching
import Foundation

/// How each bot-management vendor's wall is told apart from an origin's own refusal. A header a
/// vendor adds to every response it passes on (`cf-ray`, `x-iinfo`, `x-sucuri-id`, `x-datadome`)
/// proves only that the vendor is in front of the site; it counts as a wall together with what the
/// vendor sends when it stops a request (its challenge header, its block status, its page).
///
/// Sources: Cloudflare, "Detect a Challenge Page response" (every challenge page carries
/// `cf-mitigated: challenge`; its page is titled "Just a moment..."); AWS WAF, "CAPTCHA and
/// Challenge action behavior" (`x-amzn-waf-action: challenge` with 202, `captcha` with 405);
/// DataDome, "Validate Request" (`X-DataDome: protected` on protected responses, 401/403 when it
/// blocks, `X-DD-B` on a JSON block); Akamai's edge denial page ("Access Denied … Reference #18.…",
/// `Server: AkamaiGHost`); Imperva's block page ("Incapsula incident ID", `incap_ses_`/`visid_incap_`
/// cookies, `X-Iinfo`); Sucuri's ("Sucuri WebSite Firewall - Access Denied", `X-Sucuri-ID`).
public enum BotWallSignature {
    /// How much of the body is read for a page's words: the title and incident line of every page
    /// above sit in its first kilobytes.
    static let pagePrefix = 4096
    /// The longest header value kept as evidence.
    static let valueLimit = 120

    /// The wall that answered `response`, or nil. The caller asks only about a response that is
    /// not the file (another status, or a body that is not a JSON object).
    public static func recognise(_ response: FetchResponse) -> BotWall? {
        let page = String(decoding: response.body.prefix(pagePrefix), as: UTF8.self).lowercased()
        let status = response.status
        func header(_ name: String) -> HTTPHeader? { response.headers.first { $0.name == name } }
        func evidence(_ names: [String]) -> [HeaderField] {
            names.compactMap(header).map { HeaderField(name: $0.name, value: printable($0.value)) }
        }
        func cookie(startingWith prefixes: [String]) -> HeaderField? {
            // A cookie's value is a session token: its name is the evidence, the value is left out.
            for field in response.headers where field.name == "set-cookie" {
                let name = field.value.prefix { $0 != "=" && $0 != ";" }.trimmingCharacters(in: .whitespaces)
                if prefixes.contains(where: { name.lowercased().hasPrefix($0) }) {
                    return HeaderField(name: "set-cookie", value: printable(name) + "=...")
                }
            }
            return nil
        }
        let server = header("server")?.value.lowercased() ?? ""
        /// The server header, when its value names `vendor` (then it is part of the proof).
        func serverNaming(_ vendor: String) -> [HeaderField] {
            server.hasPrefix(vendor) ? evidence(["server"]) : []
        }

        // Cloudflare: the challenge header, or its own challenge or block page behind its server name.
        if header("cf-mitigated") != nil {
            return BotWall(vendor: .cloudflare, kind: .challenge, evidence: evidence(["cf-mitigated", "cf-ray"]) + serverNaming("cloudflare"),
                           page: page.contains("<title>just a moment") ? "Just a moment..." : nil)
        }
        if server.hasPrefix("cloudflare"), header("cf-ray") != nil {
            if page.contains("<title>just a moment") || page.contains("/cdn-cgi/challenge-platform/") {
                return BotWall(vendor: .cloudflare, kind: .challenge, evidence: evidence(["cf-ray", "server"]), page: "Just a moment...")
            }
            for words in ["Attention Required! | Cloudflare", "Sorry, you have been blocked"] where page.contains(words.lowercased()) {
                return BotWall(vendor: .cloudflare, kind: .block, evidence: evidence(["cf-ray", "server"]), page: words)
            }
        }
        // AWS WAF: its action header names the challenge or the CAPTCHA.
        if header("x-amzn-waf-action") != nil {
            return BotWall(vendor: .awsWAF, kind: .challenge, evidence: evidence(["x-amzn-waf-action"]))
        }
        // DataDome: its header on a refusal, or its JSON block marker.
        if header("x-datadome") != nil || header("x-dd-b") != nil,
           header("x-dd-b") != nil || status == 401 || status == 403 || page.contains("captcha-delivery.com") {
            return BotWall(vendor: .datadome, kind: page.contains("captcha-delivery.com") ? .challenge : .block,
                           evidence: evidence(["x-datadome", "x-dd-b"]) + serverNaming("datadome"))
        }
        // Akamai: the edge's own denial page behind its server name.
        if server.hasPrefix("akamaighost"), page.contains("access denied"), page.contains("reference #") {
            return BotWall(vendor: .akamai, kind: .block, evidence: evidence(["server"]), page: "Access Denied … Reference #")
        }
        // Imperva: its incident page, with its header or its cookies.
        if page.contains("incapsula incident id") || page.contains("_incapsula_resource") {
            var proof = evidence(["x-iinfo", "x-cdn"])
            if let cookie = cookie(startingWith: ["incap_ses_", "visid_incap_"]) { proof.append(cookie) }
            if !proof.isEmpty {
                return BotWall(vendor: .imperva, kind: page.contains("incapsula incident id") ? .block : .challenge,
                               evidence: proof, page: page.contains("incapsula incident id") ? "Incapsula incident ID" : nil)
            }
        }
        // Sucuri: its block header, or its firewall's page with its id header.
        if header("x-sucuri-block") != nil || (header("x-sucuri-id") != nil && page.contains("sucuri website firewall")) {
            return BotWall(vendor: .sucuri, kind: .block, evidence: evidence(["x-sucuri-id", "x-sucuri-block"]) + serverNaming("sucuri"),
                           page: page.contains("sucuri website firewall") ? "Sucuri WebSite Firewall - Access Denied" : nil)
        }
        return nil
    }

    /// `value` as printable ASCII, at most `valueLimit` characters: anything else becomes `?`.
    static func printable(_ value: String) -> String {
        let kept = value.unicodeScalars.prefix(valueLimit).map { (0x20..<0x7F).contains($0.value) ? Character($0) : "?" }
        return String(kept) + (value.unicodeScalars.count > valueLimit ? "..." : "")
    }
}
