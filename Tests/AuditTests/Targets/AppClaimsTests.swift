import AASA
@testable import Audit
import Entitlements
import Foundation
import Testing

@Suite struct AssociatedDomainEntryTests {
    @Test func goodEntriesParse() throws {
        let plain = try AssociatedDomainEntry.parse("applinks:example.com", index: 0)
        #expect(plain.service == .applinks && plain.host == "example.com" && !plain.wildcard && plain.mode == nil)
        let wildcard = try AssociatedDomainEntry.parse("webcredentials:*.Example.COM?mode=developer+managed", index: 3)
        #expect(wildcard.service == .webcredentials && wildcard.host == "example.com" && wildcard.wildcard)
        #expect(wildcard.mode == .developerManaged && wildcard.index == 3 && wildcard.pattern == "*.example.com")
        #expect(wildcard.fileHost == "example.com")
        let idn = try AssociatedDomainEntry.parse("applinks:bücher.example", index: 1)
        #expect(idn.host == "xn--bcher-kva.example" && idn.unicodeHost == "bücher.example")
        #expect(try AssociatedDomainEntry.parse("activitycontinuation:a.example?mode=managed", index: 0).mode == .managed)
        #expect(try AssociatedDomainEntry.parse("appclips:clip.example?mode=developer", index: 0).mode == .developer)
    }

    @Test(arguments: [
        ("applinks:https://example.com", "it is a URL"),
        ("applinks:example.com/path", "it has a path"),
        ("applinks:example.com:8443", "it has a port (8443)"),
        ("applinks: example.com", "white space"),
        ("applinks:exam ple.com", "white space"),
        ("weblinks:example.com", "unknown service \"weblinks\""),
        ("AppLinks:example.com", "services are lower-case: applinks"),
        ("applinks:example.com?mode=production", "unknown mode \"production\""),
        ("applinks:example.com?foo=bar", "is not an alternate mode"),
        ("applinks:", "the host is empty"),
        ("applinks:*.", "the host is empty"),
        ("example.com", "no service"),
        ("", "the entry is empty"),
        ("appclips:*.example.com", "appclips entries take no *. wildcard"),
        ("applinks:a*.example.com", "only as a leading"),
        ("applinks:exa_mple..com", "is not a domain name"),
        ("applinks:example.com#frag", "it has a fragment"),
        ("applinks:1.2.3.4", "is not a domain name"),
        // Not a port, though a ":" follows the host: say what it is.
        ("applinks:applinks:example.com", "it names the service twice"),
        ("applinks:[::1]", "is an IP address, not a domain name"),
        ("applinks:example.com:", "a \":\" after the host"),
        ("applinks:example.com:https", "a \":\" after the host"),
    ])
    func everyBadEntryIsNamed(entry: String, reason: String) {
        #expect(throws: AssociatedDomainEntryError.self) { try AssociatedDomainEntry.parse(entry, index: 7) }
        do {
            _ = try AssociatedDomainEntry.parse(entry, index: 7)
        } catch {
            #expect(error.reason.contains(reason), "\(error.reason)")
            #expect(error.description.contains("com.apple.developer.associated-domains[7]"))
            #expect(error.description.contains("\"\(entry)\""))
        }
    }

    @Test func wildcardCoversSubdomainsNotTheHostItself() throws {
        let entry = try AssociatedDomainEntry.parse("applinks:*.example.com", index: 0)
        #expect(entry.covers("www.example.com") && entry.covers("a.b.example.com"))
        #expect(!entry.covers("example.com") && !entry.covers("badexample.com"))
        let exact = try AssociatedDomainEntry.parse("applinks:www.example.com", index: 0)
        #expect(exact.covers("www.example.com") && !exact.covers("a.www.example.com"))
    }
}

@Suite struct AppIdentifierTests {
    @Test func formIsChecked() throws {
        let id = try AppIdentifier.parse("ABQ7KM3X2P.com.exemplo.app")
        #expect(id.teamID == "ABQ7KM3X2P" && id.bundleID == "com.exemplo.app")
        for bad in ["abcde12345.com.exemplo.app", "ABCDE1234.com.exemplo.app", "ABQ7KM3X2P.", "ABQ7KM3X2P", "ABQ7KM3X2P.com/x",
                    "$(AppIdentifierPrefix)$(CFBundleIdentifier)", "ABQ7KM3X2P.${PRODUCT_BUNDLE_IDENTIFIER}"] {
            #expect(throws: AppIdentifierError.self, "\(bad)") { try AppIdentifier.parse(bad) }
        }
    }
}

