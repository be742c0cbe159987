@testable import AASA
import Testing

/// The Levenshtein distance behind every "did you mean" suggestion.
@Test(arguments: [
    ("", "", 0), ("a", "", 1), ("abc", "", 3), ("", "abc", 3), ("applinks", "applinks", 0), ("applink", "applinks", 1),
    ("exclude", "excluded", 1), ("kitten", "sitting", 3), ("app-clips", "appclips", 1), ("appIds", "appIDs", 1),
    ("flaw", "lawn", 2), ("ab", "ba", 2),
])
func editDistance(_ a: String, _ b: String, _ distance: Int) {
    #expect(EditDistance.between(a, b) == distance)
    #expect(EditDistance.between(b, a) == distance)
}

@Test func nearMissIgnoresCaseAndPrefersTheClosest() {
    #expect(EditDistance.nearMiss(of: "appId", among: ["appID", "appIDs"]) == "appID")
    #expect(EditDistance.nearMiss(of: "appIds", among: ["appID", "appIDs"]) == "appIDs")
    #expect(EditDistance.nearMiss(of: "APPLINKS", among: AASADocument.serviceKeys) == "applinks")
    #expect(EditDistance.nearMiss(of: "version", among: AASADocument.serviceKeys) == nil)
    #expect(EditDistance.nearMiss(of: "apps", among: AASADocument.serviceKeys) == nil)
}
