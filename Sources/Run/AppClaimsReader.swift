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
        var claims: [AppClaims] = []
        var seen = Set<EntitlementsInput>()
        for input in inputs where seen.insert(input).inserted {
            if stop?.isStopped == true { break }
            let entitlements: AppEntitlements
            do {
                entitlements = try EntitlementsFile.read(at: input.path, limits: .standard, stopped: { stop?.isStopped ?? false })
            } catch {
                // The member inside the file (`App.ipa: Payload/App.app/App`) is named when the problem is there.
                let inside = error.source == input.path ? "" : " (\(error.source))"
                list.add(appProblem: "cannot read the entitlements\(inside): \(error.reason)", source: input.path)
                continue
            }
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