@Suite struct AppClaimsTests {
    private func entitlements(_ appID: String?, _ entries: [EntitlementValue]?, profile: ProvisioningProfile? = nil) -> AppEntitlements {
        AppEntitlements(source: "App.entitlements", kind: .xmlPropertyList, applicationIdentifier: appID, associatedDomains: entries, profile: profile)
    }

    @Test func appIDComesFromTheEntitlementOrTheOption() throws {
        let entries: [EntitlementValue] = [.text("applinks:example.com")]
        let own = try AppClaims.resolve(entitlements("ABQ7KM3X2P.com.exemplo.app", entries), appID: nil)
        #expect(own.appID.description == "ABQ7KM3X2P.com.exemplo.app" && own.appIDSource.contains("application-identifier"))
        let same = try AppClaims.resolve(entitlements("ABQ7KM3X2P.com.exemplo.app", entries), appID: "ABQ7KM3X2P.com.exemplo.app")
        #expect(same.appID == own.appID)
        let given = try AppClaims.resolve(entitlements("$(AppIdentifierPrefix)$(CFBundleIdentifier)", entries), appID: "ABQ7KM3X2P.com.exemplo.app")
        #expect(given.appIDSource == "--app-id")
        let none = try AppClaims.resolve(entitlements(nil, entries), appID: "ABQ7KM3X2P.com.exemplo.app")
        #expect(none.appID.bundleID == "com.exemplo.app")
    }

    @Test func appIDErrorsSayWhatToDo() {
        let entries: [EntitlementValue] = [.text("applinks:example.com")]
        func reason(_ appID: String?, _ option: String?, _ values: [EntitlementValue]? = [.text("applinks:example.com")]) -> String {
            do {
                _ = try AppClaims.resolve(entitlements(appID, values), appID: option)
                return ""
            } catch {
                #expect(error.description.hasPrefix("--entitlements App.entitlements: "))
                return error.reason
            }
        }
        #expect(reason("$(AppIdentifierPrefix)$(CFBundleIdentifier)", nil).contains("--app-id TEAMID.bundle.id"))
        #expect(reason("$(AppIdentifierPrefix)$(CFBundleIdentifier)", nil).contains("build-setting variables"))
        #expect(reason(nil, nil).contains("no application-identifier"))
        #expect(reason("ABQ7KM3X2P.com.exemplo.app", "ZZZZZ99999.com.exemplo.app").contains("but --app-id says ZZZZZ99999.com.exemplo.app"))
        #expect(reason("short.com.example", nil).contains("not a Team ID"))
        #expect(reason(nil, "ABQ7KM3X2P").contains("--app-id"))
        #expect(reason("$(AppIdentifierPrefix)com.exemplo.app", "ABQ7KM3X2P.com.other").contains("which Xcode cannot turn into ABQ7KM3X2P.com.other"))
        // The prefix variable is a 10-character prefix and its dot, nothing more.
        #expect(!reason("$(AppIdentifierPrefix)com.exemplo.app", "ABQ7KM3X2P.xcom.exemplo.app").isEmpty)
        #expect(reason("$(TeamIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)", "ABQ7KM3X2P.com.exemplo.app").isEmpty)
        #expect(reason("ABQ7KM3X2P.$(PRODUCT_BUNDLE_IDENTIFIER).clip", "ABQ7KM3X2P.com.exemplo.app.clip").isEmpty)
        #expect(!reason("ABQ7KM3X2P.$(PRODUCT_BUNDLE_IDENTIFIER).clip", "ABQ7KM3X2P.com.exemplo.app").isEmpty)
        #expect(reason("$(AppIdentifierPrefix)com.exemplo.app", "ABQ7KM3X2P.com.exemplo.app").isEmpty)
        #expect(reason("ABQ7KM3X2P.com.exemplo.app", nil, nil).contains("no com.apple.developer.associated-domains"))
        _ = entries
    }

    @Test func badEntriesAreSkippedWithFileEntryAndIndex() throws {
        let claims = try AppClaims.resolve(entitlements("ABQ7KM3X2P.com.exemplo.app", [
            .text("applinks:example.com"), .text("applinks:https://example.com"), .other(type: "a number"),
            .text("applinks:example.com"), .text("applinks:example.com?mode=developer"), .text("webcredentials:example.com"),
        ]), appID: nil)
        #expect(claims.entries.map(\.index) == [0, 4, 5])
        #expect(claims.problems.map(\.line) == [1, 2, 3])
        #expect(claims.problems.allSatisfy { $0.file == "App.entitlements" })
        #expect(claims.problems[0].text == "applinks:https://example.com" && claims.problems[0].reason.contains("associated-domains[1]: it is a URL"))
        #expect(claims.problems[1].reason.contains("it is a number, not a string"))
        #expect(claims.problems[2].reason.contains("a duplicate of entry [0]"))
    }

