import AASA
import Testing

/// A rule carries the id of the check that reports it into every finding it makes.
@Suite struct RuleTests {
    static let declared = Rule("cdn.example", .warning, check: "cdn", meaning: "A meaning.", fix: "The fix.")

    @Test func aFindingNamesTheCheckOfItsRuleWhenItIsMade() {
        let finding = Self.declared.finding("The message.", pointer: "/a")
        #expect(finding == Finding(id: "cdn.example", severity: .warning, message: "The message.", fix: "The fix.", pointer: "/a", check: "cdn"))
    }

    @Test func aCoreRuleNamesNoCheckUntilTheAuditReportsIt() {
        let core = Rule("json.example", .error, meaning: "A meaning.", fix: "The fix.")
        #expect(core.finding("m").check == nil)
        let reported = core.reported(by: "document")
        #expect(reported.check == "document" && reported.id == core.id && reported.severity == core.severity
                && reported.meaning == core.meaning && reported.fix == core.fix)
        #expect(reported.finding("m").check == "document")
        #expect(core.finding("m").reported(by: "document") == reported.finding("m"))
    }

    /// `validate` reports the core's findings with no check (its JSON output has no `check` key).
    @Test func theCoresRulesNameNoCheck() {
        let core = DocumentValidator.rules + AssetLinksValidator.rules
        #expect(!core.isEmpty)
        #expect(core.filter { $0.check != nil }.map(\.id) == [])
    }
}
