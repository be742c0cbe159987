/// Every check and every rule the tool can report, in one place (docs/findings.md must agree).
public enum RuleRegistry {
    /// The location checks, in the order they run.
    public static let locationChecks: [any LocationCheck.Type] = [
        NetworkCheck.self, CertificateCheck.self, RedirectCheck.self, StatusCheck.self,
        ContentTypeCheck.self, SizeCheck.self, DocumentCheck.self,
    ]

    /// The domain-level rules: the choice between the two locations, Apple's crawler, Apple's CDN,
    /// the expectations written in domains.txt.
    public static var domainRules: [Rule] {
        LocationChoice.rules + CrawlerAccessCheck.rules + CDNCheck.rules + ExpectationCheck.rules + AndroidExpectationCheck.rules
            + EntitlementClaimCheck.rules + ProfileCheck.rules
    }

    /// Every rule: the location checks', the document validator's and the domain-level ones.
    public static var allRules: [Rule] {
        locationChecks.flatMap { $0.rules } + DocumentValidator.rules + AssetLinksValidator.rules + domainRules
    }

    /// The id of the check that reports the rule `ruleID` (`NetworkCheck.id` ...), or nil for an
    /// unknown rule: names the check of findings read from reports that did not record it.
    public static func check(ofRule ruleID: String) -> String? {
        checksByRule[ruleID]
    }

    private static let checksByRule: [String: String] = {
        var table: [String: String] = [:]
        for check in locationChecks {
            for rule in check.rules { table[rule.id] = check.id }
        }
        // The core declares the size limit (validate runs it too), but on a served file SizeCheck reports it.
        table[SizeCheck.tooLarge.id] = SizeCheck.id
        for rule in DocumentValidator.rules + AssetLinksValidator.rules where table[rule.id] == nil { table[rule.id] = DocumentCheck.id }
        for (id, rules) in [(LocationChoice.id, LocationChoice.rules), (CrawlerAccessCheck.id, CrawlerAccessCheck.rules),
                            (CDNCheck.id, CDNCheck.rules), (ExpectationCheck.id, ExpectationCheck.rules),
                            (AndroidExpectationCheck.id, AndroidExpectationCheck.rules),
                            (EntitlementClaimCheck.id, EntitlementClaimCheck.rules), (ProfileCheck.id, ProfileCheck.rules)] {
            for rule in rules { table[rule.id] = id }
        }
        return table
    }()

    /// The rule with this id, if any.
    public static func rule(id: String) -> Rule? {
        allRules.first { $0.id == id }
    }
}
