import AASA
import Entitlements

/// Checks an app's embedded provisioning profile against its app ID: a profile issued to another team
/// than the app ID's prefix signs an app whose entitlements no file of the new team lists. Pure.
/// Run once per app, when its entitlements are read (`AppClaims`), not per domain.
public enum ProfileCheck: Check {
    /// The check's stable id, stored in each of its findings.
    public static let id = "profile"
    public static let teamMismatch = Rule("entitlement.profile-team-mismatch", .error, check: id,
        meaning: "The app's embedded provisioning profile was issued to another Team ID than the prefix of the app's app ID, so the app ID the files must list is not the one the signed app has.",
        fix: "Sign the app with a profile of the team its app ID belongs to (or correct the app ID), then list the app ID the signed app has in each domain's file.")
    public static let profileAppIDMismatch = Rule("entitlement.profile-app-id-mismatch", .error, check: id,
        meaning: "The app's embedded provisioning profile names another application identifier than the app's own.",
        fix: "Sign the app with the profile made for its app ID.")

    public static let unreadable = Rule("entitlement.profile-unreadable", .warning, check: id,
        meaning: "The app has an embedded provisioning profile that could not be read, so its Team ID could not be compared with the app ID; the app's own entitlements were still audited.",
        fix: "Check that the profile is the one Xcode embedded (a CMS-signed property list); re-sign the app if it is damaged.")

    public static let rules = [teamMismatch, profileAppIDMismatch, unreadable]

    /// The findings for `profile` of the app `appID`.
    public static func findings(_ profile: ProvisioningProfile, appID: AppIdentifier) -> [Finding] {
        var findings: [Finding] = []
        if !profile.teamIdentifiers.isEmpty, !profile.teamIdentifiers.contains(appID.teamID) {
            findings.append(teamMismatch.finding(
                "The provisioning profile \(profile.source) was issued to Team ID \(profile.teamIdentifiers.joined(separator: ", ")), "
                + "but the app ID \(appID) has the prefix \(appID.teamID)."))
        }
        if let profileID = profile.applicationIdentifier, profileID != appID.description, !profileID.hasSuffix("*") {
            findings.append(profileAppIDMismatch.finding("The provisioning profile \(profile.source) is for \(profileID), not for the app's \(appID)."))
        } else if let profileID = profile.applicationIdentifier, profileID.hasSuffix("*"),
                  !appID.description.hasPrefix(String(profileID.dropLast())) {
            findings.append(profileAppIDMismatch.finding("The provisioning profile \(profile.source) is for \(profileID), which does not cover the app's \(appID)."))
        }
        return findings
    }
}
