import Foundation
import Testing
import TestSupport

/// docs/aasa-audit.1 stays in step with `--help`: every option the help lists is in the man page.
@Suite struct ManPageTests {
    static let manPage = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/aasa-audit.1")

    /// The man page's text with roff's escaped hyphens ("\-") made plain.
    static func manText() throws -> String {
        try String(contentsOf: manPage, encoding: .utf8).replacingOccurrences(of: "\\-", with: "-")
    }

    /// Every option named at the start of an option line of `--help` ("  -o, --out DIR ...").
    static func helpOptions(_ help: String) -> [String] {
        var options: [String] = []
        for line in help.split(separator: "\n") {
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("-"), line.hasPrefix("  ") else { continue }
            // "-o, --out DIR   Write ..." → ["-o", "--out"]
            for word in trimmed.split(separator: " ").prefix(3) {
                let token = word.hasSuffix(",") ? word.dropLast() : word
                if token.hasPrefix("-") && token.count > 1 && token.dropFirst().allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) {
                    options.append(String(token))
                }
            }
        }
        return options
    }

    @Test func everyOptionOfHelpIsInTheManPage() throws {
        let help = try AuditBinary.run(["--help"])
        #expect(help.status == 0)
        let options = Self.helpOptions(help.stdout)
        #expect(options.count >= 25, "the option lines of --help were not found: \(options)")
        #expect(options.contains("--baseline") && options.contains("-o") && options.contains("--out"))
        let man = try Self.manText()
        for option in Set(options) {
            #expect(man.contains(option), "\(option) is in --help but not in docs/aasa-audit.1")
        }
        let validate = try AuditBinary.run(["validate", "--help"])
        for option in Self.helpOptions(validate.stdout) where option != "-h" && option != "--help" {
            #expect(man.contains(option), "validate \(option) is not in docs/aasa-audit.1")
        }
        #expect(man.contains("aasa-audit validate"))
        for command in ["merge", "history"] {
            let help = try AuditBinary.run([command, "--help"])
            for option in Self.helpOptions(help.stdout) where option != "-h" && option != "--help" {
                #expect(man.contains(option), "\(command) \(option) is not in docs/aasa-audit.1")
            }
        }
    }

    @Test func theManPageIsWellFormedRoff() throws {
        // groff is a test dependency (scripts/install-deps.sh --test): without it this test fails.
        guard let groff = ShellCommand.which("groff") else { throw HarnessError.missingProgram("groff (Debian package groff-base)") }
        let outcome = try ShellCommand.run(groff, ["-man", "-Tutf8", "-ww", "-z", Self.manPage.path], checked: false)
        #expect(outcome.status == 0 && outcome.stderr.isEmpty, "\(outcome.stderr)")
    }
}
