/// `aasa-audit validate [--json] FILE... | -`.
public struct ValidateOptions: CommandOptions, Equatable, Sendable {
    public static let name = "validate"
    public static let summary = "check local AASA files (or standard input) before they are deployed"

    /// The files, "-" for standard input.
    public var files: [String] = []
    /// `--json`: the results as JSON on stdout.
    public var json = false

    /// `files`, and `--json` when `json`.
    public init(files: [String] = [], json: Bool = false) {
        self.files = files
        self.json = json
    }

    /// Every option of `validate`, declared once.
    public static let table = OptionTable<ValidateOptions>([
        .flag("--json", help: "Print the results as JSON on stdout (an array: file, verdict, findings).") { $0.json = true },
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
        USAGE: aasa-audit validate [--json] FILE... | -

        Validates apple-app-site-association files on disk (or "-" for standard input) with the same
        document checks the audit applies to served files: strict JSON, CMS-signed files unwrapped, every
        service, both applinks formats, app IDs, substitution variables and pattern mistakes. Each finding
        has a stable id, a JSON pointer to the offending value and how to fix it (see --list-findings).

        OPTIONS:
        \(table.helpLines())

        EXIT STATUS:
          0  no file has an error (warnings allowed)
          1  at least one file has an error
          2  usage error, or a file could not be read
        """
}
