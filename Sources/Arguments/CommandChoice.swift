import Audit

/// What the first argument of a command line selects: a subcommand, `help [COMMAND]`, or the
/// audit (every other command line: options and domains).
///
/// A mistyped subcommand must not become a domain list or a domain: `aasa-audit validat foo.json`
/// would otherwise audit "validat" and "foo.json" and write reports. The rule: a first argument
/// that does not start with `-`, holds no dot (`.`, or the full-width dots IDNA treats as one), no
/// `:` and no `/`, and is within 2 edits (Levenshtein, ignoring case) of a subcommand's name or of
/// `help`, is an unknown command. Such a word is never an auditable domain (a domain has at least
/// two labels, see `DomainName`), so no real domain or URL is caught by it; a dotless word farther
/// from every command is left to the domain checks, which say what is wrong with it.
public enum CommandChoice: Equatable, Sendable {
    /// A named subcommand (`validate`), with the arguments after its name.
    case subcommand(String, [String])
    /// `help [COMMAND]`: the help of COMMAND, or of the audit when none is named.
    case help(String?)
    /// The audit, with every argument.
    case audit([String])

    /// The word that asks for help.
    public static let helpWord = "help"
    /// The audit's name, accepted by `help audit`.
    public static let auditWord = AuditOptions.name
    /// The most edits a mistyped command may have (`mtach` is 2 from `match`).
    public static let maximumEdits = 2

    /// Picks what `arguments` (without the program's name) ask for; `commands` are the subcommands'
    /// names. Throws `.unknownCommand` for a first argument close to a command (see the type's
    /// rule), or a `help` topic that names no command.
    public static func pick(_ arguments: [String], commands: [String]) throws(UsageError) -> CommandChoice {
        guard let first = arguments.first else { return .audit([]) }
        if commands.contains(first) { return .subcommand(first, Array(arguments.dropFirst())) }
        if first == helpWord {
            let topics = Array(arguments.dropFirst())
            guard let topic = topics.first, topic != "-h", topic != "--help" else { return .help(nil) }
            guard topics.count == 1 else {
                throw .invalidValue(helpWord, topics.joined(separator: " "), "name one command: \(([auditWord] + commands).joined(separator: ", "))")
            }
            if topic == auditWord || topic == helpWord || commands.contains(topic) { return .help(topic) }
            throw .unknownCommand(topic, suggestion: EditDistance.nearMiss(of: topic, among: [auditWord] + commands + [helpWord],
                                                                            maximum: maximumEdits))
        }
        if let suggestion = mistypedCommand(first, commands: commands) {
            throw .unknownCommand(first, suggestion: suggestion)
        }
        // The first word that is neither an option nor an option's value, wherever it stands:
        // `aasa-audit --no-cdn validat foo.json` must not audit "foo.json" either.
        if first.hasPrefix("-"), let word = firstOperand(of: arguments, options: AuditOptions.optionSpecs),
           let command = mistypedCommand(word, commands: commands) {
            throw .commandAfterOptions(word, command: command)
        }
        return .audit(arguments)
    }

    /// The first argument that is not an option of `options` or the value of one (nil after `--`,
    /// which makes every later word a domain, or when there is none).
    static func firstOperand(of arguments: [String], options: [OptionSpec]) -> String? {
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let word = arguments[index]
            if word == "--" { return nil }
            guard word.hasPrefix("-"), word != "-" else { return word }
            let name = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
            let takesValue = options.first { $0.names.contains(name) }?.takesValue ?? false
            // A value given after "=" is part of the word; otherwise it is the next word.
            index += takesValue && !word.contains("=") ? 2 : 1
        }
        return nil
    }

    /// The command `word` stands for when it is a mistyped one (see the type's rule), else nil.
    public static func mistypedCommand(_ word: String, commands: [String]) -> String? {
        guard !word.hasPrefix("-"), !word.contains(where: { ".:/\u{3002}\u{FF0E}\u{FF61}".contains($0) }) else { return nil }
        return EditDistance.nearMiss(of: word, among: commands + [helpWord], maximum: maximumEdits)
    }
}

extension CommandOptions {
    /// Every name of every option this subcommand takes (`-o`, `--out`, ...), from its table, so a
    /// new option gets suggestions without more code.
    public static var optionNames: [String] { optionSpecs.flatMap(\.names) }

    /// `parse`, with an unknown option given the option it most likely stands for: within 2 edits
    /// of one this subcommand takes (`--strcit` → `--strict`, `-strict` → `--strict`).
    public static func parseSuggesting(_ arguments: [String]) throws(UsageError) -> Invocation<Self> {
        do throws(UsageError) {
            return try parse(arguments)
        } catch {
            guard case .unknownOption(let name, nil) = error, name.count > 2 else { throw error }
            let long = optionNames.filter { $0.hasPrefix("--") }
            throw .unknownOption(name, suggestion: EditDistance.nearMiss(of: name, among: long, maximum: CommandChoice.maximumEdits))
        }
    }
}
