import AASA

/// What the owner of a domain expects its file to do, written after the domain in `domains.txt`:
///
///     example.com  app=<TeamID>.com.yourcompany.app  opens=/buy/42  stays=/help/website/faq
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
    /// `activitycontinuation=APPID`: the app must be listed in `activitycontinuation.apps` (Handoff).
    public var activityContinuation: [String] = []
    /// `android=PACKAGE`: assetlinks.json must grant `delegate_permission/common.handle_all_urls` to the package.
    public var androidApps: [String]
    /// `android-creds=PACKAGE`: assetlinks.json must grant `delegate_permission/common.get_login_creds` to the package.
    public var androidCredentials: [String]
    /// `sha256=AA:BB:…`: each fingerprint must be listed for every `android=`/`android-creds=` package
    /// (canonical form: upper case, colons).
    public var fingerprints: [String]
    /// `platforms=apple,android` (either or both): the platforms the domain is claimed for; empty when
    /// not written (Apple's, with Android's too when there are Android expectations or `--android`).
    /// `platforms=android` alone makes the domain Android-only: it needs no AASA file.
    public var platforms: [String] = []
    /// The `--apk` files whose verified hosts gave this domain its Android expectations (not a token:
    /// the audit names them in the Play App Signing note).
    public var apkFiles: [String] = []

    public init(apps: [String] = [], opens: [String] = [], stays: [String] = [], webcredentials: [String] = [], appclips: [String] = [],
                androidApps: [String] = [], androidCredentials: [String] = [], fingerprints: [String] = [],
                activityContinuation: [String] = []) {
        self.activityContinuation = activityContinuation
        self.apps = apps
        self.opens = opens
        self.stays = stays
        self.webcredentials = webcredentials
        self.appclips = appclips
        self.androidApps = androidApps
        self.androidCredentials = androidCredentials
        self.fingerprints = fingerprints
    }

    /// Reads expectations saved before the Android keys existed (they default to none).
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        apps = try container.decode([String].self, forKey: .apps)
        opens = try container.decode([String].self, forKey: .opens)
        stays = try container.decode([String].self, forKey: .stays)
        webcredentials = try container.decode([String].self, forKey: .webcredentials)
        appclips = try container.decode([String].self, forKey: .appclips)
        androidApps = try container.decodeIfPresent([String].self, forKey: .androidApps) ?? []
        androidCredentials = try container.decodeIfPresent([String].self, forKey: .androidCredentials) ?? []
        fingerprints = try container.decodeIfPresent([String].self, forKey: .fingerprints) ?? []
        activityContinuation = try container.decodeIfPresent([String].self, forKey: .activityContinuation) ?? []
        platforms = try container.decodeIfPresent([String].self, forKey: .platforms) ?? []
        apkFiles = try container.decodeIfPresent([String].self, forKey: .apkFiles) ?? []
    }

    enum CodingKeys: String, CodingKey {
        case apps, opens, stays, webcredentials, appclips, activityContinuation, androidApps, androidCredentials, fingerprints, platforms, apkFiles
    }

    /// Writes the expectations; `platforms` and `apkFiles` only when set, so a report of a run that uses
    /// neither is what it was before they existed.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(apps, forKey: .apps)
        try container.encode(opens, forKey: .opens)
        try container.encode(stays, forKey: .stays)
        try container.encode(webcredentials, forKey: .webcredentials)
        try container.encode(appclips, forKey: .appclips)
        try container.encode(activityContinuation, forKey: .activityContinuation)
        try container.encode(androidApps, forKey: .androidApps)
        try container.encode(androidCredentials, forKey: .androidCredentials)
        try container.encode(fingerprints, forKey: .fingerprints)
        if !platforms.isEmpty { try container.encode(platforms, forKey: .platforms) }
        if !apkFiles.isEmpty { try container.encode(apkFiles, forKey: .apkFiles) }
    }

    /// The platforms `platforms=` may name.
    public static let platformNames = ["apple", "android"]

    /// Claimed for Android alone (`platforms=android`, or only by `--apk`): no AASA file is needed.
    public var isAndroidOnly: Bool { platforms == ["android"] }

    /// Whether assetlinks.json is audited for the domain: Android expectations, or `platforms=` naming Android.
    public var auditsAndroid: Bool { androidCount > 0 || platforms.contains("android") }

    /// The keys a token may use, as the README lists them.
    public static let keys = ["app", "opens", "stays", "webcredentials", "appclip", "activitycontinuation", "android", "android-creds", "sha256", "platforms"]

    /// True when nothing is expected.
    public var isEmpty: Bool { count == 0 }

    /// How many expectations there are, Apple's and Android's.
    public var count: Int { appleCount + androidCount + platforms.count }

    /// How many expectations are about the Apple file.
    public var appleCount: Int { apps.count + opens.count + stays.count + webcredentials.count + appclips.count + activityContinuation.count }

    /// How many expectations are about assetlinks.json (`android=`, `android-creds=`, `sha256=`); any
    /// makes the audit fetch the domain's assetlinks.json.
    public var androidCount: Int { androidApps.count + androidCredentials.count + fingerprints.count }

    /// Adds `other`'s expectations (a domain listed on several lines), skipping repeats. Linear in
    /// both lists; a caller adding many times to one domain keeps `seen` between calls instead
    /// (`add(_:seen:)`), so that a list of half a million lines for one domain stays linear.
    public mutating func add(_ other: DomainExpectations) {
        var seen = tokens
        add(other, seen: &seen)
    }

    /// Adds `other`'s expectations that are not in `seen` (tokens as `KEY=VALUE`, kept by the caller
    /// across calls and updated here): constant time per expectation.
    public mutating func add(_ other: DomainExpectations, seen: inout Set<String>) {
        func merge(_ key: String, _ list: inout [String], _ more: [String]) {
            for item in more where seen.insert(key + "=" + item).inserted { list.append(item) }
        }
        merge("app", &apps, other.apps)
        merge("opens", &opens, other.opens)
        merge("stays", &stays, other.stays)
        merge("webcredentials", &webcredentials, other.webcredentials)
        merge("appclip", &appclips, other.appclips)
        merge("activitycontinuation", &activityContinuation, other.activityContinuation)
        merge("android", &androidApps, other.androidApps)
        merge("android-creds", &androidCredentials, other.androidCredentials)
        merge("sha256", &fingerprints, other.fingerprints)
        merge("platforms", &platforms, other.platforms)
        for file in other.apkFiles where !apkFiles.contains(file) { apkFiles.append(file) }
    }

    /// Every expectation as the token that wrote it (`KEY=VALUE`).
    public var tokens: Set<String> {
        var all = Set<String>(minimumCapacity: count)
        for (key, list) in [("app", apps), ("opens", opens), ("stays", stays), ("webcredentials", webcredentials), ("appclip", appclips),
                            ("activitycontinuation", activityContinuation), ("android", androidApps), ("android-creds", androidCredentials), ("sha256", fingerprints), ("platforms", platforms)] {
            for item in list { all.insert(key + "=" + item) }
        }
        return all
    }

    /// Parses the tokens after the domain; throws the first malformed token with the reason.
    public static func parse(_ tokens: [Substring]) throws(ExpectationSyntaxError) -> DomainExpectations {
        let (result, errors) = parseSkippingErrors(tokens)
        if let first = errors.first { throw first }
        return result
    }

    /// Parses the tokens after the domain, skipping each malformed token: the good ones are kept
    /// (the domain is still audited with them) and every bad one is returned with its reason.
    public static func parseSkippingErrors(_ tokens: [Substring]) -> (DomainExpectations, [ExpectationSyntaxError]) {
        var result = DomainExpectations()
        var errors: [ExpectationSyntaxError] = []
        for token in tokens {
            do throws(ExpectationSyntaxError) {
                try parse(token, into: &result)
            } catch {
                errors.append(error)
            }
        }
        return (result, errors)
    }

    /// Parses one `KEY=VALUE` token into `result`.
    private static func parse(_ token: Substring, into result: inout DomainExpectations) throws(ExpectationSyntaxError) {
        guard let equals = token.firstIndex(of: "=") else {
            throw ExpectationSyntaxError(token: String(token), reason: "not KEY=VALUE; the keys are \(keys.joined(separator: ", "))")
        }
        let key = String(token[..<equals])
        let value = String(token[token.index(after: equals)...])
        guard !value.isEmpty else {
            throw ExpectationSyntaxError(token: String(token), reason: "\(key)= needs a value; write it right after \"=\", with no space, e.g. \(key == "opens" || key == "stays" ? key + "=/buy/42" : key + "=<TeamID>.com.yourcompany.app")")
        }
        switch key {
        case "app", "webcredentials", "appclip", "activitycontinuation":
            if let reason = appIDProblem(value) { throw ExpectationSyntaxError(token: String(token), reason: reason) }
            switch key {
            case "app": result.apps.append(value)
            case "appclip": result.appclips.append(value)
            case "activitycontinuation": result.activityContinuation.append(value)
            default: result.webcredentials.append(value)
            }
        case "android", "android-creds":
            if let problem = AssetLinksStatementCheck.packageNameProblem(value) {
                throw ExpectationSyntaxError(token: String(token), reason: "\"\(value)\" is not an Android package name: \(problem)")
            }
            if key == "android" { result.androidApps.append(value) } else { result.androidCredentials.append(value) }
        case "platforms":
            let names = value.lowercased().split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard !names.isEmpty, names.allSatisfy(platformNames.contains) else {
                throw ExpectationSyntaxError(token: String(token), reason: "platforms= takes apple, android or apple,android (the platforms the domain is claimed for)")
            }
            for name in platformNames where names.contains(name) && !result.platforms.contains(name) { result.platforms.append(name) }
        case "sha256":
            if let sha1 = sha1Fingerprint(value) {
                throw ExpectationSyntaxError(token: String(token), reason: "\(sha1) is a SHA-1 fingerprint (20 bytes); Android App Links compare the SHA-256 fingerprint of the signing certificate (32 bytes: keytool -list -v or apksigner verify --print-certs prints both)")
            }
            guard let canonical = SHA256Fingerprint.normalized(value) else {
                throw ExpectationSyntaxError(token: String(token), reason: "sha256= takes a SHA-256 certificate fingerprint, 32 hex bytes (AA:BB:…:FF, as keytool prints it)")
            }
            result.fingerprints.append(canonical)
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

    /// `value` in canonical form when it is a SHA-1 fingerprint (20 hex bytes), else nil.
    static func sha1Fingerprint(_ value: String) -> String? {
        let hex = value.unicodeScalars.filter { $0 != ":" }
        guard hex.count == 40, hex.allSatisfy({ $0.properties.isASCIIHexDigit }) else { return nil }
        var result = ""
        for (index, scalar) in hex.enumerated() {
            if index > 0 && index % 2 == 0 { result.append(":") }
            result.unicodeScalars.append(scalar)
        }
        return result.uppercased()
    }

    /// Why `value` cannot be an app ID (`TEAMID.bundle.id`), or nil.
    static func appIDProblem(_ value: String) -> String? {
        guard let dot = value.firstIndex(of: "."), dot != value.startIndex, value.index(after: dot) != value.endIndex else {
            return "\"\(value)\" is not an app ID; write the team ID, a dot and the bundle ID (<TeamID>.com.yourcompany.app)"
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
