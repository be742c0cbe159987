import AASA
import Audit

/// `validate --format github`: one GitHub Actions workflow command per finding,
/// `::error file=F,line=L,col=C,title=ID::message`, which the runner turns into an annotation on
/// that line of the pull request's diff.
///
/// Escaped as GitHub's own toolkit does (actions/toolkit, packages/core/src/command.ts, `escapeData`
/// and `escapeProperty`): `%` `\r` `\n` as `%25` `%0D` `%0A` in the message, and in properties also
/// `:` `,` as `%3A` `%2C`, so a value can neither end the command early nor start another.
public enum ValidationAnnotations {
    /// The commands for every finding of every file, one per line.
    public static func render(_ results: [FileValidation]) -> String {
        var out = ""
        for result in results {
            for finding in result.findings {
                out += command(for: finding, in: result) + "\n"
            }
        }
        return out
    }

    /// The workflow command of one finding. Standard input ("-") names no file; a signed file's
    /// positions are in its signed content, not in the lines of the file GitHub shows, so they go
    /// in the message instead of `line`/`col`.
    static func command(for finding: Finding, in result: FileValidation) -> String {
        let level: String
        switch finding.severity {
        case .error: level = "error"
        case .warning: level = "warning"
        case .info: level = "notice"
        }
        var properties: [(String, String)] = []
        if result.file != "-" { properties.append(("file", result.file)) }
        var message = TerminalText.sanitize(finding.message)
        if let position = finding.position, result.signed != true {
            properties.append(("line", String(position.line)))
            properties.append(("col", String(position.column)))
        } else if let place = result.place(of: finding) {
            message += " (\(place))"
        }
        if let pointer = finding.pointer { message += " [at \(TerminalText.sanitize(pointer.isEmpty ? "/" : pointer))]" }
        if let fix = finding.fix, finding.severity != .info { message += "\nFix: " + TerminalText.sanitize(fix) }
        properties.append(("title", finding.id))
        let listed = properties.map { "\($0.0)=\(TerminalText.sanitize(escapeProperty($0.1)))" }.joined(separator: ",")
        return "::\(level) \(listed)::\(escapeData(message))"
    }

    /// A workflow command's message: `%`, CR and LF escaped.
    public static func escapeData(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A workflow command's property value: as `escapeData`, and `:` and `,` too.
    public static func escapeProperty(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in escapeData(text).unicodeScalars {
            switch scalar {
            case ":": out += "%3A"
            case ",": out += "%2C"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
