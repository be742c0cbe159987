/// A command line that cannot be run; each case has what is needed to explain it.
public enum UsageError: Error, Equatable, CustomStringConvertible {
    /// An option this subcommand does not take, with the one it most likely stands for (see
    /// `CommandOptions.parseSuggesting`).
    case unknownOption(String, suggestion: String? = nil)
    /// A first argument that names no subcommand but is close to one (see `CommandChoice`), with
    /// the one it most likely stands for.
    case unknownCommand(String, suggestion: String?)
    /// The first word after the audit's options is a command's name or close to one (`aasa-audit
    /// --no-cdn validat foo.json`): the word, and the command it stands for.
    case commandAfterOptions(String, command: String)
    /// An option given last, without its value.
    case missingValue(String)
    /// Option, value as given, why it is refused.
    case invalidValue(String, String, String)
    /// A required argument (a FILE, a DOMAIN, a URL) is missing; the text says which.
    case missingArgument(String)

    public var description: String {
        switch self {
        case .unknownOption(let option, let suggestion?): return "unknown option '\(option)'; did you mean '\(suggestion)'?"
        case .unknownOption(let option, nil): return "unknown option '\(option)' (see --help)"
        case .unknownCommand(let command, let suggestion?): return "unknown command '\(command)'; did you mean '\(suggestion)'?"
        case .unknownCommand(let command, nil): return "unknown command '\(command)' (see aasa-audit help)"
        case .commandAfterOptions(let word, let command) where word == command:
            return "'\(word)' after options: a command goes first (aasa-audit \(command) [OPTIONS] ...); nothing was checked"
        case .commandAfterOptions(let word, let command):
            return "unknown command '\(word)' after options; did you mean '\(command)'? A command goes first (aasa-audit \(command) [OPTIONS] ...); nothing was checked"
        case .missingValue(let option): return "\(option) needs a value (see --help)"
        case .invalidValue(let option, let value, let reason): return "\(option) \"\(value)\": \(reason)"
        case .missingArgument(let text): return text
        }
    }
}

/// What a command line asks of a subcommand: its help, or a run with these options.
public enum Invocation<Options> {
    /// `-h` / `--help`.
    case help
    case run(Options)
}

/// The parsed command line of one subcommand: its name, what it is for, its help text and its parser.
/// The executable pairs each with the code that runs it (see `Subcommand` there).
public protocol CommandOptions {
    /// The word after `aasa-audit` that selects the subcommand (`validate`); the audit's is `audit`,
    /// and it is what runs when no subcommand is named.
    static var name: String { get }
    /// One line saying what the subcommand does.
    static var summary: String { get }
    /// The text `--help` prints; its OPTIONS are `optionSpecs`.
    static var help: String { get }
    /// Every option, as the subcommand's `OptionTable` declares it (`-h`, `--help` last): what
    /// `--help`, suggestions and shell completions list.
    static var optionSpecs: [OptionSpec] { get }
    /// What the subcommand's operands are, for shell completion.
    static var operands: ValueKind { get }
    /// Parses the arguments after the subcommand's name. Only splits and throws; never prints.
    static func parse(_ arguments: [String]) throws(UsageError) -> Invocation<Self>
}