    @Test func entriesGoToTheHostWhoseFileAppleReads() throws {
        let claims = try AppClaims.resolve(entitlements("ABQ7KM3X2P.com.exemplo.app", [
            .text("applinks:*.example.com"), .text("applinks:www.example.com"), .text("webcredentials:example.com"),
        ]), appID: nil)
        let hosts = claims.claimsByHost
        #expect(hosts.map(\.host) == ["example.com", "www.example.com"])
        #expect(hosts[0].claims.map(\.entry.text) == ["applinks:*.example.com", "webcredentials:example.com"])
    }

    @Test func profileOfAnotherTeamIsAFinding() throws {
        let profile = ProvisioningProfile(source: "App.ipa: Payload/App.app/embedded.mobileprovision", teamIdentifiers: ["OLDTEAM999"],
                                          applicationIdentifier: "OLDTEAM999.com.exemplo.app")
        let claims = try AppClaims.resolve(entitlements("ABQ7KM3X2P.com.exemplo.app", [.text("applinks:example.com")], profile: profile), appID: nil)
        #expect(claims.findings.map(\.id) == ["entitlement.profile-team-mismatch", "entitlement.profile-app-id-mismatch"])
        #expect(claims.findings[0].message.contains("OLDTEAM999") && claims.findings[0].message.contains("ABQ7KM3X2P"))
        #expect(claims.findings.allSatisfy { $0.check == ProfileCheck.id })
        let matching = ProvisioningProfile(source: "p", teamIdentifiers: ["ABQ7KM3X2P"], applicationIdentifier: "ABQ7KM3X2P.*")
        #expect(try AppClaims.resolve(entitlements("ABQ7KM3X2P.com.exemplo.app", [.text("applinks:example.com")], profile: matching),
                                      appID: nil).findings.isEmpty)
    }

    /// Apple: developer+managed is "accessible only from devices that are in both developer and managed
    /// modes"; managed alone serves release builds under MDM.
    @Test(arguments: [(AssociatedDomainMode.developer, true), (.developerManaged, true), (.managed, false)])
    func developmentOnlyModes(_ mode: AssociatedDomainMode, _ developmentOnly: Bool) {
        #expect(mode.isDevelopmentOnly == developmentOnly)
    }

    @Test func releaseAuditSetsTheDevelopmentEntriesApart() throws {
        var app = try AppClaims.resolve(entitlements("ABQ7KM3X2P.com.exemplo.app", [
            .text("applinks:example.com"), .text("applinks:dev.example.com?mode=developer"),
            .text("webcredentials:example.com?mode=developer+managed"), .text("applinks:mdm.example.com?mode=managed"),
        ]), appID: nil)
        app.setDevelopmentApart()
        #expect(app.entries.map(\.text) == ["applinks:example.com", "applinks:mdm.example.com?mode=managed"])
        #expect(app.developmentEntries.map(\.text) == ["applinks:dev.example.com?mode=developer", "webcredentials:example.com?mode=developer+managed"])
        // Their hosts are not audited for them, and the app's section names them without failing on them.
        var list = DomainList.parse(arguments: [])
        list.add(apps: [app])
        #expect(list.entries.map(\.name.ascii) == ["example.com", "mdm.example.com"])
        let section = try #require(AppResult.Builder(apps: [app]).build().first)
        #expect(section.developmentEntries == ["applinks:dev.example.com?mode=developer", "webcredentials:example.com?mode=developer+managed"])
        #expect(section.notAudited == 2, "the two release entries' hosts were not audited here")
        var none = try AppClaims.resolve(entitlements("ABQ7KM3X2P.com.exemplo.app", [.text("applinks:example.com")]), appID: nil)
        none.setDevelopmentApart()
        #expect(AppResult.Builder(apps: [none]).build().first?.developmentEntries == nil)
    }

    @Test func hostsMergeWithTheDomainList() throws {
        var list = DomainList.parse(Data("example.com app=ABQ7KM3X2P.com.exemplo.app\nother.example\n".utf8), file: "domains.txt")
        let app = try AppClaims.resolve(entitlements("ABQ7KM3X2P.com.exemplo.app", [
            .text("applinks:example.com"), .text("webcredentials:example.com"), .text("applinks:dev.example.com?mode=developer"),
            .text("applinks:new.example.com"), .text("applinks:bad/path"),
        ]), appID: nil)
        let originOnly = list.add(apps: [app])
        #expect(list.entries.map(\.name.ascii) == ["example.com", "other.example", "dev.example.com", "new.example.com"])
        #expect(list.entries[0].expectations.apps == ["ABQ7KM3X2P.com.exemplo.app"])
        #expect(list.entries[0].claims.map(\.entry.text) == ["applinks:example.com", "webcredentials:example.com"])
        #expect(list.entries[1].claims.isEmpty)
        #expect(list.entries[2].file == "App.entitlements" && list.entries[2].line == 2)
        #expect(originOnly == ["dev.example.com"])
        #expect(list.problems.count == 1 && list.problems[0].text == "applinks:bad/path")
    }
}

