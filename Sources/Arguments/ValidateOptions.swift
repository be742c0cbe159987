/// `aasa-audit validate [--format FORMAT] [--strict] FILE... | -`.
public struct ValidateOptions: CommandOptions, Equatable, Sendable {
    public static let name = "validate"
    public static let summary = "check local AASA and assetlinks.json files (or standard input) before they are deployed"

    /// How the results are printed on stdout.
    public enum Format: String, Equatable, Sendable, CaseIterable {
        /// For people: a block per file, each finding with its pointer, line and column, and fix.
        case text
        /// For scripts: an array of file, verdict, findings (each with line and column).
        case json
        /// GitHub Actions workflow commands: an annotation per finding on its line.
        case github
        /// JUnit XML for CI servers: a suite per file, a failing case per failing finding.
        case junit
    }

    /// The files, "-" for standard input.
    public var files: [String] = []
    /// `--format`, or `--json` for `json`.
    public var format = Format.text
    /// `--strict`: warnings fail too (exit 1, JUnit failures).
    public var strict = false

    /// `files`, printed as `format`; `strict` for `--strict`.
    public init(files: [String] = [], format: Format = .text, strict: Bool = false) {
        self.files = files
        self.format = format
        self.strict = strict
    }

    /// Whether the results are JSON (`--json`, `--format json`).
    public var json: Bool { format == .json }

    /// Every option of `validate`, declared once.
    public static let table = OptionTable<ValidateOptions>([
        .value("--format", valueName: "FORMAT", kind: .choices(Format.allCases.map(\.rawValue)), defaultValue: Format.text.rawValue,
               help: "How the results are printed on stdout: text (a block per file, each finding with its pointer, line, column and fix), json (an array: file, verdict, findings with line and column, signed), github (a GitHub Actions workflow command per finding, ::error file=F,line=L,col=C,title=ID::message, shown on that line of the pull request) or junit (JUnit XML: a suite per file, a failing test case per failing finding).") {
            guard let format = Format(rawValue: $1.value) else {
                throw UsageError.invalidValue($1.name, $1.value, "one of \(Format.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            $0.format = format
        },
        .flag("--json", help: "The same as --format json.") { $0.format = .json },
        .flag("--strict", help: "Warnings fail too: exit 1, and JUnit failures.") { $0.strict = true },
    ])
    public static var optionSpecs: [OptionSpec] { table.specs }
    public static let operands = ValueKind.file

    /// Parses the arguments after `validate`.
    public static func parse(_ arguments: [String]) throws(UsageError) -> Invocation<ValidateOptions> {
        var options = ValidateOptions()
        if try table.parse(arguments, into: &options, operand: { options, file in options.files.append(file) }) { return .help }
        guard !options.files.isEmpty else {
            throw .missingArgument("validate needs at least one FILE, or - for standard input (see validate --help)")
        }
        return .run(options)
    }

    public static let help = """
        USAGE: aasa-audit validate [--format text|json|github|junit] [--strict] FILE... | -

        Validates apple-app-site-association files on disk (or "-" for standard input) with the same
        document checks the audit applies to served files: strict JSON, CMS-signed files unwrapped, every
        service, both applinks formats, app IDs, substitution variables and pattern mistakes. A file named
        assetlinks.json, or whose JSON root is an array, is checked as Android's Digital Asset Links
        statement list instead, with the audit's assetlinks.json checks (relations, targets, package
        names, SHA-256 fingerprints). Each finding has a stable id, a JSON pointer to the offending
        value, the line and column where that value starts (in the JSON inside the signature, for a
        signed file) and how to fix it (see --list-findings).

        OPTIONS:
        \(table.helpLines())

        EXIT STATUS:
          0  no file has an error (warnings allowed, unless --strict)
          1  at least one file has an error (with --strict: or a warning)
          2  usage error, or a file could not be read
        """
}
