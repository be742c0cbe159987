import Arguments
import Audit

/// `aasa-audit completions bash|zsh|fish`: prints the shell's completion script, written from the
/// option tables of every subcommand (`Subcommands.named`), so it lists what this build takes.
struct CompletionsCommand: Subcommand {
    var options: CompletionsOptions
    var console: Console

    func run() -> ExitStatus {
        let script = CompletionScript(audit: Subcommands.audit.completed,
                                      subcommands: Subcommands.named.map { $0.completed })
        console.out(script.text(for: options.shell))
        return .success
    }
}

extension Subcommand {
    /// What the completion script says of this subcommand.
    static var completed: CompletedCommand { CompletedCommand(Options.self) }
}
