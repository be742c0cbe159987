import AASA
import Audit
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import Reporting

/// `validate`'s outputs (text, JSON, GitHub workflow commands, JUnit) for a long file: a finding
/// deep inside points at its exact line and column in each.
@Suite struct ValidationOutputTests {
    /// A 300-line file, one component per line, with `"exlude": true` (a typo of `exclude`) on component 200.
    static let typoComponent = 200
    static let long: (text: String, line: Int, column: Int) = {
        var lines = ["{", "  \"applinks\": {", "    \"details\": [", "      {", "        \"appIDs\": [\"ABQ7KM3X2P.com.exemplo.app\"],",
                     "        \"components\": ["]
        var typo = (line: 0, column: 0)
        for index in 0..<289 {
            let comma = index == 288 ? "" : ","
            if index == typoComponent {
                let line = "          { \"/\": \"/checkout/\(index)/*\", \"exlude\": true }\(comma)"
                typo = (lines.count + 1, (line.range(of: "true")?.lowerBound.utf16Offset(in: line) ?? 0) + 1)
                lines.append(line)
            } else {
                lines.append("          { \"/\": \"/p\(index)/*\" }\(comma)")
            }
        }
        lines += ["        ]", "      }", "    ]", "  }", "}"]
        precondition(lines.count == 300)
        return (lines.joined(separator: "\n") + "\n", typo.line, typo.column)
    }()

    static func validated(signed: Bool = false) -> FileValidation {
        let validation = DocumentValidator.validate(json: Array(long.text.utf8))
        return FileValidation(file: "public/.well-known/apple-app-site-association", findings: validation.placedFindings, signed: signed)
    }

    static var typo: Finding? {
        validated().findings.first { $0.pointer == "/applinks/details/0/components/\(typoComponent)/exlude" }
    }

    @Test func theFileIs300LinesAndTheTypoIsDeepInside() throws {
        #expect(Self.long.text.filter { $0 == "\n" }.count == 300)
        #expect(Self.long.line == 207)
        let finding = try #require(Self.typo)
        #expect(finding.id == "schema.unknown-key")
        #expect(finding.position == TextPosition(line: Self.long.line, column: Self.long.column))
    }

    @Test func textSaysTheLineAndColumn() throws {
        let text = ValidationSummary.render([Self.validated()])
        #expect(text.contains("warning schema.unknown-key at /applinks/details/0/components/200/exlude (line 207, column \(Self.long.column)):"), "\(text)")
    }

    @Test func jsonHasTheLineAndColumn() throws {
        let data = try ValidationSummary.json([Self.validated()])
        let decoded = try JSONDecoder().decode([FileValidation].self, from: data)
        let finding = try #require(decoded.first?.findings.first { $0.id == "schema.unknown-key" })
        #expect(finding.line == 207 && finding.column == Self.long.column)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"line\" : 207"))
        #expect(!text.contains("\"signed\""), "signed is written only for a signed file")
    }

    @Test func githubAnnotatesTheLine() throws {
        let lines = ValidationAnnotations.render([Self.validated()]).split(separator: "\n")
        let line = try #require(lines.first { $0.contains("title=schema.unknown-key") })
        #expect(line.hasPrefix("::warning file=public/.well-known/apple-app-site-association,line=207,col=\(Self.long.column),title=schema.unknown-key::Component key \"exlude\""), "\(line)")
        #expect(line.contains("%0AFix: Rename the key to \"exclude\": true."))
    }

    /// A signed file's positions are in its signed content, not the lines GitHub shows: they go in the message.
    @Test func aSignedFileSaysItsPositionsAreInTheSignedContent() throws {
        let result = Self.validated(signed: true)
        #expect(ValidationSummary.render([result]).contains("(line 207, column \(Self.long.column) of the signed content)"))
        let line = try #require(ValidationAnnotations.render([result]).split(separator: "\n").first { $0.contains("schema.unknown-key") })
        #expect(!line.contains("line=") && line.contains("(line 207, column \(Self.long.column) of the signed content)"))
        #expect(String(decoding: try ValidationSummary.json([result]), as: UTF8.self).contains("\"signed\" : true"))
    }

    @Test func aSyntaxErrorHasTheParsersPosition() throws {
        let validation = DocumentValidator.validate(json: Array("{\n  \"applinks\": {,}\n}".utf8))
        let finding = try #require(validation.placedFindings.first)
        #expect(finding.id == "json.syntax" && finding.position == TextPosition(line: 2, column: 16))
    }

