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
                results.append(FileValidation(file: file, findings: AssetLinksValidator.validate(bytes).placedFindings, document: "assetlinks"))
            } else {
                let validation = DocumentValidator.validate(SignedFile.open(data))
                results.append(FileValidation(file: file, findings: validation.placedFindings, signed: validation.wasSigned))
            }
        }
        let policy = ExitPolicy(strict: options.strict)
        switch options.format {
        case .json:
            do {
                console.out(TerminalText.jsonForTerminal(try ValidationSummary.json(results)))
            } catch {
                console.error("aasa-audit: cannot encode the results: \(error)")
                return .usageOrInputError
            }
        case .text:
            if !results.isEmpty { console.out(ValidationSummary.render(results)) }
        case .github:
            let commands = ValidationAnnotations.render(results)
            if !commands.isEmpty { console.out(commands) }
        case .junit:
            console.out(ValidationJUnit.render(results, policy: policy))
        }
        if unreadable { return .usageOrInputError }
        return results.contains { policy.fails($0.verdict) } ? .domainFailed : .success
    }
}
