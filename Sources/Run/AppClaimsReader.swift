import Audit
import Entitlements

/// Reads the entitlements of each `--entitlements` file and resolves its app ID: an app that cannot be
/// audited becomes an input error of the list (the others are still audited).
enum AppClaimsReader {
    /// The claims of every app that can be audited; the others are recorded as problems of `list`.
    static func read(_ inputs: [EntitlementsInput], into list: inout DomainList) -> [AppClaims] {
        var claims: [AppClaims] = []
        for input in inputs {
            let entitlements: AppEntitlements
            do {
                entitlements = try EntitlementsFile.read(at: input.path)
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

    /// The report's app sections for `claims`, from the domain results.
    static func sections(_ claims: [AppClaims], results: [DomainResult]) -> [AppResult] {
        var builder = AppResult.Builder(apps: claims)
        for result in results { builder.add(result) }
        return builder.build()
    }
}
