import Audit
import Testing

/// The hosts one platform's apps claim and the other's do not, and the sentence the reports open with.
@Test(arguments: [
    (["a.test", "*.b.test"], ["a.test", "c.test"], ["*.b.test"], ["c.test"], 1, false),
    (["a.test"], ["a.test"], [String](), [String](), 1, true),
    ([String](), ["c.test"], [String](), ["c.test"], 0, false),
])
func appLinkHostsComparedBothWays(apple: [String], android: [String], appleOnly: [String], androidOnly: [String], shared: Int, agrees: Bool) {
    let comparison = AppLinkHostComparison(apple: apple, android: android)
    #expect(comparison == AppLinkHostComparison(appleOnly: appleOnly, androidOnly: androidOnly, shared: shared))
    #expect(comparison.agrees == agrees)
    #expect(comparison.summary.contains(agrees ? "claim the same link host" : "\(appleOnly.count) only by the iOS apps, \(androidOnly.count) only by the Android apps, \(shared) by both"))
}
