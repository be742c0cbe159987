import AndroidPackage
import Audit

/// Reads each `--apk` file and adds the hosts Android verifies for it to the domain list, each with
/// the app's package and signing fingerprints (and those given with `--sha256`) as expectations. An
/// APK that cannot be audited becomes an input error of the list (the others are still audited).
enum AndroidAppsReader {
    /// The apps read; `notes` gets each app's hosts Android drops and what was not resolved, when any.
    static func read(_ paths: [String], playKeys: [String], into list: inout DomainList, notes: (RunEvent) -> Void) -> [AndroidApp] {
        var apps: [AndroidApp] = []
        var seen = Set<String>()
        for path in paths where seen.insert(path).inserted {
            let app: AndroidApp
            do {
                app = try AndroidPackageFile.read(at: path)
            } catch {
                let inside = error.source == path ? "" : " (\(error.source))"
                list.add(androidAppProblem: "cannot read the APK\(inside): \(error.reason)", source: path)
                continue
            }
            if !app.manifest.unresolved.isEmpty || !app.appLinkHosts.invalid.isEmpty {
                notes(.androidAppNotes(apk: path, droppedHosts: app.appLinkHosts.invalid, unresolved: app.manifest.unresolved))
            }
            guard !app.appLinkHosts.hosts.isEmpty else {
                let rules = app.appLinkHosts.rules == .android12
                    ? "an intent filter with android:autoVerify=\"true\", action VIEW, categories BROWSABLE and DEFAULT, and only http/https schemes"
                    : "an intent filter with android:autoVerify=\"true\", action VIEW, category BROWSABLE and only http/https schemes"
                list.add(androidAppProblem: "\(app.packageName) has no App Links host that Android verifies: it needs \(rules), with a host (target API \(AppLinkHosts.effectiveTarget(app.manifest)))", source: path)
                continue
            }
            var fingerprints = app.signing.fingerprints
            for key in playKeys where !fingerprints.contains(key) { fingerprints.append(key) }
            var hosts: [String] = []
            for host in app.appLinkHosts.hosts where !hosts.contains(host.fileHost) { hosts.append(host.fileHost) }
            list.add(androidApp: app.packageName, fingerprints: fingerprints, hosts: hosts, source: path)
            apps.append(app)
        }
        return apps
    }

    /// With both `--entitlements` and `--apk`: the hosts whose links the iOS apps claim (applinks:
    /// entries, as written: `*.example.com`) and the Android apps do not, and the other way round.
    static func comparison(apple: [AppClaims], android: [AndroidApp]) -> AppLinkHostComparison {
        var appleHosts: [String] = []
        for app in apple {
            for entry in app.entries where entry.service == .applinks && !appleHosts.contains(entry.pattern) { appleHosts.append(entry.pattern) }
        }
        var androidHosts: [String] = []
        for app in android {
            for host in app.appLinkHosts.hosts where !androidHosts.contains(host.declared.lowercased()) { androidHosts.append(host.declared.lowercased()) }
        }
        return AppLinkHostComparison(apple: appleHosts, android: androidHosts)
    }
}
