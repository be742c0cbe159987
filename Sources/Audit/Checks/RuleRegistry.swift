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
        LocationChoice.rules + CrawlerAccessCheck.rules + CDNCheck.rules + ExpectationCheck.rules
    }

    /// Every rule: the location checks', the document validator's and the domain-level ones.
    public static var allRules: [Rule] {
        locationChecks.flatMap { $0.rules } + DocumentValidator.rules + domainRules
    }

    /// The rule with this id, if any.
    public static func rule(id: String) -> Rule? {
        allRules.first { $0.id == id }
    }
}
