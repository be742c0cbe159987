import Audit
import Foundation
import Reporting
import Testing
import TestSupport

/// `aasa-audit validate`: local files and standard input, the way people check a file before deploying.
@Suite struct ValidateCommandTests {
    func write(_ text: String, named name: String = "aasa.json") throws -> String {
        let file = try AuditBinary.temporaryDirectory().appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    func results(_ outcome: ShellCommand.Outcome) throws -> [FileValidation] {
        try JSONDecoder().decode([FileValidation].self, from: Data(outcome.stdout.utf8))
    }

    @Test func validFileExitsZero() throws {
        let outcome = try AuditBinary.run(["validate", try write(ScenarioFiles.good)])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.hasPrefix("PASS"))
    }

    @Test func brokenFileExitsOneAndSaysWhereAndHowToFix() throws {
        let outcome = try AuditBinary.run(["validate", try write(ScenarioFiles.invalidJSON)])
        #expect(outcome.status == 1)
        #expect(outcome.stdout.contains("error json.syntax"))
        #expect(outcome.stdout.contains("line 3"))
        #expect(outcome.stdout.contains("fix: "))
    }

    @Test func standardInputAndJSONOutput() throws {
        let input = try write("[1, 2]")
        let outcome = try ShellCommand.run("/bin/sh", ["-c", "\"$0\" validate --json - < \"$1\"", try AuditBinary.path(), input], checked: false)
        #expect(outcome.status == 1)
        let parsed = try results(outcome)
        #expect(parsed.map(\.file) == ["-"])
        // A JSON array at the root is the shape of an Android statement list, and is checked as one.
        #expect(parsed.first?.findings.map(\.id) == ["assetlinks.statement-type", "assetlinks.statement-type"])
        #expect(parsed.first?.findings.first?.pointer == "/0")
        #expect(parsed.first?.document == "assetlinks")
    }

    @Test func unreadableFileExitsTwoAndOthersAreStillChecked() throws {
        let good = try write(ScenarioFiles.good)
        let outcome = try AuditBinary.run(["validate", "/nonexistent/aasa.json", good])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("/nonexistent/aasa.json"))
        #expect(outcome.stdout.contains("PASS  \(good)"))
    }

    @Test(arguments: [(["validate"], "at least one FILE"), (["validate", "--frob", "x"], "unknown option '--frob'")])
    func usageErrors(arguments: [String], text: String) throws {
        let outcome = try AuditBinary.run(arguments)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains(text), "\(outcome.stderr)")
    }

    /// A warning deep in a 300-line file: its line in every format, exit 0, and exit 1 with --strict.
    @Test func formatsGiveTheLineAndStrictFailsOnWarnings() throws {
        var lines = ["{", "  \"applinks\": {", "    \"details\": [{", "      \"appIDs\": [\"ABQ7KM3X2P.com.exemplo.app\"],", "      \"components\": ["]
        for index in 0..<290 { lines.append(index == 250 ? "        { \"/\": \"/checkout/*\", \"exlude\": true }," : "        { \"/\": \"/p\(index)/*\" },") }
        lines += ["        { \"/\": \"/last\" }", "      ]", "    }]", "  }", "}"]
        #expect(lines.count == 300)
        let file = try write(lines.joined(separator: "\n") + "\n")
        let text = try AuditBinary.run(["validate", file])
        #expect(text.status == 0, "\(text.stdout)")
        #expect(text.stdout.contains("exlude (line 256, column 41):"), "\(text.stdout)")
        let strict = try AuditBinary.run(["validate", "--strict", file])
        #expect(strict.status == 1 && strict.stdout == text.stdout)
        let json = try results(try AuditBinary.run(["validate", "--format", "json", file]))
        #expect(json.first?.findings.first { $0.id == "schema.unknown-key" }.map { [$0.line, $0.column] } == [256, 41])
        let github = try AuditBinary.run(["validate", "--format", "github", "--strict", file])
        #expect(github.status == 1)
        #expect(github.stdout.contains("::warning file=\(file),line=256,col=41,title=schema.unknown-key::Component key \"exlude\""), "\(github.stdout)")
        let junit = try AuditBinary.run(["validate", "--format", "junit", "--strict", file])
        #expect(junit.status == 1 && junit.stdout.contains("failures=\"1\"") && junit.stdout.contains("line 256, column 41"), "\(junit.stdout)")
    }

    @Test func helpExplainsTheSubcommand() throws {
        let outcome = try AuditBinary.run(["validate", "--help"])
        #expect(outcome.status == 0 && outcome.stdout.contains("USAGE: aasa-audit validate"))
    }
}
