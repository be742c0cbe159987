@testable import AASA
@testable import Audit
import Testing

/// Every finding message that counts (rules, expectations, entries, redirects, bytes), rendered with
/// 0, 1 and 2: each reads as a sentence with its noun and verb in agreement, and says only what is true.
@Suite struct CountingMessagesTests {
    /// (what is counted, the message for a count, its text for 0, 1 and 2).
    static let messages: [(String, @Sendable (Int) -> String, [String])] = [
        ("rules after a universal exclusion",
         { RuleReachabilityCheck.shadowsAllMessage(noun: "component", index: 1, text: "{\"/\":\"*\",\"exclude\":true}", shadowed: $0, openersBefore: 0) },
         ["Component 1 {\"/\":\"*\",\"exclude\":true} excludes every URL, so no rule after it ever applies, and no link of this entry opens the app.",
          "Component 1 {\"/\":\"*\",\"exclude\":true} excludes every URL, so the rule after it never applies, and no link of this entry opens the app.",
          "Component 1 {\"/\":\"*\",\"exclude\":true} excludes every URL, so the 2 rules after it never apply, and no link of this entry opens the app."]),
        ("opening rules before a universal exclusion",
         { RuleReachabilityCheck.shadowsAllMessage(noun: "path", index: 2, text: "\"NOT *\"", shadowed: 1, openersBefore: $0) },
         ["Path 2 \"NOT *\" excludes every URL, so the rule after it never applies, and no link of this entry opens the app.",
          "Path 2 \"NOT *\" excludes every URL, so the rule after it never applies; only URLs matched by the opening rule before it still open the app.",
          "Path 2 \"NOT *\" excludes every URL, so the rule after it never applies; only URLs matched by the 2 opening rules before it still open the app."]),
        ("expectations not checked", { ExpectationCheck.uncheckedMessage(count: $0, domain: "example.com") },
         ["The domain list has no expectation for example.com to check.",
          "1 expectation in the domain list could not be checked: Apple can read a file at neither location of example.com.",
          "2 expectations in the domain list could not be checked: Apple can read a file at neither location of example.com."]),
        ("expectations met", { ExpectationCheck.metMessage(count: $0, domain: "example.com") },
         ["The domain list has no expectation for example.com.",
          "The expectation in the domain list holds for example.com.",
          "All 2 expectations in the domain list hold for example.com."]),
        ("Android expectations not checked", { AndroidExpectationCheck.uncheckedMessage(count: $0, domain: "example.com") },
         ["The domain list has no Android expectation for example.com to check.",
          "1 Android expectation in the domain list could not be checked: https://example.com/.well-known/assetlinks.json could not be read as a statement list.",
          "2 Android expectations in the domain list could not be checked: https://example.com/.well-known/assetlinks.json could not be read as a statement list."]),
        ("Android expectations met", { AndroidExpectationCheck.metMessage(count: $0, domain: "example.com") },
         ["The domain list has no Android expectation for example.com.",
          "The Android expectation in the domain list holds for example.com.",
          "All 2 Android expectations in the domain list hold for example.com."]),
        ("entitlement entries met", { EntitlementClaimCheck.metMessage(count: $0, domain: "example.com") },
         ["No entitlement entry needs example.com's file.",
          "The entitlement entry that needs example.com's file finds its app in it.",
          "All 2 entitlement entries that need example.com's file find their app in it."]),
        ("redirects", { "behind \(Counted.noun($0, "redirect"))" }, ["behind no redirects", "behind 1 redirect", "behind 2 redirects"]),
        ("bytes of signed JSON", { "the JSON inside (\(Counted.noun($0, "byte"))) was checked" },
         ["the JSON inside (no bytes) was checked", "the JSON inside (1 byte) was checked", "the JSON inside (2 bytes) was checked"]),
        ("entries", { "\(Counted.noun($0, "entry", "entries", capitalized: true)) \(Counted.verb($0, "uses", "use"))" },
         ["No entries use", "1 entry uses", "2 entries use"]),
    ]

    @Test(arguments: messages)
    func rendersZeroOneAndTwo(label: String, message: @Sendable (Int) -> String, expected: [String]) {
        for count in 0...2 {
            let text = message(count)
            #expect(text == expected[count], "\(label), \(count)")
            // The slips this test exists for: a singular noun with a plural verb, "1 rules", "(s)".
            for slip in ["1 rules", "1 expectations", "1 entries", "1 redirects", "1 bytes", "All 1 ", "All 0 ", "(s)", "1 rule after it never apply"] {
                #expect(!text.contains(slip), "\(label), \(count): \(text)")
            }
        }
    }

    /// The sentence of the issue: a universal exclusion after `/men/*/p/*` leaves `/men/x/p/1` opening,
    /// so the finding must not say that no link of the entry opens the app.
    @Test func aUniversalExclusionAfterAnOpeningRuleDoesNotClaimNothingOpens() throws {
        let json = #"{"applinks":{"details":[{"appIDs":["ABQ7KM3X2P.com.exemplo.app"],"components":[{"/":"/men/*/p/*"},{"/":"*","exclude":true},{"/":"/women/*"}]}]}}"#
        let document = try #require(AASADocument(json: try JSONParser.parse(Array(json.utf8))))
        let finding = try #require(RuleReachabilityCheck.findings(in: document).first { $0.id == "match.exclude-shadows-all" })
        #expect(finding.message.hasSuffix("so the rule after it never applies; only URLs matched by the opening rule before it still open the app."), "\(finding.message)")
        let matcher = try #require(URLMatcher(json: Array(json.utf8), host: "example.com"))
        #expect(try matcher.decide("https://example.com/men/x/p/1").decision == .match, "the sentence is true: this URL opens the app")
        #expect(try matcher.decide("https://example.com/women/1").decision == .exclude)

        let nothingBefore = #"{"applinks":{"details":[{"appIDs":["ABQ7KM3X2P.com.exemplo.app"],"components":[{"/":"/old/*","exclude":true},{"/":"*","exclude":true},{"/":"/women/*"}]}]}}"#
        let other = try #require(AASADocument(json: try JSONParser.parse(Array(nothingBefore.utf8))))
        let none = try #require(RuleReachabilityCheck.findings(in: other).first { $0.id == "match.exclude-shadows-all" })
        #expect(none.message.hasSuffix("so the rule after it never applies, and no link of this entry opens the app."), "\(none.message)")
    }
}
