/// With both `--entitlements` and `--apk`: the link hosts one platform's apps claim and the other's do
/// not (iOS: `applinks:` entries as written, `*.example.com` included; Android: the hosts of the
/// intent filters Android verifies, as declared). Information for the reader: which hosts a web team
/// may have set up for one platform only. Computed once in `Run`, stored in `AuditReport.appLinkHosts`,
/// rendered by the reporters.
public struct AppLinkHostComparison: Sendable, Equatable, Codable {
    /// Claimed by the iOS apps and by no Android app, in the order the apps list them.
    public var appleOnly: [String]
    /// Claimed by the Android apps and by no iOS app.
    public var androidOnly: [String]
    /// How many hosts both claim.
    public var shared: Int

    public init(appleOnly: [String], androidOnly: [String], shared: Int) {
        self.appleOnly = appleOnly
        self.androidOnly = androidOnly
        self.shared = shared
    }

    /// The comparison of two host lists (each without repeats).
    public init(apple: [String], android: [String]) {
        appleOnly = apple.filter { !android.contains($0) }
        androidOnly = android.filter { !apple.contains($0) }
        shared = apple.filter(android.contains).count
    }

    /// True when the two platforms' apps claim the same hosts.
    public var agrees: Bool { appleOnly.isEmpty && androidOnly.isEmpty }

    /// The sentence every reporter opens the comparison with.
    public var summary: String {
        if agrees {
            return shared == 1 ? "The iOS and Android apps claim the same link host." : "The iOS and Android apps claim the same \(shared) link hosts."
        }
        return "The iOS apps (applinks: entries) and the Android apps (verified intent filters) do not claim the same link hosts: "
            + "\(appleOnly.count) only by the iOS apps, \(androidOnly.count) only by the Android apps, \(shared) by both. "
            + "A host claimed for one platform only opens links in the app on that platform alone."
    }
}
