import Arguments
import Audit
import Foundation
import Reporting
import Run

/// `aasa-audit validate FILE...`: checks local files (or standard input) before they are deployed.
struct ValidateCommand: Subcommand {
    var options: ValidateOptions
    var console: Console

    func run() -> ExitStatus {
        var results: [FileValidation] = []
        var unreadable = false
        for file in options.files {
            let data: Data
            do {
                data = try LocalFile.read(file)
            } catch {
                console.error("aasa-audit: cannot read \(file): \(error)")
                unreadable = true
                continue
            }
            let bytes = Array(data)
            if AssetLinksValidator.isStatementList(fileName: file, bytes: bytes) {
                results.append(FileValidation(file: file, findings: AssetLinksValidator.validate(bytes).findings, document: "assetlinks"))
            } else {
                results.append(FileValidation(file: file, findings: DocumentValidator.validate(SignedFile.open(data)).findings))
            }
        }
        if options.json {
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
}
