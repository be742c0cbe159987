import Foundation

/// Both file locations of one domain, and what Apple's CDN and crawler were given.
public struct SiteFetch: Sendable, Equatable {
    public var domain: String
    public var wellKnown: LocationFetch
    public var root: LocationFetch
    /// The copy on Apple's CDN (`FetchOptions.appleCDNBase` + domain); nil when the CDN is not fetched.
    public var cdn: FetchResponse?
    /// `.well-known` fetched again with the crawler's User-Agent; nil when there is no crawler
    /// User-Agent or the first `.well-known` fetch got no HTTP response.
    public var crawlerWellKnown: FetchResponse?
    /// The root location with the crawler's User-Agent; fetched only when the first `.well-known`
    /// fetch did not answer 200 and the root location got an HTTP response.
    public var crawlerRoot: FetchResponse?
    /// Android's `/.well-known/assetlinks.json` on the same connection; nil when it was not asked for
    /// (`FetchOptions.assetLinks`).
    public var android: LocationFetch?
    /// The statement lists `android` includes, fetched as Android's verifier fetches them: one level,
    /// https:// only, no redirect followed, public addresses only (unless routed by the user), at most
    /// `IncludedList.maximumFollowed`, in the file's order. Empty when there is none or none was read.
    public var androidIncludes: [IncludedList] = []
    /// Google's Digital Asset Links API answer for the site's `handle_all_urls` statements
    /// (`GoogleDAL.listURL`); nil when it was not asked (`FetchOptions.googleDALBase`) or Android's
    /// file was not fetched.
    public var googleDAL: FetchResponse?
    /// `.well-known` fetched again over the address family the first fetch did not use; nil when
    /// families are not compared (`--ip-families`) or the first fetch made no connection.
    public var otherFamily: FamilyFetch?

    public init(domain: String, wellKnown: LocationFetch, root: LocationFetch, cdn: FetchResponse? = nil,
                crawlerWellKnown: FetchResponse? = nil, crawlerRoot: FetchResponse? = nil, android: LocationFetch? = nil,
                otherFamily: FamilyFetch? = nil) {
        self.domain = domain
        self.otherFamily = otherFamily
        self.android = android
        self.wellKnown = wellKnown
        self.root = root
        self.cdn = cdn
        self.crawlerWellKnown = crawlerWellKnown
        self.crawlerRoot = crawlerRoot
    }
}

/// One transfer held to one address family.
public struct FamilyFetch: Sendable, Equatable {
    public var family: IPFamily
    /// The response; a failure with no address tried means the name has no address of this family
    /// (curl could not resolve it, or `--connect-to` names an address of the other).
    public var response: FetchResponse

    public init(family: IPFamily, response: FetchResponse) {
        self.family = family
        self.response = response
    }

    /// True when the name has no address of this family to connect to.
    public var noAddress: Bool { response.error != nil && response.addresses.isEmpty && response.primaryAddress == nil }
}

/// Google's Digital Asset Links API (developers.google.com/digital-asset-links/reference/rest/v1/statements/list).
public enum GoogleDAL {
    /// The public API; `--google-dal-base` replaces it (tests point it at a fake).
    public static let defaultBase = "https://digitalassetlinks.googleapis.com"

    /// The `statements:list` query for the site's App Links statements: Google's view of
    /// https://DOMAIN's statement list (with what it includes), from Google's cache.
    public static func listURL(base: String, domain: String) -> String {
        "\(base)/v1/statements:list?source.web.site=https://\(domain)&relation=delegate_permission/common.handle_all_urls"
    }
}

/// A statement list an assetlinks.json includes, and what its address answered.
public struct IncludedList: Sendable, Equatable {
    public var url: String
    public var fetch: LocationFetch

    /// Includes fetched per file at most: Android sets no number, a hostile file could name thousands.
    public static let maximumFollowed = 16

    public init(url: String, fetch: LocationFetch) {
        self.url = url
        self.fetch = fetch
    }
}

extension SiteFetch {
    /// The same bytes held once: most sites serve one file at both locations, to the crawler and on
    /// Apple's CDN, and a domain waiting for its audit held a buffer for each copy (about 200 KB for
    /// a 39 KB file, with each buffer's room to grow). Bodies are compared byte for byte.
    mutating func shareIdenticalBodies() {
        var kept: [Data] = []
        func share(_ body: inout Data) {
            // Up to a few bytes live inside the value itself: nothing to share.
            guard body.count > 32 else { return }
            if let same = kept.first(where: { $0 == body }) {
                body = same
            } else {
                kept.append(body)
            }
        }
        func share<Value>(_ optional: inout Value?, _ body: WritableKeyPath<Value, Data>) {
            guard var value = optional else { return }
            optional = nil  // the value is the only holder while it changes (no copy of its arrays)
            share(&value[keyPath: body])
            optional = value
        }
        share(&wellKnown.response.body)
        share(&root.response.body)
        share(&crawlerWellKnown, \.body)
        share(&crawlerRoot, \.body)
        share(&cdn, \.body)
        share(&android, \.response.body)
    }
}