@Suite struct EntitlementClaimCheckTests {
    private let app = "ABQ7KM3X2P.com.exemplo.app"

    private func document(_ json: String) throws -> AASADocument {
        try #require(AASADocument(json: try JSONParser.parse(Array(json.utf8))))
    }

    private func claim(_ text: String, index: Int = 0) throws -> EntitlementClaim {
        EntitlementClaim(appID: app, source: "App.entitlements", entry: try AssociatedDomainEntry.parse(text, index: index))
    }

    @Test func eachServiceNeedsItsListing() throws {
        let file = try document("""
            {"applinks": {"details": [{"appIDs": ["\(app)"], "components": [{"/": "/*"}]}]}, "webcredentials": {"apps": ["\(app)"]}}
            """)
        let files = EntitlementClaimCheck.HostFiles(usedLocation: AASAFile.wellKnownPath, usedDocument: file, wellKnownDocument: file, rootUsable: false)
        let claims = [try claim("applinks:example.com"), try claim("webcredentials:example.com", index: 1),
                      try claim("appclips:example.com", index: 2), try claim("activitycontinuation:example.com", index: 3)]
        let result = EntitlementClaimCheck.evaluate(claims, domain: "example.com", files: files)
        #expect(result.outcomes.map(\.works) == [true, true, false, false])
        #expect(result.findings.map(\.id) == ["entitlement.appclip-missing", "entitlement.activitycontinuation-missing"])
        #expect(result.outcomes[3].reason.contains("does not list \(app) in activitycontinuation.apps"))
        let allGood = EntitlementClaimCheck.evaluate(Array(claims.prefix(2)), domain: "example.com", files: files)
        #expect(allGood.findings.map(\.id) == ["entitlement.met"])
    }

