import AASA
import Audit
import Foundation
import Testing

/// The registry, the check files and docs/findings.md must agree.
@Suite struct RuleRegistryTests {
    static let categories: Set<String> = ["network", "tls", "redirect", "http", "content-type", "size", "json", "schema",
                                          "match", "expect", "cdn", "access", "assetlinks", "entitlement", "dal"]
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

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

    /// Every check type declared in Sources/Audit/Checks (a conformance to `Check`, `LocationCheck` or
    /// `DomainCheck`, or a type with a `static let id`) is in the registry, once.
    @Test func everyCheckInTheChecksFolderIsRegisteredOnce() throws {
        let folder = Self.root.appendingPathComponent("Sources/Audit/Checks")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        var declared: Set<String> = [], withID: Set<String> = []
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for match in text.matches(of: #/(?:enum|struct|class|extension) (\w+)\s*:\s*([\w, ]+)\{/#) {
                let conformances = match.output.2.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                if !Set(conformances).isDisjoint(with: ["Check", "LocationCheck", "DomainCheck"]) { declared.insert(String(match.output.1)) }
            }
            // A type whose body starts with an id, as every check's does.
            for match in text.matches(of: #/(?:enum|struct) (\w+)[^{]*\{\s*(?:\/\/\/[^\n]*\n\s*)*(?:public )?static let id = "/#) {
                withID.insert(String(match.output.1))
            }
        }
        let registered = RuleRegistry.checks.map { String(describing: $0) }
        #expect(Set(registered).count == registered.count, "listed twice: \(registered)")
        #expect(declared.count >= 14, "the scan found \(declared.sorted())")
        #expect(Set(registered) == declared, "not registered: \(declared.subtracting(registered).sorted()); registered but not found: \(Set(registered).subtracting(declared).sorted())")
        #expect(withID.isSubset(of: declared), "an id but no conformance: \(withID.subtracting(declared).sorted())")
    }

    /// Each rule is declared with its check's id, and belongs to one check; check ids are unique.
    @Test func everyRuleNamesTheCheckThatListsIt() {
        let ids = RuleRegistry.checks.map { $0.id }
        #expect(Set(ids).count == ids.count, "\(ids)")
        var owners: [String: [String]] = [:]
        for check in RuleRegistry.checks {
            let core = (check as? any LocationCheck.Type)?.coreRules ?? []
            #expect(!check.rules.isEmpty, "\(check)")
            for rule in check.rules + core {
                #expect(rule.check == check.id, "\(rule.id) names \(rule.check ?? "no check"), listed by \(check.id)")
                owners[rule.id, default: []].append(check.id)
            }
        }
        #expect(owners.filter { $0.value.count > 1 }.isEmpty, "\(owners.filter { $0.value.count > 1 })")
        #expect(Set(owners.keys) == Set(RuleRegistry.allRules.map(\.id)))
        #expect(RuleRegistry.allRules.allSatisfy { RuleRegistry.check(ofRule: $0.id) == $0.check })
        #expect(RuleRegistry.check(ofRule: "tls.expired") == CertificateCheck.id)
        #expect(RuleRegistry.check(ofRule: "size.too-large") == SizeCheck.id)
        #expect(RuleRegistry.check(ofRule: "json.syntax") == DocumentCheck.id)
        #expect(RuleRegistry.check(ofRule: "http.root-only") == LocationChoice.id)
        #expect(RuleRegistry.check(ofRule: "no.such-rule") == nil)
    }

    @Test func findingsDocumentListsExactlyTheRegisteredRules() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("docs/findings.md"), encoding: .utf8)
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
