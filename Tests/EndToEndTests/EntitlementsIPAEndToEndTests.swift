import Audit
import Foundation
import Testing
import TestSupport

/// A built app in an .ipa (made here: a Mach-O signed with entitlements, a profile signed with
/// `openssl cms`, zipped with libzip) audited by the real binary against nginx: the app ID comes
/// from the code signature, and a profile issued to another team is a finding of the app.
@Suite struct EntitlementsIPAEndToEndTests {
    static let app = "ABQ7KM3X2P.com.exemplo.app"

    @Test func ipaWithAProfileOfAnotherTeam() throws {
        let sites = try LocalSites.shared.get()
        let folder = try AuditBinary.temporaryDirectory()
        let entitlements = MachOImage.entitlementsPropertyList(applicationIdentifier: Self.app, teamIdentifier: "ABQ7KM3X2P",
                                                               associatedDomains: ["applinks:good.test", "webcredentials:good.test"])
        let authority = try TestCertificateAuthority(directory: folder.appendingPathComponent("ca"))
        let signer = try authority.selfSigned(name: "Apple Development: Old Team (OLDTEAM999)")
        let profile = try authority.signCMS(content: try AppBundleFixture.profilePropertyList(
            teamIdentifiers: ["OLDTEAM999"], applicationIdentifier: "OLDTEAM999.com.exemplo.app"), signer: signer)
        let ipa = folder.appendingPathComponent("App.ipa")
        try AppBundleFixture(executable: MachOImage.thin(entitlements: entitlements).bytes, profile: profile).writeIPA(to: ipa)
        let outcome = try AuditBinary.run(
            ["--entitlements", "App.ipa", "--cacert", sites.certificateAuthority.certificatePath, "--no-cdn",
             "--timeout", "3", "--connect-timeout", "2", "--out", "out"] + sites.connectToArguments, in: folder)
        #expect(outcome.status == 1, "\(outcome.stdout)\(outcome.stderr)")
        let report = try AuditBinary.readReport(at: folder.appendingPathComponent("out/report.json"))
        let section = try #require(report.apps?.first)
        #expect(section.kind == "ipa" && section.appID == Self.app && section.appIDSource.contains("application-identifier"))
        #expect(section.entries.map(\.works) == [true, true], "the domain's file lists the app")
        #expect(section.findings.map(\.id) == ["entitlement.profile-team-mismatch", "entitlement.profile-app-id-mismatch"])
        #expect(section.findings[0].message.contains("OLDTEAM999") && section.findings[0].message.contains("ABQ7KM3X2P"))
        #expect(report.domains.map(\.domain) == ["good.test"] && report.domains[0].verdict == .pass)
        #expect(outcome.stdout.contains("error entitlement.profile-team-mismatch"), "\(outcome.stdout)")

        // --quiet (cron) prints one line per thing that fails the run: the app's own finding too, so
        // an exit 1 never comes without its reason.
        let quiet = try AuditBinary.run(
            ["--entitlements", "App.ipa", "--cacert", sites.certificateAuthority.certificatePath, "--no-cdn", "--quiet",
             "--timeout", "3", "--connect-timeout", "2", "--out", "quiet"] + sites.connectToArguments, in: folder)
        #expect(quiet.status == 1 && quiet.stdout.isEmpty, "\(quiet.stdout)\(quiet.stderr)")
        #expect(quiet.stderr.contains("FAIL app \(Self.app) (App.ipa: Payload/App.app/App): entitlement.profile-team-mismatch"),
                "\(quiet.stderr)")
    }
}
