import Testing
@testable import AASA

/// Shared helpers for the tests of ComponentsCheck, DefaultsCheck, SubstitutionVariablesCheck and PatternLintCheck.
enum ComponentChecksFixture {
    /// The checks these tests cover (the registry may hold others).
    static let checks: [any SchemaCheck.Type] = [ComponentsCheck.self, DefaultsCheck.self, SubstitutionVariablesCheck.self, PatternLintCheck.self]

    /// A document from JSON text, parsed as a file would be.
    static func document(_ text: String) throws -> AASADocument {
        let json = try JSONParser.parse(Array(text.utf8))
        return try #require(AASADocument(json: json))
    }

    /// The findings of `check` on `text`.
    static func findings(_ check: any SchemaCheck.Type, _ text: String) throws -> [Finding] {
        check.findings(in: try document(text))
    }

    /// A document whose only details entry is `entry` (JSON object text).
    static func entry(_ entry: String) -> String {
        #"{"applinks": {"details": [\#(entry)]}}"#
    }

    /// A document with one details entry holding `components` (JSON array text).
    static func components(_ components: String) -> String {
        entry(#"{"appIDs": ["ABQ7KM3X2P.com.exemplo.app"], "components": \#(components)}"#)
    }
}

/// One expected finding: id, severity, pointer, and words its message must contain.
struct ExpectedComponentFinding: Sendable, CustomTestStringConvertible {
    let id: String
    let severity: Severity
    let pointer: String
    let mentions: [String]

    init(_ id: String, _ severity: Severity, _ pointer: String, mentions: [String] = []) {
        self.id = id
        self.severity = severity
        self.pointer = pointer
        self.mentions = mentions
    }

    var testDescription: String { "\(id) at \(pointer)" }

    /// Whether `finding` is this one.
    func matches(_ finding: Finding) -> Bool {
        finding.id == id && finding.severity == severity && finding.pointer == pointer
            && mentions.allSatisfy { finding.message.contains($0) }
    }
}

/// A document and the findings one check must report for it, exactly.
struct ComponentCheckCase: Sendable, CustomTestStringConvertible {
    let name: String
    let text: String
    let expected: [ExpectedComponentFinding]

    init(_ name: String, _ text: String, _ expected: [ExpectedComponentFinding]) {
        self.name = name
        self.text = text
        self.expected = expected
    }

    var testDescription: String { name }

    /// Expects `check` to report exactly the expected findings (order aside), each with a fix.
    func verify(_ check: any SchemaCheck.Type, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let findings = try ComponentChecksFixture.findings(check, text)
        #expect(findings.count == expected.count, "\(findings.map { "\($0.id) \($0.pointer ?? "-"): \($0.message)" })", sourceLocation: sourceLocation)
        for expectation in expected {
            #expect(findings.contains(where: expectation.matches),
                    "missing \(expectation.testDescription) \(expectation.mentions) in \(findings.map { "\($0.id) \($0.pointer ?? "-"): \($0.message)" })",
                    sourceLocation: sourceLocation)
        }
        for finding in findings {
            #expect(finding.pointer != nil && finding.fix?.isEmpty == false, "\(finding)", sourceLocation: sourceLocation)
        }
    }
}
