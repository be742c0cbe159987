import Audit
import Foundation
import Testing
import TestSupport

/// An app's entitlements (an Xcode .entitlements XML property list made here) audited by the real binary
/// against nginx, together with a domains.txt: a good domain, a wildcard entry served by the parent's
/// file, a ?mode= entry whose host serves only the root location, a drifted Team ID, entries whose
/// app the file does not list, a malformed entry, and a development-only entry a release audit sets apart.
@Suite struct EntitlementsEndToEndTests {
    static let app = "ABQ7KM3X2P.com.exemplo.app"

    static let entries = [
        "applinks:good.test",                       // 0: works
        "applinks:*.good.test",                     // 1: wildcard, good.test's file
        "webcredentials:good.test",                 // 2: works
        "activitycontinuation:good.test",           // 3: good.json has no activitycontinuation
        "applinks:root-only.test?mode=managed",     // 4: root-only file, mode entry: fails
        "applinks:drift.test",                      // 5: OLDTEAM999.com.exemplo.app
        "applinks:https://bad.test",                // 6: input error
        "appclips:notfound.test",                   // 7: no file at all
        "applinks:dev-only.test?mode=developer",    // 8: development-only: set apart, its host not audited
    ]

    static var plist: String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
            <key>application-identifier</key>
            <string>$(AppIdentifierPrefix)$(CFBundleIdentifier)</string>
            <key>com.apple.developer.associated-domains</key>
            <array>
        \(entries.map { "        <string>\($0)</string>" }.joined(separator: "\n"))
            </array>
        </dict>
        </plist>
        """
    }

    struct Run: Sendable {
        var folder: URL
        var outcome: ShellCommand.Outcome
        var report: AuditReport
    }

    static let run: Result<Run, Error> = Result {
        let sites = try LocalSites.shared.get()
        let folder = try AuditBinary.temporaryDirectory()
        try plist.write(to: folder.appendingPathComponent("App.entitlements"), atomically: true, encoding: .utf8)
        try "drift.test app=\(app)\n".write(to: folder.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        let outcome = try AuditBinary.run(
            ["--entitlements", "App.entitlements", "--app-id", app,
             "--cacert", sites.certificateAuthority.certificatePath, "--timeout", "3", "--connect-timeout", "2",
             "--format", "json,html,md,junit,prom", "--out", "out"] + sites.appleCDNArguments + sites.connectToArguments, in: folder)
        return Run(folder: folder, outcome: outcome, report: try AuditBinary.readReport(at: folder.appendingPathComponent("out/report.json")))
    }

    func outcome(_ index: Int) throws -> ClaimOutcome {
        let app = try #require(try Self.run.get().report.apps?.first)
        return try #require(app.entries.first { $0.index == index })
    }

    @Test func badEntryIsAnInputErrorAndTheOthersAreAudited() throws {
        let run = try Self.run.get()
        #expect(run.outcome.status == 2, "\(run.outcome.stderr)")
        #expect(run.report.inputErrors.count == 1)
        let problem = try #require(run.report.inputErrors.first)
        #expect(problem.file == "App.entitlements" && problem.line == 6 && problem.text == "applinks:https://bad.test")
        #expect(problem.reason.contains("com.apple.developer.associated-domains[6]: it is a URL"))
        #expect(run.outcome.stderr.contains("App.entitlements:6"))
        #expect(Set(run.report.domains.map(\.domain)) == ["drift.test", "good.test", "root-only.test", "notfound.test"])
        #expect(run.report.domains.first?.domain == "drift.test", "the domain list's hosts come first")
    }

    @Test func eachEntrySaysWhetherItWorksAndWhy() throws {
        let app = try #require(try Self.run.get().report.apps?.first)
        #expect(app.appID == Self.app && app.appIDSource == "--app-id" && app.skippedEntries == 1)
        #expect(app.entries.map(\.index) == [0, 1, 2, 3, 4, 5, 7])
        #expect(app.entries.map(\.works) == [true, true, true, false, false, false, false])
        #expect(app.developmentEntries == ["applinks:dev-only.test?mode=developer"])
        #expect(try outcome(3).findingID == "entitlement.activitycontinuation-missing")
        #expect(try outcome(7).findingID == "entitlement.unchecked")
        #expect(!app.works)
        let console = try Self.run.get().outcome.stdout
        #expect(console.contains("App \(Self.app) (App.entitlements): 3 of 7 entries work"), "\(console)")
        #expect(console.contains("1 entry only development devices use (applinks:dev-only.test?mode=developer) not checked: release devices ignore it"),
                "\(console)")
        #expect(console.contains("applinks:drift.test (file of drift.test) entitlement.team-id-drift"))
    }

    @Test func wildcardIsServedByTheParentsFile() throws {
        let wildcard = try outcome(1)
        #expect(wildcard.fileHost == "good.test" && wildcard.covers == "*.good.test" && wildcard.works)
        #expect(wildcard.location == "/.well-known/apple-app-site-association")
        #expect(wildcard.resolution.contains("not good.test itself"))
    }

    @Test func modeEntryNeedsTheWellKnownLocationAndSkipsTheCDN() throws {
        let mode = try outcome(4)
        #expect(mode.findingID == "entitlement.mode-root-only" && !mode.works)
        let rootOnly = try #require(try Self.run.get().report.domains.first { $0.domain == "root-only.test" })
        #expect(rootOnly.cdn == nil && rootOnly.crawler == nil, "a host only ?mode= entries need is not fetched from Apple's CDN")
        #expect(rootOnly.findings.contains { $0.id == "entitlement.mode-entry" && $0.message.contains("managed by an MDM") })
        let good = try #require(try Self.run.get().report.domains.first { $0.domain == "good.test" })
        #expect(good.cdn != nil, "a host with entries read through the CDN gets its CDN copy checked")
    }

    @Test func driftNamesBothTeamIDsForTheEntitlementAndTheDomainList() throws {
        let drift = try outcome(5)
        #expect(drift.findingID == "entitlement.team-id-drift")
        #expect(drift.reason.contains("OLDTEAM999") && drift.reason.contains("ABQ7KM3X2P"))
        let domain = try #require(try Self.run.get().report.domains.first { $0.domain == "drift.test" })
        #expect(domain.verdict == .fail)
        #expect(domain.findings.contains { $0.id == "expect.team-id-drift" && $0.message.contains("OLDTEAM999") })
    }

    @Test func everyReportHasTheAppSection() throws {
        let run = try Self.run.get()
        let markdown = try String(contentsOf: run.folder.appendingPathComponent("out/report.md"), encoding: .utf8)
        #expect(markdown.contains("## Apps") && markdown.contains("applinks:root-only.test?mode=managed"))
        #expect(markdown.contains("developer mode"))
        let junit = try String(contentsOf: run.folder.appendingPathComponent("out/report.junit.xml"), encoding: .utf8)
        #expect(junit.contains("<testsuite name=\"app \(Self.app)\""))
        #expect(junit.contains("failure type=\"entitlement.team-id-drift\""))
        let text = try HeadlessBrowser.visibleText(of: run.folder.appendingPathComponent("out/report.html"))
        #expect(text.contains("Apps"))
        #expect(text.contains("\(Self.app)"))
        #expect(text.contains("3 of 7 entries work"))
        // The browser's text drops the hyphens it may break a long word at ("dev-only"): the sentence around it is checked.
        // (and the long entry name may be broken anywhere on a narrow column), so the words after it are checked.
        #expect(text.contains("1 entry only development devices use (applinks:") && text.contains("not checked: release devices ignore it"))
        #expect(markdown.contains("1 entry only development devices use (applinks:dev-only.test?mode=developer) not checked"))
        #expect(text.contains("Entries with ?mode= work only on devices in developer mode"))
    }

    /// A broken development-only entry fails nothing in a release audit (its host is not even
    /// fetched), and fails the run with --include-development.
    @Test func developmentEntriesFailOnlyWhenIncluded() throws {
        let sites = try LocalSites.shared.get()
        let folder = try AuditBinary.temporaryDirectory()
        let plist = Self.plist.replacingOccurrences(of: Self.entries.map { "        <string>\($0)</string>" }.joined(separator: "\n"),
                                                    with: "        <string>applinks:good.test</string>\n        <string>applinks:root-only.test?mode=developer</string>")
        try plist.write(to: folder.appendingPathComponent("Dev.entitlements"), atomically: true, encoding: .utf8)
        func audit(_ extra: [String], out: String) throws -> (ShellCommand.Outcome, AuditReport) {
            let outcome = try AuditBinary.run(
                ["--entitlements", "Dev.entitlements", "--app-id", Self.app] + extra
                    + ["--cacert", sites.certificateAuthority.certificatePath, "--timeout", "3", "--connect-timeout", "2", "--out", out]
                    + sites.appleCDNArguments + sites.connectToArguments, in: folder)
            return (outcome, try AuditBinary.readReport(at: folder.appendingPathComponent("\(out)/report.json")))
        }
        let (release, releaseReport) = try audit([], out: "release")
        #expect(release.status == 0, "\(release.stdout)\n\(release.stderr)")
        #expect(releaseReport.domains.map(\.domain) == ["good.test"])
        #expect(releaseReport.apps?.first?.developmentEntries == ["applinks:root-only.test?mode=developer"])
        #expect(releaseReport.apps?.first?.works == true)
        let (included, includedReport) = try audit(["--include-development"], out: "included")
        #expect(included.status == 1, "\(included.stdout)\n\(included.stderr)")
        let app = try #require(includedReport.apps?.first)
        #expect(app.developmentEntries == nil && app.entries.map(\.findingID) == ["entitlement.met", "entitlement.mode-root-only"])
    }

    @Test func unresolvedAppIDWithoutOptionIsAClearError() throws {
        let sites = try LocalSites.shared.get()
        let folder = try AuditBinary.temporaryDirectory()
        try Self.plist.write(to: folder.appendingPathComponent("App.entitlements"), atomically: true, encoding: .utf8)
        let outcome = try AuditBinary.run(["--entitlements", "App.entitlements", "--no-cdn", "--timeout", "1", "--connect-timeout", "1",
                                           "--out", "out"] + sites.connectToArguments, in: folder)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("build-setting variables") && outcome.stderr.contains("--app-id TEAMID.bundle.id"), "\(outcome.stderr)")
    }
}
