extension DomainList {
    /// Adds the hosts the apps' entitlement entries need (each entry at the host whose file Apple reads
    /// for it) with their claims: a host already in the list keeps its place and expectations and gets
    /// the claims too; a new host is appended, placed at its first entry (`FILE:INDEX`). The apps'
    /// unusable entries become problems of the list. Returns the hosts read only straight from the
    /// origin: new hosts whose every claim has `?mode=` (no CDN copy or crawler fetch for them).
    @discardableResult
    public mutating func add(apps: [AppClaims]) -> Set<String> {
        var position: [String: Int] = [:]
        for (index, entry) in entries.enumerated() where position[entry.name.ascii] == nil { position[entry.name.ascii] = index }
        let fromList = Set(position.keys)
        var viaCDN = Set<String>()
        for app in apps {
            for problem in app.problems { record(problem) }
            for (host, claims) in app.claimsByHost {
                if claims.contains(where: { $0.entry.mode == nil }) { viaCDN.insert(host) }
                if let index = position[host] {
                    entries[index].claims += claims
                    continue
                }
                guard let first = claims.first else { continue }
                let name: DomainName
                do {
                    name = try DomainName.parse(host).name
                } catch {
                    // The entry's host was parsed as a DomainName already; this cannot fail for it.
                    record(InputProblem(file: app.source, line: first.entry.index, text: first.entry.text, reason: error.description))
                    continue
                }
                position[host] = entries.count
                entries.append(DomainEntry(name: name, file: app.source, line: first.entry.index, text: first.entry.text))
                entries[entries.count - 1].claims = claims
            }
        }
        return Set(entries.map(\.name.ascii)).subtracting(fromList).subtracting(viaCDN)
    }
}

extension DomainList {
    /// Records an app that cannot be audited at all (its entitlements unreadable, no usable app ID) as
    /// an input error of the list: the other apps and domains are still audited, and the run exits 2.
    public mutating func add(appProblem reason: String, source: String) {
        record(InputProblem(file: source, line: 0, text: "--entitlements \(source)", reason: reason))
    }
}

/// One `--entitlements FILE`, with the `--app-id` given after it (before the next `--entitlements`).
public struct EntitlementsInput: Sendable, Hashable {
    public var path: String
    public var appID: String?

    public init(path: String, appID: String? = nil) {
        self.path = path
        self.appID = appID
    }
}

extension DomainList {
    /// Adds the hosts an Android app (`--apk`) has Android verify, each with the expectation that its
    /// assetlinks.json grants `handle_all_urls` to `package` with every one of `fingerprints`: a host
    /// already in the list keeps its place and gets the expectations too (it stays audited for the
    /// platforms it had); a new host is appended, claimed for Android alone (`platforms=android`: it
    /// needs no AASA file). `source` is the APK's path, named in the Play App Signing note.
    public mutating func add(androidApp package: String, fingerprints: [String], hosts: [String], source: String) {
        var position: [String: Int] = [:]
        for (index, entry) in entries.enumerated() where position[entry.name.ascii] == nil { position[entry.name.ascii] = index }
        var expectations = DomainExpectations(androidApps: [package], fingerprints: fingerprints)
        expectations.apkFiles = [source]
        for (offset, host) in hosts.enumerated() {
            let name: DomainName
            do {
                name = try DomainName.parse(host).name
            } catch {
                record(InputProblem(file: source, line: offset + 1, text: host, reason: "an App Links host of the APK: \(error.description)"))
                continue
            }
            if let index = position[name.ascii] {
                entries[index].expectations.add(expectations)
                continue
            }
            var own = expectations
            own.platforms = ["android"]
            position[name.ascii] = entries.count
            entries.append(DomainEntry(name: name, file: source, line: offset + 1, text: host, expectations: own))
        }
    }

    /// Records an APK that cannot be audited (unreadable, unsigned, no verified host) as an input
    /// error of the list: the other apps and domains are still audited, and the run exits 2.
    public mutating func add(androidAppProblem reason: String, source: String) {
        record(InputProblem(file: source, line: 0, text: "--apk \(source)", reason: reason))
    }
}
