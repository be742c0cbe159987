import Audit
@testable import Reporting
import Testing

@Suite struct AppPhrasesTests {
    private func app(works: [Bool], skipped: Int = 0) -> AppResult {
        AppResult(source: "App.xcent", kind: "binary-plist", appID: "ABCDE12345.com.example.app", appIDSource: "the application-identifier entitlement",
                  entries: works.enumerated().map { index, works in
                      ClaimOutcome(appID: "ABCDE12345.com.example.app", entry: "applinks:e\(index).example", index: index, service: .applinks,
                                   covers: "e\(index).example", fileHost: "e\(index).example", mode: nil, resolution: "", location: nil,
                                   works: works, reason: "", findingID: works ? "entitlement.met" : "entitlement.applinks-missing")
                  }, skippedEntries: skipped)
    }

    /// The verb agrees with "1 entry" as with "3 entries".
    @Test func summaryAgreesInNumber() {
        #expect(AppPhrases.summary(app(works: [true])) == "1 of 1 entry works.")
        #expect(AppPhrases.summary(app(works: [false])) == "0 of 1 entry works.")
        #expect(AppPhrases.summary(app(works: [true, false, true])) == "2 of 3 entries work.")
        #expect(AppPhrases.summary(app(works: [true], skipped: 1)) == "1 of 1 entry works; 1 entry could not be read (see the input errors).")
    }
}
