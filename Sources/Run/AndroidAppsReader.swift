import AndroidPackage
import Audit

/// Reads each `--apk` file and adds the hosts Android verifies for it to the domain list, each with
/// the app's package and signing fingerprints (and those given with `--sha256`) as expectations. An
/// APK that cannot be read ends the run (`readFiles`); one with no verified host becomes an input
/// error of the list (the others are still audited).
enum AndroidAppsReader {
    /// Each `--apk` file read, once; one that cannot be read (missing, not an APK, no manifest) is a
    /// problem of `problems`, which ends the run before the domain list is read (as `--entitlements`).
    static func readFiles(_ paths: [String], into problems: inout DomainList) -> [(path: String, app: AndroidApp)] {
        var read: [(path: String, app: AndroidApp)] = []
        var seen = Set<String>()
        for path in paths where seen.insert(path).inserted {
            do {
                read.append((path, try AndroidPackageFile.read(at: path)))
            } catch {
                let inside = error.source == path ? "" : " (\(error.source))"
                problems.add(androidAppProblem: "cannot read the APK\(inside): \(error.reason)", source: path)
            }
        }
        return read
    }

    /// The apps read, each app's hosts added to `list`; `notes` gets each app's hosts Android drops and
    /// what was not resolved, when any. An app with no host Android verifies is a problem of the list.
    static func add(_ read: [(path: String, app: AndroidApp)], playKeys: [String], into list: inout DomainList, notes: (RunEvent) -> Void) -> [AndroidApp] {
        var apps: [AndroidApp] = []
        for (path, app) in read {
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
