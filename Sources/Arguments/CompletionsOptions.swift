/// `aasa-audit completions bash|zsh|fish`.
public struct CompletionsOptions: CommandOptions, Equatable, Sendable {
    public static let name = "completions"
    public static let summary = "print a shell completion script (bash, zsh or fish) for aasa-audit"

    /// The shell the script is for.
    public var shell: CompletionShell

    public init(shell: CompletionShell) {
        self.shell = shell
    }

    public static let table = OptionTable<[String]>([])
    public static var optionSpecs: [OptionSpec] { table.specs }
    public static let operands = ValueKind.choices(CompletionShell.allCases.map(\.rawValue))

    /// Parses the arguments after `completions`: one shell.
    public static func parse(_ arguments: [String]) throws(UsageError) -> Invocation<CompletionsOptions> {
        var words: [String] = []
        if try table.parse(arguments, into: &words, operand: { words, word in words.append(word) }) { return .help }
        let shells = CompletionShell.allCases.map(\.rawValue).joined(separator: ", ")
        guard let word = words.first else { throw .missingArgument("completions needs a shell: \(shells) (see completions --help)") }
        guard words.count == 1 else { throw .invalidValue("completions", words.joined(separator: " "), "name one shell: \(shells)") }
        guard let shell = CompletionShell(rawValue: word) else { throw .invalidValue("completions", word, "not a shell it writes for; name one of \(shells)") }
        return .run(CompletionsOptions(shell: shell))
    }

    public static let help = """
        USAGE: aasa-audit completions bash|zsh|fish

        Prints a completion script for the shell: the subcommands, every option of each, the values
        of --format, --fail-on and the like, and file or folder names where an option takes a path.
        The script is generated from the same declarations that parse the command line, so it lists
        what this version takes. Load it for the current shell, or install it where the shell looks:
          bash:  source <(aasa-audit completions bash)
                 aasa-audit completions bash > /usr/share/bash-completion/completions/aasa-audit
          zsh:   aasa-audit completions zsh > "${fpath[1]}/_aasa-audit"   (then: compinit)
          fish:  aasa-audit completions fish > ~/.config/fish/completions/aasa-audit.fish

        OPTIONS:
        \(table.helpLines())

        EXIT STATUS:
          0  the script was printed
          2  usage error (no shell, or one it does not write for)
        """
}

/// A shell `completions` writes a script for.
public enum CompletionShell: String, CaseIterable, Equatable, Sendable {
    case bash, zsh, fish
}