    @Test func standardInputNamesNoFile() {
        let result = FileValidation(file: "-", findings: [Finding(id: "a.b", severity: .error, message: "m")])
        #expect(ValidationAnnotations.render([result]) == "::error title=a.b::m\n")
    }

    // MARK: GitHub escaping (actions/toolkit's escapeData and escapeProperty)

    @Test(arguments: [
        ("plain", "plain"),
        ("100%", "100%25"),
        ("%0A stays text", "%250A stays text"),
        ("a\nb", "a%0Ab"),
        ("a\r\nb", "a%0D%0Ab"),
        ("a: b, c", "a: b, c"),
        ("::error::x", "::error::x"),
    ])
    func messageEscaping(text: String, escaped: String) {
        #expect(ValidationAnnotations.escapeData(text) == escaped)
    }

    @Test(arguments: [
        ("plain", "plain"),
        ("100%", "100%25"),
        ("a\nb", "a%0Ab"),
        ("a\rb", "a%0Db"),
        ("a: b, c", "a%3A b%2C c"),
        ("dir,x/file:1", "dir%2Cx/file%3A1"),
        ("::error::x", "%3A%3Aerror%3A%3Ax"),
    ])
    func propertyEscaping(text: String, escaped: String) {
        #expect(ValidationAnnotations.escapeProperty(text) == escaped)
    }

    /// A hostile file name and message cannot end the command early or start another one.
    @Test func aHostileNameAndMessageStayInOneCommand() {
        let finding = Finding(id: "schema.x", severity: .error, message: "bad\n::error file=x::injected", pointer: "/a")
        let result = FileValidation(file: "a,line=1:\nb.json", findings: [finding])
        let output = ValidationAnnotations.render([result])
        #expect(output.split(separator: "\n").count == 1)
        #expect(output.hasPrefix("::error file=a%2Cline=1%3A%0Ab.json,title=schema.x::bad ::error file=x::injected [at /a]"), "\(output)")
    }

    // MARK: JUnit

    static func parse(_ xml: String) throws -> XMLElement {
        try #require(try XMLDocument(data: Data(xml.utf8), options: []).rootElement())
    }

    @Test func junitHasAFailingCasePerFailingFinding() throws {
        let broken = DocumentValidator.validate(json: Array(#"{"applinks":{"details":[{"appIDs":["bad id"],"components":[{"/":"/a","exlude":true}]}]}}"#.utf8))
        let results = [FileValidation(file: "a&b.json", findings: broken.placedFindings), Self.validated()]
        for strict in [false, true] {
            let xml = ValidationJUnit.render(results, policy: ExitPolicy(strict: strict))
            let root = try Self.parse(xml)
            let suites = root.elements(forName: "testsuite")
            #expect(suites.map { $0.attribute(forName: "name")?.stringValue } == ["a&b.json", "public/.well-known/apple-app-site-association"])
            let expectedFailures = results.map { $0.findings.filter { ExitPolicy(strict: strict).fails($0.severity) }.count }
            #expect(suites.map { Int($0.attribute(forName: "failures")?.stringValue ?? "") } == expectedFailures)
            #expect(Int(root.attribute(forName: "failures")?.stringValue ?? "") == expectedFailures.reduce(0, +))
            for (suite, failures) in zip(suites, expectedFailures) {
                let cases = suite.elements(forName: "testcase")
                #expect(cases.count == max(failures, 1))
                #expect(cases.filter { !$0.elements(forName: "failure").isEmpty }.count == failures)
            }
            // The long file's warning fails only with --strict, and then names its line.
            let longCases = suites[1].elements(forName: "testcase")
            if strict {
                let failure = try #require(longCases.first { $0.attribute(forName: "name")?.stringValue?.hasPrefix("schema.unknown-key") == true }?
                    .elements(forName: "failure").first)
                #expect(failure.stringValue?.contains("line 207, column \(Self.long.column)") == true)
            } else {
                #expect(longCases.map { $0.attribute(forName: "name")?.stringValue } == ["document"])
                #expect(suites[1].elements(forName: "system-out").first?.stringValue?.contains("schema.unknown-key") == true)
            }
        }
    }
}
