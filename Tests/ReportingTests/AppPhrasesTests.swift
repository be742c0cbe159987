import Audit
@testable import Reporting
import Testing

@Suite struct AppPhrasesTests {
    private func app(works: [Bool], skipped: Int = 0) -> AppResult {
        AppResult(source: "App.xcent", kind: "binary-plist", appID: "ABQ7KM3X2P.com.exemplo.app", appIDSource: "the application-identifier entitlement",
                  entries: works.enumerated().map { index, works in
                      ClaimOutcome(appID: "ABQ7KM3X2P.com.exemplo.app", entry: "applinks:e\(index).example", index: index, service: .applinks,
                                   covers: "e\(index).example", fileHost: "e\(index).example", mode: nil, resolution: "", location: nil,
                                   works: works, reason: "", findingID: works ? "entitlement.met" : "entitlement.applinks-missing")
                  }, skippedEntries: skipped)
    }

    /// A run that fails only on an app's own profile says so in the totals, not only in the app's section.
    @Test func totalsNameAnAppThatFailsOnItsOwn() {
        var failing = app(works: [true])
        failing.findings = [Finding(id: "entitlement.profile-team-mismatch", severity: .error, message: "The profile was issued to OTHERTEAM1.", fix: "")]
        let report = AuditReport(tool: ReportFixtures.tool, generatedAt: ReportFixtures.generatedAt, domains: [ReportFixtures.passing])
        var withApp = report
        withApp.apps = [failing]
        let line = "1 app fails on an error of its own (its embedded provisioning profile), whatever its domains do."
        #expect(ConsoleSummary.render(withApp, colour: false).hasSuffix("\n1 domain: 1 pass, 0 warn, 0 fail\n\(line)\n"))
        #expect(MarkdownReporter.render(withApp).contains("\n**\(line)**\n"))
        #expect(HTMLReporter.render(withApp).contains("<p><strong>\(line)</strong> See <a href=\"#apps\">Apps</a>.</p>"))
        #expect(!ConsoleSummary.render(report, colour: false).contains("app fails") && !MarkdownReporter.render(report).contains("app fails"))
        #expect(!HTMLReporter.render(report).contains("app fails"))
    }

    /// The verb agrees with "1 entry" as with "3 entries".
    @Test func summaryAgreesInNumber() {
        #expect(AppPhrases.summary(app(works: [true])) == "1 of 1 entry works.")
        #expect(AppPhrases.summary(app(works: [false])) == "0 of 1 entry works.")
        #expect(AppPhrases.summary(app(works: [true, false, true])) == "2 of 3 entries work.")
        #expect(AppPhrases.summary(app(works: [true], skipped: 1)) == "1 of 1 entry works; 1 entry could not be read (see the input errors).")
    }

    /// The development-only entries a release audit sets apart are named, in number, and not counted as working or failing.
    @Test func developmentEntriesAreNamedApart() {
        var one = app(works: [true])
        one.developmentEntries = ["applinks:dev.example?mode=developer"]
        #expect(AppPhrases.summary(one) == "1 of 1 entry works; 1 entry only development devices use (applinks:dev.example?mode=developer) "
                + "not checked: release devices ignore it, and --include-development checks it.")
        var two = app(works: [true])
        two.developmentEntries = ["applinks:a.example?mode=developer", "webcredentials:a.example?mode=developer+managed"]
        #expect(AppPhrases.summary(two).hasSuffix("; 2 entries only development devices use (applinks:a.example?mode=developer, "
                + "webcredentials:a.example?mode=developer+managed) not checked: release devices ignore them, and --include-development checks them."))
        #expect(two.works)
    }
}
