import Foundation

/// A bot-management wall that answered a request in place of the file: the vendor recognised by
/// its headers and page (`BotWall.recognise`), and the headers that prove it. Decided once in the
/// audit (`CrawlerAccessCheck`) and stored in `CrawlerResult`; reporters show it as it is.
public struct BotWall: Sendable, Equatable, Codable {
    /// The vendors recognised, each by what its own documentation (or its block page) shows; see
    /// `BotWallSignature` and docs/findings.md.
    public enum Vendor: String, Sendable, Equatable, Codable, CaseIterable {
        case cloudflare
        case akamai
        case awsWAF = "aws-waf"
        case imperva
        case sucuri
        case datadome

        /// The vendor's name in a sentence.
        public var name: String {
            switch self {
            case .cloudflare: return "Cloudflare"
            case .akamai: return "Akamai"
            case .awsWAF: return "AWS WAF"
            case .imperva: return "Imperva (Incapsula)"
            case .sucuri: return "Sucuri"
            case .datadome: return "DataDome"
            }
        }
    }

    /// What the wall did: asked the client to prove it is a browser, or refused it.
    public enum Kind: String, Sendable, Equatable, Codable {
        /// A challenge or CAPTCHA page, which only a browser running its script can pass.
        case challenge
        /// A block page.
        case block
    }

    public var vendor: Vendor
    public var kind: Kind
    /// The response headers that identify the vendor and the wall, names lower-cased, values cut
    /// to printable ASCII (a header is text from the network, shown on terminals).
    public var evidence: [HeaderField]
    /// The words of the wall's page that identify it (its title or incident line), when the page
    /// was part of the evidence.
    public var page: String?

    public init(vendor: Vendor, kind: Kind, evidence: [HeaderField], page: String? = nil) {
        self.vendor = vendor
        self.kind = kind
        self.evidence = evidence
        self.page = page
    }

    /// The evidence in one phrase: `cf-mitigated: challenge, cf-ray: 8f1c…, server: cloudflare`
    /// and the page's words.
    public var proof: String {
        var parts = evidence.map { "\($0.name): \($0.value)" }
        if let page { parts.append("a page reading \"\(page)\"") }
        return parts.joined(separator: ", ")
    }

    /// "Cloudflare's challenge", "Akamai's block page".
    public var phrase: String {
        "\(vendor.name)'s \(kind == .challenge ? "challenge" : "block page")"
    }
}
