import Testing

@testable import AndroidPackage

/// Android's rules for which hosts it verifies (DomainVerificationCollector), on manifests as values.
@Suite struct AppLinkHostsTests {
    typealias Filter = AndroidManifest.IntentFilter
    static let view = "android.intent.action.VIEW", browsable = "android.intent.category.BROWSABLE", byDefault = "android.intent.category.DEFAULT"

    static func filter(autoVerify: Bool = true, actions: [String] = [view], categories: [String] = [byDefault, browsable],
                       schemes: [String] = ["https"], hosts: [String]) -> Filter {
        Filter(component: ".Main", autoVerify: autoVerify, actions: actions, categories: categories, schemes: schemes, hosts: hosts, line: 1)
    }

    static func hosts(_ filters: [Filter], target: Int? = 34) -> [String] {
        let manifest = AndroidManifest(packageName: "p.q", minSdkVersion: nil, targetSdkVersion: target, intentFilters: filters, unresolved: [])
        return AppLinkHosts(manifest).hosts.map(\.declared)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var filters: [Filter]
        var target: Int?
        var expected: [String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "an App Links filter", filters: [filter(hosts: ["a.test", "b.test"])], target: 34, expected: ["a.test", "b.test"]),
        Case(name: "API 31+: no autoVerify", filters: [filter(autoVerify: false, hosts: ["a.test"])], target: 31, expected: []),
        Case(name: "API 31+: DEFAULT is required", filters: [filter(categories: [browsable], hosts: ["a.test"])], target: 31, expected: []),
        Case(name: "API 31+: BROWSABLE is required", filters: [filter(categories: [byDefault], hosts: ["a.test"])], target: 31, expected: []),
        Case(name: "API 31+: VIEW is required", filters: [filter(actions: ["android.intent.action.SEND"], hosts: ["a.test"])], target: 31, expected: []),
        Case(name: "API 31+: a custom scheme beside https disqualifies", filters: [filter(schemes: ["https", "shop"], hosts: ["a.test"])], target: 31, expected: []),
        Case(name: "API 31+: no scheme disqualifies", filters: [filter(schemes: [], hosts: ["a.test"])], target: 31, expected: []),
        Case(name: "http alone qualifies", filters: [filter(schemes: ["http"], hosts: ["a.test"])], target: 31, expected: ["a.test"]),
        Case(name: "legacy: one autoVerify filter verifies every web filter",
             filters: [filter(hosts: ["a.test"]), filter(autoVerify: false, categories: [browsable], schemes: ["https", "shop"], hosts: ["b.test"])],
             target: 30, expected: ["a.test", "b.test"]),
        Case(name: "legacy: no autoVerify filter, nothing", filters: [filter(autoVerify: false, hosts: ["a.test"])], target: 30, expected: []),
        Case(name: "legacy: an autoVerify filter with a custom scheme does not count",
             filters: [filter(schemes: ["https", "shop"], hosts: ["a.test"])], target: 30, expected: []),
        Case(name: "no uses-sdk: legacy rules", filters: [filter(hosts: ["a.test"]), filter(autoVerify: false, hosts: ["b.test"])], target: nil, expected: ["a.test", "b.test"]),
        Case(name: "a host listed twice is verified once", filters: [filter(hosts: ["a.test"]), filter(hosts: ["a.test"])], target: 34, expected: ["a.test"]),
    ]

    @Test(arguments: cases)
    func android(_ example: Case) {
        #expect(Self.hosts(example.filters, target: example.target) == example.expected)
    }

    @Test(arguments: [
        ("example.com", true), ("*.example.com", true), ("shop.co.uk", true), ("xn--bcher-kva.example", true), ("bücher.example", true),
        ("192.168.0.1", true), ("localhost", false), ("*.com", false), ("example", false), ("exa mple.com", false), ("-a.example.com", false),
        ("a..example.com", false), ("example.c", false), ("example.123", false), ("", false), ("*.", false),
    ])
    func domainNamesAsAndroidMatchesThem(host: String, valid: Bool) {
        #expect(AppLinkHosts.isDomainName(host) == valid)
    }

    @Test func wildcardsAreVerifiedAtTheirParentAndInvalidHostsAreListedApart() {
        let manifest = AndroidManifest(packageName: "p.q", minSdkVersion: nil, targetSdkVersion: 34,
                                       intentFilters: [Self.filter(hosts: ["*.Shop.test", "localhost"])], unresolved: [])
        let hosts = AppLinkHosts(manifest)
        #expect(hosts.hosts == [AppLinkHosts.Host(declared: "*.Shop.test", fileHost: "shop.test")])
        #expect(hosts.hosts.first?.wildcard == true)
        #expect(hosts.invalid == ["localhost"])
    }

    @Test func collectionStopsAtTheHostLimit() {
        var limits = APKReadLimits.standard
        limits.hostBytes = 12
        let manifest = AndroidManifest(packageName: "p.q", minSdkVersion: nil, targetSdkVersion: 34,
                                       intentFilters: [Self.filter(hosts: ["a.test", "b.test", "c.test"])], unresolved: [])
        #expect(AppLinkHosts(manifest, limits: limits).hosts.map(\.declared) == ["a.test", "b.test"])
    }
}
