import Testing
@testable import AASA

@Test func componentChecksAreRegisteredInOrder() {
    let mine = ["ComponentsCheck", "DefaultsCheck", "SubstitutionVariablesCheck", "PatternLintCheck"]
    // Other checks may sit before or after them; these four keep their relative order.
    let names = SchemaRegistry.checks.map { String(describing: $0) }.filter(mine.contains)
    #expect(names == mine)
}

@Test func componentCheckRulesAreUniqueAndDocumented() {
    let rules = SchemaRegistry.rules  // includes SchemaRules.rules once
    #expect(Set(rules.map(\.id)).count == rules.count, "\(rules.map(\.id))")
    for rule in rules {
        // Document checks are schema.*; the ones that need the matching engine are match.*.
        #expect(rule.id.hasPrefix("schema.") || rule.id.hasPrefix("match."), "\(rule.id)")
        #expect(!rule.meaning.isEmpty && !rule.fix.isEmpty, "\(rule.id)")
    }
    #expect(SchemaRules.rules.map(\.id) == ["schema.type", "schema.unknown-key"])
    #expect(SchemaRules.type.severity == .error && SchemaRules.unknownKey.severity == .warning)
}
