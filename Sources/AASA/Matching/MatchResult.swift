/// What Apple would do with a URL.
public enum MatchDecision: String, Sendable, Equatable, Codable, CaseIterable {
    /// A rule admits the URL: it opens the app.
    case match
    /// The first rule that applies is an exclusion (`"exclude": true`, or a legacy `"NOT "` path):
    /// the URL stays in the browser.
    case exclude
    /// No rule applies: the URL stays in the browser.
    case noMatch = "no_match"
}

/// With a fetched file (`match DOMAIN`, `match --entitlements`): the file the decision is made with
/// for devices.
public enum DeviceFile: String, Sendable, Equatable, Codable, CaseIterable {
    /// Apple's CDN copy, what iOS 14+ and macOS 11+ read.
    case appleCDN = "apple-cdn"
    /// The origin's file: Apple's CDN was not asked or not reached, or a `?mode=` entry's file.
    case origin
    /// Devices get no file (the crawler is refused, the CDN has no copy): nothing opens, and `reason`
    /// says what the origin's file would do.
    case none
}

/// The rule that decided a URL: where it is in the document and what it says.
public struct MatchRule: Sendable, Equatable, Codable {
    /// Which list the rule is in.
    public enum Kind: String, Sendable, Equatable, Codable {
        /// A component object in `components` (iOS 13+).
        case component
        /// A string in the legacy `paths`.
        case path
    }

    /// The position of the details entry among `applinks.details` (sorted by app ID in the oldest,
    /// dictionary form).
    public var details: Int
    public var kind: Kind
    /// The rule's position in `components` or `paths`.
    public var index: Int
    /// JSON pointer to the rule (`/applinks/details/0/components/2`).
    public var pointer: String
    /// The rule as written: a component as one-line JSON, or the path string.
    public var text: String

    public init(details: Int, kind: Kind, index: Int, pointer: String, text: String) {
        self.details = details
        self.kind = kind
        self.index = index
        self.pointer = pointer
        self.text = text
    }
}

/// The decision for one URL.
public struct MatchResult: Sendable, Equatable, Codable {
    /// The URL as given.
    public var url: String
    /// The decision: for `appID` when one was asked about, else for the app the link goes to.
    public var decision: MatchDecision
    /// The rule that decided, when one did (`match` and `exclude`).
    public var rule: MatchRule?
    /// Every app that would get the link, in document order.
    public var appIDs: [String]
    /// The app asked about, if any.
    public var appID: String?
    /// Why nothing could match, when the reason is not in the rules (another host, no applinks), or why the
    /// rule that matches opens nothing (its app ID is one no app can have, `URLMatcher.unusableAppIDs`).
    public var reason: String?
    /// With a fetched file: which file devices are judged by (`DeviceFile`); nil with `--file`.
    public var deviceFile: DeviceFile?

    public init(url: String, decision: MatchDecision, rule: MatchRule? = nil, appIDs: [String] = [],
                appID: String? = nil, reason: String? = nil, deviceFile: DeviceFile? = nil) {
        self.deviceFile = deviceFile
        self.url = url
        self.decision = decision
        self.rule = rule
        self.appIDs = appIDs
        self.appID = appID
        self.reason = reason
    }
}

extension MatchRule: CustomStringConvertible {
    /// Where the rule is and what it says, for messages: `details 0, component 2 { "/": "/buy/*" }`,
    /// or `details 0, path 1 "NOT /private/*"`; a long rule is cut (see `Excerpt`), `text` keeps it whole.
    public var description: String {
        let quoted = Excerpt.of(text)
        return kind == .component ? "details \(details), component \(index) \(quoted)" : "details \(details), path \(index) \"\(quoted)\""
    }
}
