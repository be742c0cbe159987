import Audit
import Foundation
import Reporting

/// `aasa-audit validate FILE...`: checks local files (or standard input) before they are deployed.
struct ValidateCommand {
    var files: [String]
    var json: Bool
    var console: Console

    static let help = """
        USAGE: aasa-audit validate [--json] FILE... | -

        Validates apple-app-site-association files on disk (or "-" for standard input) with the same
        document checks the audit applies to served files: strict JSON, CMS-signed files unwrapped, every
        service, both applinks formats, app IDs, substitution variables and pattern mistakes. Each finding
        has a stable id, a JSON pointer to the offending value and how to fix it (see --list-findings).

        OPTIONS:
          --json     Print the results as JSON on stdout (an array: file, verdict, findings).
          -h, --help Show this help.

        EXIT STATUS:
          0  no file has an error (warnings allowed)
          1  at least one file has an error
          2  usage error, or a file could not be read
        """

    /// Parses the arguments after `validate`.
    static func parse(_ arguments: [String]) throws(UsageError) -> ValidateCommand? {
        var files: [String] = [], json = false
        var cursor = ArgumentCursor(arguments)
        while let argument = try cursor.next() {
            switch argument {
            case .positional(let file): files.append(file)
            case .option("--json"): json = true
            case .option("-h"), .option("--help"): return nil
            case .option(let name): throw .unknownOption(name)
            }
        }
        guard !files.isEmpty else { throw .missingValue("validate") }
        return ValidateCommand(files: files, json: json, console: Console())
    }

    func run() -> AuditCommand.ExitStatus {
        var results: [FileValidation] = []
        var unreadable = false
        for file in files {
            guard let data = read(file) else {
                console.error("aasa-audit: cannot read \(file): \(file == "-" ? "standard input failed" : "no such file, or not readable")")
                unreadable = true
                continue
            }
            results.append(FileValidation(file: file, findings: DocumentValidator.validate(SignedFile.open(data)).findings))
        }
        if json {
            do {
                console.out(TerminalText.jsonForTerminal(try ValidationSummary.json(results)))
            } catch {
                console.error("aasa-audit: cannot encode the results: \(error)")
                return .usageOrInputError
            }
        } else if !results.isEmpty {
            console.out(ValidationSummary.render(results))
        }
        if unreadable { return .usageOrInputError }
        return results.contains { $0.verdict == .fail } ? .domainFailed : .success
    }

    /// The file's bytes, read whole (a file of any size: the validator bounds its own work).
    private func read(_ file: String) -> Data? {
        if file == "-" { return try? FileHandle.standardInput.readToEnd() ?? Data() }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), !isDirectory.boolValue else { return nil }
        return FileManager.default.contents(atPath: file)
    }
}
