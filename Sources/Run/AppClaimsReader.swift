import Audit
import Entitlements
import Fetching

/// Reads the entitlements of each `--entitlements` file and resolves its app ID: an app that cannot be
/// audited becomes an input error of the list (the others are still audited).
enum AppClaimsReader {
    /// The claims of every app that can be audited; the others are recorded as problems of `list`.
    /// A file named twice (with the same `--app-id`) is read once, as a domain listed twice is audited once.
    /// An `.ipa` stops being read once `stop` is flipped (the caller then ends the run).
    static func read(_ inputs: [EntitlementsInput], into list: inout DomainList, stop: StopSwitch? = nil) -> [AppClaims] {
        resolve(readFiles(inputs, into: &list, stop: stop), into: &list)
    }

    /// Each file's entitlements, read once; a file that cannot be read is a problem of `list`
    /// (`AuditRun` ends the run on it before the domain list is read). An `.ipa` stops being read
    /// once `stop` is flipped (the caller then ends the run).
    static func readFiles(_ inputs: [EntitlementsInput], into list: inout DomainList,
                          stop: StopSwitch? = nil) -> [(EntitlementsInput, AppEntitlements)] {
        var read: [(EntitlementsInput, AppEntitlements)] = []
        var seen = Set<EntitlementsInput>()
        for input in inputs where seen.insert(input).inserted {
            if stop?.isStopped == true { break }
            do {
                read.append((input, try EntitlementsFile.read(at: input.path, limits: .standard, stopped: { stop?.isStopped ?? false })))
            } catch {
                // The member inside the file (`App.ipa: Payload/App.app/App`) is named when the problem is there.
                let inside = error.source == input.path ? "" : " (\(error.source))"
                list.add(appProblem: "cannot read the entitlements\(inside): \(error.reason)", source: input.path)
            }
        }
        return read
    }

    /// The claims of each app read; an app ID that cannot be resolved is a problem of `list` (the
    /// other apps are still audited).
    static func resolve(_ read: [(EntitlementsInput, AppEntitlements)], into list: inout DomainList) -> [AppClaims] {
        var claims: [AppClaims] = []
        for (input, entitlements) in read {
            do {
                claims.append(try AppClaims.resolve(entitlements, appID: input.appID))
            } catch {
                list.add(appProblem: error.reason, source: input.path)
            }
        }
        return claims
    }

    /// The report's app sections for `claims`, reading the domain results one at a time (from the
    /// run's spool, or from memory).
    static func sections(_ claims: [AppClaims], domains: any DomainResults) throws -> [AppResult] {
        var builder = AppResult.Builder(apps: claims)
        try domains.forEach { builder.add($0) }
        return builder.build()
    }
}
