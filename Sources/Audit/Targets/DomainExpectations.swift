/// What the owner of a domain expects its file to do, written after the domain in `domains.txt`:
///
///     example.com  app=ABCDE12345.com.example.app  opens=/buy/42  stays=/help/website/faq
///
/// Checked by `ExpectationCheck` against the file Apple would use. Empty for a plain domain line.
public struct DomainExpectations: Sendable, Equatable, Codable {
    /// `app=APPID`: the app must have an `applinks.details` entry; `opens=` is checked for each.
    public var apps: [String]
    /// `opens=/path?query#fragment`: the URL on this domain must open the app (each `app=`, or any app).
    public var opens: [String]
    /// `stays=/path`: the URL must stay in the browser (no app gets it).
    public var stays: [String]
    /// `webcredentials=APPID`: the app must be listed in `webcredentials.apps`.
    public var webcredentials: [String]
    /// `appclip=APPID`: the App Clip must be listed in `appclips.apps`.
    public var appclips: [String]

    public init(apps: [String] = [], opens: [String] = [], stays: [String] = [], webcredentials: [String] = [], appclips: [String] = []) {
        self.apps = apps
        self.opens = opens
        self.stays = stays
        self.webcredentials = webcredentials
        self.appclips = appclips
    }

    /// The keys a token may use, as the README lists them.
    public static let keys = ["app", "opens", "stays", "webcredentials", "appclip"]

    /// True when nothing is expected.
    public var isEmpty: Bool { count == 0 }

    /// How many expectations there are.
    public var count: Int { apps.count + opens.count + stays.count + webcredentials.count + appclips.count }

    /// Adds `other`'s expectations (a domain listed on several lines), skipping repeats.
    public mutating func add(_ other: DomainExpectations) {
        func merge(_ list: inout [String], _ more: [String]) { for item in more where !list.contains(item) { list.append(item) } }
        merge(&apps, other.apps)
        merge(&opens, other.opens)
        merge(&stays, other.stays)
        merge(&webcredentials, other.webcredentials)
        merge(&appclips, other.appclips)
    }

    /// Parses the tokens after the domain; throws the first malformed token with the reason.
    public static func parse(_ tokens: [Substring]) throws(ExpectationSyntaxError) -> DomainExpectations {
        var result = DomainExpectations()
        for token in tokens {
            guard let equals = token.firstIndex(of: "=") else {
                throw ExpectationSyntaxError(token: String(token), reason: "not KEY=VALUE; the keys are \(keys.joined(separator: ", "))")
            }
            let key = String(token[..<equals])
            let value = String(token[token.index(after: equals)...])
            guard !value.isEmpty else {
                throw ExpectationSyntaxError(token: String(token), reason: "\(key)= needs a value")
            }
            switch key {
            case "app", "webcredentials", "appclip":
                if let reason = appIDProblem(value) { throw ExpectationSyntaxError(token: String(token), reason: reason) }
                if key == "app" { result.apps.append(value) } else if key == "appclip" { result.appclips.append(value) } else { result.webcredentials.append(value) }
            case "opens", "stays":
                guard value.hasPrefix("/") else {
                    throw ExpectationSyntaxError(token: String(token), reason: "\(key)= takes a path on this domain starting with \"/\" (query and fragment allowed), e.g. \(key)=/buy/42")
                }
                if key == "opens" { result.opens.append(value) } else { result.stays.append(value) }
            default:
                let near = keys.first { $0.lowercased() == key.lowercased() || $0 + "s" == key || $0 == key + "s" }
                throw ExpectationSyntaxError(token: String(token),
                                             reason: "unknown key \"\(key)\"" + (near.map { "; did you mean \($0)=?" } ?? "; the keys are \(keys.joined(separator: ", "))"))
            }
        }
        return result
    }

    /// Why `value` cannot be an app ID (`TEAMID.bundle.id`), or nil.
    static func appIDProblem(_ value: String) -> String? {
        guard let dot = value.firstIndex(of: "."), dot != value.startIndex, value.index(after: dot) != value.endIndex else {
            return "\"\(value)\" is not an app ID; write the team ID, a dot and the bundle ID (ABCDE12345.com.example.app)"
        }
        return nil
    }
}

/// A malformed expectation token in a domain list.
public struct ExpectationSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The token as written.
    public var token: String
    /// What is wrong with it.
    public var reason: String

    public var description: String { "expectation \"\(token)\": \(reason)" }
}
