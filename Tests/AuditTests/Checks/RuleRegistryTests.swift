import Audit
import Foundation
import Testing

/// The registry, the check files and docs/findings.md must agree.
@Suite struct RuleRegistryTests {
    static let categories: Set<String> = ["network", "tls", "redirect", "http", "content-type", "size", "json", "schema",
                                          "match", "expect", "cdn", "access", "assetlinks", "entitlement"]

    @Test func idsAreUniqueDottedAndInAKnownCategory() {
        let ids = RuleRegistry.allRules.map(\.id)
        #expect(Set(ids).count == ids.count)
        for rule in RuleRegistry.allRules {
            let category = String(rule.id.split(separator: ".").first ?? "")
            #expect(Self.categories.contains(category), "\(rule.id)")
            #expect(rule.id.range(of: #"^[a-z-]+\.[a-z0-9-]+(\.[a-z0-9-]+)*$"#, options: .regularExpression) != nil, "\(rule.id)")
            #expect(!rule.meaning.isEmpty && !rule.fix.isEmpty, "\(rule.id)")
        }
    }

    @Test func findingsDocumentListsExactlyTheRegisteredRules() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/findings.md"), encoding: .utf8)
        // Rows look like: | `tls.expired` | error | meaning | fix |
        var documented: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 2 else { continue }
            documented[cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))] = cells[1]
        }
        let registered = Dictionary(uniqueKeysWithValues: RuleRegistry.allRules.map { ($0.id, $0.severity.rawValue) })
        #expect(Set(documented.keys) == Set(registered.keys), "missing from docs: \(Set(registered.keys).subtracting(documented.keys).sorted()); not registered: \(Set(documented.keys).subtracting(registered.keys).sorted())")
        for (id, severity) in registered {
            #expect(documented[id] == severity, "\(id): docs say \(documented[id] ?? "nothing"), code says \(severity)")
        }
    }
}
