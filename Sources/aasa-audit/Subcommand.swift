import Arguments
import Audit
#if canImport(Glibc)
import Glibc
#endif

/// One subcommand of `aasa-audit`: its parsed options (name, summary, help and parser come with
/// them, from the Arguments target) and what runs them. To add one: an `…Options` type in
/// Sources/Arguments, a type here conforming to this, and an entry in `Subcommands.named`.
protocol Subcommand {
    associatedtype Options: CommandOptions
    init(options: Options, console: Console)
    /// Runs the subcommand; prints through `console`.
    func run() -> ExitStatus
}

extension Subcommand {
    /// The word that selects it (`validate`).
    static var name: String { Options.name }
    /// Its `--help` text (what `aasa-audit help NAME` prints too).
    static var help: String { Options.help }

    /// Parses `arguments` (those after the subcommand's name) and runs it: the help for `--help`,
    /// status 2 and a line starting with `prefix` for a usage error.
    static func start(_ arguments: [String], prefix: String, console: Console) -> ExitStatus {
        do {
            switch try Options.parseSuggesting(arguments) {
            case .help:
                console.out(Options.help)
                return .success
            case .run(let options):
                return Self(options: options, console: console).run()
            }
        } catch {
            console.error("\(prefix): \(error)")
            return .usageOrInputError
        }
    }
}

/// Every subcommand, and the one place that picks which runs.
enum Subcommands {
    /// Named by the first argument.
    static let named: [any Subcommand.Type] = [ValidateCommand.self, MatchCommand.self, DiffCommand.self, MergeCommand.self, HistoryCommand.self,
                                              CompletionsCommand.self]
    /// Runs when the first argument names no subcommand.
    static let audit: any Subcommand.Type = AuditCommand.self

    /// Parses `arguments` (without the program's name), runs the subcommand they name, and exits
    /// with its status.
    /// A first argument close to a subcommand's name is an unknown command, exit 2, before anything
    /// is read, fetched or written (the rule is `CommandChoice`'s).
    static func main(_ arguments: [String], console: Console = Console()) -> Never {
        // A closed standard output (`| head`) must not kill the run before the report files are
        // written: the write fails with EPIPE instead, and `Console` stops printing there.
        signal(SIGPIPE, SIG_IGN)
        let choice: CommandChoice
        do {
            choice = try CommandChoice.pick(arguments, commands: named.map { $0.name })
        } catch {
            console.error("aasa-audit: \(error)")
            exit(ExitStatus.usageOrInputError.rawValue)
        }
        switch choice {
        case .subcommand(let name, let rest):
            let command = named.first { $0.name == name } ?? audit
            exit(command.start(rest, prefix: "aasa-audit \(name)", console: console).rawValue)
        case .help(let topic):
            console.out((named.first { $0.name == topic } ?? audit).help)
            exit(ExitStatus.success.rawValue)
        case .audit(let rest):
            exit(audit.start(rest, prefix: "aasa-audit", console: console).rawValue)
        }
    }
}
