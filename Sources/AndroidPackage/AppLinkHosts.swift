/// The hosts Android asks its verifier to check for an app, by the rules of AOSP's
/// `DomainVerificationCollector` (frameworks/base, services/core/java/com/android/server/pm/verify/domain):
///
/// - An app targeting Android 12 (API 31) or later (change `RESTRICT_DOMAINS`): each intent filter
///   with `android:autoVerify="true"`, action `VIEW`, categories `BROWSABLE` and `DEFAULT`, and
///   schemes that are only `http` and/or `https` (at least one) contributes all its hosts.
/// - An older app: when any filter has `autoVerify="true"`, action `VIEW`, `BROWSABLE` and only web
///   schemes (`IntentFilter.needsVerification`), every filter with action `VIEW`, `BROWSABLE` and at
///   least one web scheme contributes its hosts, `autoVerify` or not and without needing `DEFAULT`.
///
/// A host must look like a domain name (Android's `Patterns.DOMAIN_NAME`, optionally behind `*.`);
/// others are listed apart, as Android drops them. A wildcard host `*.example.com` is verified
/// against the file at `example.com` (Android's "Verify Android App Links" documentation).
public struct AppLinkHosts: Sendable, Equatable, Codable {
    /// One verified host.
    public struct Host: Sendable, Equatable, Codable {
        /// As the manifest writes it (`*.example.com`).
        public var declared: String
        /// The host whose `/.well-known/assetlinks.json` Android fetches (`example.com`), lower-cased.
        public var fileHost: String
        /// Declared with `*.`: it covers the subdomains too.
        public var wildcard: Bool { declared.hasPrefix("*.") }
    }

    /// Which of Android's two rule sets applied.
    public enum Rules: String, Sendable, Equatable, Codable {
        /// Target API 31 or later: only the autoVerify filters, which need DEFAULT too.
        case android12
        /// Target below 31: any autoVerify filter makes every web filter's hosts verified.
        case legacy
    }

    public var rules: Rules
    /// The hosts verified, in manifest order, each once.
    public var hosts: [Host]
    /// Hosts of qualifying filters that are not domain names (`localhost`, `exa mple.com`): Android drops them.
    public var invalid: [String]

    /// The target API level Android applies the rules by: targetSdkVersion, else minSdkVersion, else 1.
    public static func effectiveTarget(_ manifest: AndroidManifest) -> Int {
        manifest.targetSdkVersion ?? manifest.minSdkVersion ?? 1
    }

    /// The hosts Android verifies for `manifest`; collection stops past `limits.hostBytes`, as
    /// Android's collector stops at 1 MB of hosts.
    public init(_ manifest: AndroidManifest, limits: APKReadLimits = .standard) {
        let modern = Self.effectiveTarget(manifest) >= 31
        rules = modern ? .android12 : .legacy
        let filters: [AndroidManifest.IntentFilter]
        if modern {
            filters = manifest.intentFilters.filter { $0.autoVerify && $0.categories.contains(Self.defaultCategory) && Self.handlesWebURIs($0, onlyWebSchemes: true) }
        } else if manifest.intentFilters.contains(where: { $0.autoVerify && Self.handlesWebURIs($0, onlyWebSchemes: true) }) {
            filters = manifest.intentFilters.filter { Self.handlesWebURIs($0, onlyWebSchemes: false) }
        } else {
            filters = []
        }
        var hosts: [Host] = []
        var invalid: [String] = []
        var seen = Set<String>()
        var bytes = 0
        collect: for filter in filters {
            for host in filter.hosts where seen.insert(host).inserted {
                bytes += host.utf8.count
                guard bytes <= limits.hostBytes else { break collect }
                if Self.isDomainName(host) {
                    let bare = host.hasPrefix("*.") ? String(host.dropFirst(2)) : host
                    hosts.append(Host(declared: host, fileHost: bare.lowercased()))
                } else {
                    invalid.append(host)
                }
            }
        }
        self.hosts = hosts
        self.invalid = invalid
    }

    static let viewAction = "android.intent.action.VIEW"
    static let browsableCategory = "android.intent.category.BROWSABLE"
    static let defaultCategory = "android.intent.category.DEFAULT"

    /// `IntentFilter.handlesWebUris`: action VIEW, category BROWSABLE, at least one scheme, and then
    /// either only http/https (`onlyWebSchemes`) or at least one of them.
    static func handlesWebURIs(_ filter: AndroidManifest.IntentFilter, onlyWebSchemes: Bool) -> Bool {
        guard filter.actions.contains(viewAction), filter.categories.contains(browsableCategory), !filter.schemes.isEmpty else { return false }
        let web = filter.schemes.map { $0 == "http" || $0 == "https" }
        return onlyWebSchemes ? web.allSatisfy { $0 } : web.contains(true)
    }

    /// Android's `Patterns.DOMAIN_NAME` behind an optional `*.`: labels of letters, digits and
    /// hyphens (not at a label's ends; non-ASCII letters allowed, as Android's IRI labels are),
    /// at least two labels, a last label of two or more letters or an `xn--` label; or an IPv4 address.
    static func isDomainName(_ host: String) -> Bool {
        let name = host.hasPrefix("*.") ? Substring(host.dropFirst(2)) : Substring(host)
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        if labels.count == 4, labels.allSatisfy({ label in label.count <= 3 && !label.isEmpty && label.allSatisfy(\.isASCII) && label.allSatisfy(\.isNumber) && Int(label).map { $0 <= 255 } == true }) {
            return true
        }
        guard labels.count >= 2, name.utf8.count <= 253 else { return false }
        for label in labels {
            guard !label.isEmpty, label.count <= 63, label.first != "-", label.last != "-",
                  label.allSatisfy({ $0 == "-" || $0.isLetter || $0.isNumber }) else { return false }
        }
        guard let last = labels.last else { return false }
        return last.lowercased().hasPrefix("xn--") || (last.count >= 2 && last.allSatisfy(\.isLetter))
    }
}
