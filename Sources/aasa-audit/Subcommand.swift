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

    /// Parses `arguments` (those after the subcommand's name) and runs it: the help for `--help`,
    /// status 2 and a line starting with `prefix` for a usage error.
    static func start(_ arguments: [String], prefix: String, console: Console) -> ExitStatus {
        do {
            switch try Options.parse(arguments) {
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
    static let named: [any Subcommand.Type] = [ValidateCommand.self, MatchCommand.self, MergeCommand.self]
    /// Runs when the first argument names no subcommand.
    static let audit: any Subcommand.Type = AuditCommand.self

    /// Parses `arguments` (without the program's name), runs the subcommand they name, and exits
    /// with its status.
    static func main(_ arguments: [String], console: Console = Console()) -> Never {
        if let first = arguments.first, let command = named.first(where: { $0.name == first }) {
            exit(command.start(Array(arguments.dropFirst()), prefix: "aasa-audit \(first)", console: console).rawValue)
        }
        exit(audit.start(arguments, prefix: "aasa-audit", console: console).rawValue)
    }
}
