/// An Android Digital Asset Links statement list (`/.well-known/assetlinks.json`), read from strict
/// JSON: a top-level array of statements. Pure: the model of the file, no judgements (those are
/// `AssetLinksValidator`'s) beyond the queries the expectations need.
///
/// Sources: Digital Asset Links, *Statement List Syntax*
/// (developers.google.com/digital-asset-links/v1/statements); Android, *Verify Android App Links*
/// (developer.android.com/training/app-links/verify-android-applinks).
public struct AssetLinksDocument: Sendable {
    /// The two relation strings Android's App Links and credential sharing read.
    public enum Relation {
        /// Android App Links: the app may open this site's URLs without asking.
        public static let handleAllURLs = "delegate_permission/common.handle_all_urls"
        /// Credential sharing between the site and the app (Smart Lock, Credential Manager).
        public static let getLoginCreds = "delegate_permission/common.get_login_creds"
        /// Both, in the order the docs list them.
        public static let known = [handleAllURLs, getLoginCreds]
    }

    /// The statements in document order; elements that are not objects are kept as `.notObject`.
    public var statements: [AssetLinksStatement]
    /// The parsed JSON the statements came from.
    public var json: JSONDocument

    /// The statement list, or nil when the JSON root is not an array (not a statement list).
    public init?(json: JSONDocument) {
        guard let elements = json.root.arrayValue else { return nil }
        self.json = json
        statements = elements.enumerated().map { index, element in
            AssetLinksStatement(element, pointer: JSONPointer.appending("", index))
        }
    }

    /// The SHA-256 fingerprints listed for `packageName` in statements that grant `relation`, in
    /// document order, as written (empty when no such statement exists).
    public func fingerprints(of packageName: String, relation: String) -> [String] {
        var result: [String] = []
        for statement in statements where statement.relations.contains(relation) {
            guard case .androidApp(let name, let fingerprints) = statement.target, name == packageName else { continue }
            for fingerprint in fingerprints where !result.contains(fingerprint) { result.append(fingerprint) }
        }
        return result
    }

    /// Whether any statement grants `relation` to `packageName` (with any fingerprint).
    public func grants(_ relation: String, to packageName: String) -> Bool {
        statements.contains { statement in
            guard statement.relations.contains(relation), case .androidApp(let name, _) = statement.target else { return false }
            return name == packageName
        }
    }

    /// The package names that appear in `android_app` targets, in document order, each once.
    public var packageNames: [String] {
        var result: [String] = []
        for statement in statements {
            if case .androidApp(let name?, _) = statement.target, !result.contains(name) { result.append(name) }
        }
        return result
    }

    /// The `include` URLs, in document order, as written.
    public var includes: [String] { statements.compactMap(\.include) }

    /// The included lists Android's verifier fetches: each `https://` include, once, in document order
    /// (Android 12's `UrlFetcher` opens an `HttpsURLConnection`, so an http:// list is never read).
    public var followedIncludes: [String] {
        var result: [String] = []
        for url in includes where Self.isFollowed(url) && !result.contains(url) { result.append(url) }
        return result
    }

    /// Whether Android fetches an include of this address: an https:// URL with something after the scheme.
    public static func isFollowed(_ url: String) -> Bool {
        url.lowercased().hasPrefix("https://") && url.count > "https://".count
    }

    /// `followedIncludes` of the statement list in `bytes`; empty when they are not one. For the fetch,
    /// which follows them one level as Android does (`AssetLinksFile.includeLevels`).
    public static func followedIncludes(in bytes: [UInt8]) -> [String] {
        guard let json = try? JSONParser.parse(bytes), let document = AssetLinksDocument(json: json) else { return [] }
        return document.followedIncludes
    }

    /// This list with `other`'s statements after its own: what Android reads for a site whose file
    /// includes `other` (the included statements count as the including file's, AOSP `StatementRetriever`).
    public func including(_ other: AssetLinksDocument) -> AssetLinksDocument {
        var merged = self
        merged.statements += other.statements.filter { $0.include == nil }
        return merged
    }
}

/// One element of the statement list, read leniently: wrong types become nil or empty here and are
/// reported by `AssetLinksValidator`, which reads the raw value again.
public struct AssetLinksStatement: Sendable {
    /// JSON pointer of the statement (`/0`).
    public var pointer: String
    /// The element as written.
    public var value: JSONValue
    /// The relation strings (non-strings left out).
    public var relations: [String]
    /// The target, when there is a `target` object.
    public var target: AssetLinksTarget?
    /// The `include` URL of an include statement.
    public var include: String?

    init(_ value: JSONValue, pointer: String) {
        self.pointer = pointer
        self.value = value
        let object = value.objectValue
        relations = object?["relation"]?.arrayValue?.compactMap(\.stringValue) ?? []
        include = object?["include"]?.stringValue
        target = object?["target"]?.objectValue.map(AssetLinksTarget.init)
    }
}

/// What a statement is about.
public enum AssetLinksTarget: Sendable, Equatable {
    /// `namespace` `android_app`: an app named by package and signing-certificate fingerprints.
    case androidApp(packageName: String?, fingerprints: [String])
    /// `namespace` `web`: a site origin.
    case web(site: String?)
    /// Any other namespace (or none).
    case other(namespace: String?)

    init(_ object: JSONObject) {
        switch object["namespace"]?.stringValue {
        case "android_app":
            self = .androidApp(packageName: object["package_name"]?.stringValue,
                               fingerprints: object["sha256_cert_fingerprints"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        case "web":
            self = .web(site: object["site"]?.stringValue)
        case let namespace:
            self = .other(namespace: namespace)
        }
    }
}