    /// Apple has `appclips:` written in the full app's entitlement too, while the file lists only the App
    /// Clip (`TEAM.bundle.id.Clip`): the full app's entry works when its App Clip is listed.
    @Test func appClipsEntryOfTheFullAppWorksWhenItsAppClipIsListed() throws {
        let file = try document(#"{"appclips": {"apps": ["\#(app).Clip"]}}"#)
        let files = EntitlementClaimCheck.HostFiles(usedLocation: AASAFile.wellKnownPath, usedDocument: file, wellKnownDocument: file, rootUsable: false)
        let parent = EntitlementClaimCheck.evaluate([try claim("appclips:example.com")], domain: "example.com", files: files)
        #expect(parent.outcomes.map(\.works) == [true], "\(parent.outcomes.map(\.reason))")
        #expect(parent.outcomes.first?.reason.contains("\(app)'s App Clip \(app).Clip has a place in appclips.apps") == true)
        let clip = EntitlementClaim(appID: app + ".Clip", source: "Clip.entitlements", entry: try AssociatedDomainEntry.parse("appclips:example.com", index: 0))
        #expect(EntitlementClaimCheck.evaluate([clip], domain: "example.com", files: files).outcomes.map(\.works) == [true])
        // Another app's clip, or an app ID that only starts with the same letters, is no App Clip of this app.
        let other = try document(#"{"appclips": {"apps": ["\#(app)2.Clip", "ABQ7KM3X2P.com.exemplo.other.Clip"]}}"#)
        let otherFiles = EntitlementClaimCheck.HostFiles(usedLocation: AASAFile.wellKnownPath, usedDocument: other, wellKnownDocument: other, rootUsable: false)
        let missing = EntitlementClaimCheck.evaluate([try claim("appclips:example.com")], domain: "example.com", files: otherFiles)
        #expect(missing.outcomes.map(\.works) == [false] && missing.findings.map(\.id) == ["entitlement.appclip-missing"])
        #expect(missing.outcomes.first?.reason.contains("lists neither \(app) nor an App Clip of it") == true, "\(missing.outcomes.map(\.reason))")
    }

    @Test func driftNamesBothTeamIDs() throws {
        let file = try document("""
            {"applinks": {"details": [{"appIDs": ["OLDTEAM999.com.exemplo.app"], "components": [{"/": "/*"}]}]}}
            """)
        let files = EntitlementClaimCheck.HostFiles(usedLocation: AASAFile.wellKnownPath, usedDocument: file, wellKnownDocument: file, rootUsable: false)
        let result = EntitlementClaimCheck.evaluate([try claim("applinks:example.com")], domain: "example.com", files: files)
        let finding = try #require(result.findings.first)
        #expect(finding.id == "entitlement.team-id-drift")
        #expect(finding.message.contains("under Team ID OLDTEAM999 (OLDTEAM999.com.exemplo.app), not under the app's Team ID ABQ7KM3X2P"))
        #expect(!result.outcomes[0].works)
    }

    @Test func modeEntriesReadOnlyTheWellKnownLocation() throws {
        let file = try document("""
            {"applinks": {"details": [{"appIDs": ["\(app)"], "components": [{"/": "/*"}]}]}}
            """)
        let rootOnly = EntitlementClaimCheck.HostFiles(usedLocation: AASAFile.rootPath, usedDocument: file, wellKnownDocument: nil, rootUsable: true)
        let mode = EntitlementClaimCheck.evaluate([try claim("applinks:dev.example.com?mode=developer")], domain: "dev.example.com", files: rootOnly)
        #expect(mode.findings.map(\.id) == ["entitlement.mode-entry", "entitlement.mode-root-only"])
        #expect(mode.findings[0].message.contains("developer mode"))
        #expect(!mode.outcomes[0].works && mode.outcomes[0].location == nil)
        #expect(mode.outcomes[0].resolution.contains("not Apple's CDN"))
        // The device reads a ?mode= entry's file itself; "Apple reads" would say its CDN does.
        #expect(mode.outcomes[0].resolution.hasPrefix("The device reads dev.example.com's own file") && !mode.outcomes[0].resolution.contains("Apple reads"),
                "\(mode.outcomes[0].resolution)")
        let wellKnown = EntitlementClaimCheck.HostFiles(usedLocation: AASAFile.wellKnownPath, usedDocument: file, wellKnownDocument: file, rootUsable: false)
        let other = EntitlementClaim(appID: "ABQ7KM3X2P.com.exemplo.other", source: "App.entitlements",
                                     entry: try AssociatedDomainEntry.parse("applinks:dev.example.com?mode=developer", index: 0))
        let missing = EntitlementClaimCheck.evaluate([other], domain: "dev.example.com", files: wellKnown)
        #expect(missing.outcomes[0].reason.hasPrefix("The file the device reads for applinks:dev.example.com?mode=developer"), "\(missing.outcomes[0].reason)")
        let noFile = EntitlementClaimCheck.HostFiles(usedLocation: nil, usedDocument: nil, wellKnownDocument: nil, rootUsable: false)
        let unread = EntitlementClaimCheck.evaluate([try claim("applinks:dev.example.com?mode=developer")], domain: "dev.example.com", files: noFile)
        #expect(unread.outcomes[0].reason.hasSuffix("does not work: the device can read no file from dev.example.com."), "\(unread.outcomes[0].reason)")
        // The same root-only file serves an entry without a mode (Apple falls back to the root location).
        let plain = EntitlementClaimCheck.evaluate([try claim("applinks:dev.example.com")], domain: "dev.example.com", files: rootOnly)
        #expect(plain.outcomes[0].works && plain.outcomes[0].location == AASAFile.rootPath)
        let none = EntitlementClaimCheck.HostFiles(usedLocation: nil, usedDocument: nil, wellKnownDocument: nil, rootUsable: false)
        let unchecked = EntitlementClaimCheck.evaluate([try claim("applinks:x.example")], domain: "x.example", files: none).findings
        #expect(unchecked.map(\.id) == ["entitlement.unchecked"])
        // Its words say the entry does not work: an error, as the other findings of an entry that does not work.
        #expect(unchecked.allSatisfy { $0.severity == .error && $0.message.contains("does not work") })
    }

    @Test func wildcardOutcomeSaysWhichFileAndWhatItCovers() throws {
        let file = try document("""
            {"applinks": {"details": [{"appIDs": ["\(app)"], "components": [{"/": "/*"}]}]}}
            """)
        let files = EntitlementClaimCheck.HostFiles(usedLocation: AASAFile.wellKnownPath, usedDocument: file, wellKnownDocument: file, rootUsable: false)
        let result = EntitlementClaimCheck.evaluate([try claim("applinks:*.example.com")], domain: "example.com", files: files)
        #expect(result.outcomes[0].covers == "*.example.com" && result.outcomes[0].fileHost == "example.com")
        #expect(result.outcomes[0].resolution.contains("not example.com itself; Apple reads example.com's file"))
    }

    @Test func domainListExpectationsNameDriftToo() throws {
        let file = try document("""
            {"applinks": {"details": [{"appIDs": ["OLDTEAM999.com.exemplo.app"], "components": [{"/": "/*"}]}]},
             "webcredentials": {"apps": ["OLDTEAM999.com.exemplo.app"]}}
            """)
        let findings = ExpectationCheck.findings(DomainExpectations(apps: [app], webcredentials: [app]), domain: "example.com", document: file)
        #expect(findings.map(\.id) == ["expect.team-id-drift", "expect.team-id-drift"])
        #expect(findings.allSatisfy { $0.message.contains("OLDTEAM999") && $0.message.contains("ABQ7KM3X2P") })
    }

    @Test func appSectionsGatherOutcomesPerApp() throws {
        let claims = try AppClaims.resolve(AppEntitlements(source: "A.entitlements", kind: .xmlPropertyList, applicationIdentifier: app,
                                                           associatedDomains: [.text("applinks:example.com"), .text("applinks:b.example")]), appID: nil)
        var result = DomainResult(domain: "example.com", verdict: .pass, usedLocation: nil, findings: [], locations: [])
        result.claims = [ClaimOutcome(appID: app, entry: "applinks:example.com", index: 0, service: .applinks, covers: "example.com",
                                      fileHost: "example.com", mode: nil, resolution: "r", location: nil, works: true, reason: "ok", findingID: "entitlement.met")]
        var builder = AppResult.Builder(apps: [claims])
        builder.add(result)
        let sections = builder.build()
        #expect(sections.count == 1 && sections[0].entries.count == 1 && sections[0].notAudited == 1 && !sections[0].works)
    }
}

@Suite struct ActivityContinuationExpectationTests {
    @Test func tokenIsParsedMergedAndChecked() throws {
        let list = DomainList.parse(Data("example.com activitycontinuation=ABQ7KM3X2P.com.exemplo.app\nexample.com activitycontinuation=bad\n".utf8),
                                    file: "domains.txt")
        #expect(list.entries.first?.expectations.activityContinuation == ["ABQ7KM3X2P.com.exemplo.app"])
        #expect(list.problems.count == 1 && list.problems[0].reason.contains("activitycontinuation=bad"))
        let file = try #require(AASADocument(json: try JSONParser.parse(Array(#"{"activitycontinuation": {"apps": ["ZZZZZ99999.com.other"]}}"#.utf8))))
        let findings = ExpectationCheck.findings(DomainExpectations(activityContinuation: ["ABQ7KM3X2P.com.exemplo.app"]),
                                                 domain: "example.com", document: file)
        #expect(findings.map(\.id) == ["expect.activitycontinuation-missing"])
        #expect(findings[0].message.contains("it lists ZZZZZ99999.com.other"))
    }
}

@Suite struct AppFindingsExitTests {
    @Test func anAppsOwnErrorFailsTheRun() {
        var report = AuditReport(tool: ToolInfo(name: "t", version: "1"), generatedAt: Date(timeIntervalSince1970: 0), domains: [])
        #expect(ExitPolicy().status(for: report) == .success)
        let finding = ProfileCheck.teamMismatch.finding("profile of another team")
        report.apps = [AppResult(source: "A", kind: "ipa", appID: "ABQ7KM3X2P.com.exemplo.app", appIDSource: "--app-id", entries: [],
                                 findings: [finding])]
        #expect(ExitPolicy().status(for: report) == .domainFailed)
        report.apps?[0].findings = [EntitlementClaimCheck.modeEntry.finding("info only")]
        #expect(ExitPolicy().status(for: report) == .success)
    }
}
