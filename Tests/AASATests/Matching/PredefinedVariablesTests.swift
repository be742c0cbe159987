import Testing
import AASA

/// `$(region)` and `$(lang)` are the lists Apple's documentation points at: Foundation's
/// `Locale.isoRegionCodes` and `Locale.isoLanguageCodes` as an Apple platform returns them (macOS 27.0,
/// as recorded by the project the conformance corpus comes from). Linux's Foundation returns other
/// lists (numeric UN M.49 areas, EU/EZ/QO/UN, fewer languages), so they are built in, not read at run time.
@Suite struct PredefinedVariablesTests {
    private let app = "ABQ7KM3X2P.com.exemplo.app"

    private func matcher(_ pattern: String) throws -> URLMatcher {
        let json = #"{"applinks":{"details":[{"appIDs":["\#(app)"],"components":[{"/":"\#(pattern)"}]}]}}"#
        return try #require(URLMatcher(json: Array(json.utf8), host: "example.com"))
    }

    @Test func listsHaveApplesCounts() {
        #expect(PredefinedVariables.regionCodes.count == 257)
        #expect(Set(PredefinedVariables.regionCodes).count == 257)
        #expect(PredefinedVariables.languageCodes.count == 631)
        #expect(Set(PredefinedVariables.languageCodes).count == 631)
        #expect(PredefinedVariables.languageCodes.filter { $0.count == 2 }.count == 182)
        #expect(PredefinedVariables.languageCodes.filter { $0.count == 3 }.count == 449)
    }

    @Test func langIncludesFoundationsThreeLetterCodes() throws {
        let m = try matcher("/$(lang)-$(region)/*")
        for url in ["/fil-PH/x", "/haw-US/x", "/yue-HK/x", "/ast-ES/x", "/ckb-IQ/x", "/en-GB/x"] {
            #expect(try m.decide(url, appID: app).decision == .match, "\(url)")
        }
        // Not language codes: ISO 639-2/B forms and made-up ones are not in the list.
        for url in ["/eng-GB/x", "/fre-FR/x", "/qq-ZZ/x", "/sh-RS/x"] {
            #expect(try m.decide(url, appID: app).decision == .noMatch, "\(url)")
        }
    }

    @Test func regionIsTheTwoLetterTerritoriesAppleLists() throws {
        let m = try matcher("/$(region)/home")
        for region in ["GB", "US", "XK", "AC", "CQ", "IC", "EA"] {
            #expect(try m.decide("/\(region)/home", appID: app).decision == .match, "\(region)")
        }
        // Apple's list has no macro regions, no numeric areas and no UK.
        for region in ["EU", "EZ", "QO", "UN", "419", "001", "UK"] {
            #expect(try m.decide("/\(region)/home", appID: app).decision == .noMatch, "\(region)")
        }
    }

    @Test func threeLetterLanguageCodesFoldLikeTheOthers() throws {
        let json = #"{"applinks":{"details":[{"appIDs":["\#(app)"],"components":[{"/":"/$(lang)/*","caseSensitive":false}]}]}}"#
        let m = try #require(URLMatcher(json: Array(json.utf8), host: nil))
        #expect(try m.decide("/FIL/x", appID: app).decision == .match)
        #expect(try m.decide("/Haw/x", appID: app).decision == .match)
    }
}
