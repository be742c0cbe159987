import Foundation
import Testing
import TestSupport

/// `aasa-audit completions bash|zsh|fish`: each script loads in its shell and completes the
/// subcommands, every option of each, the values of --format and --fail-on, and paths.
@Suite struct CompletionsTests {
    typealias Lists = CommandOptionLists

    @Test func bashRegistersTheFunction() throws {
        let outcome = try Lists.bash("source <(aasa-audit completions bash) && complete -p aasa-audit")
        #expect(outcome.status == 0 && outcome.stderr.isEmpty, "\(outcome.stderr)")
        #expect(outcome.stdout == "complete -F _aasa_audit aasa-audit\n")
    }

    @Test(arguments: [
        (["--for"], ["--format"]),
        (["--format", ""], ["json", "html", "md", "junit", "prom"]),
        (["--format", "json,m"], ["json,md"]),
        (["--format", "=", "j"], ["json", "junit"]),
        (["--fail-on", ""], ["any", "new", "expiring"]),
        (["val"], ["validate"]),
        (["--quiet", "val"], []),
        (["merge", "--no-"], ["--no-baseline", "--no-history"]),
        (["match", "--connect-t"], ["--connect-timeout", "--connect-to"]),
        (["history", ""], ["import", "prune"]),
        (["validate", "--format", ""], ["text", "json", "github", "junit"]),
        (["validate", "--st"], ["--strict"]),
        (["diff", "--u"], ["--urls"]),
        (["di"], ["diff"]),
        (["completions", ""], ["bash", "zsh", "fish"]),
        (["help", "m"], ["match", "merge"]),
        (["--timeout", ""], []),
    ])
    func bashCompletes(words: [String], expected: [String]) throws {
        #expect(try Lists.bashCandidates(words) == expected, "\(words)")
    }

    @Test func bashCompletesPathsWhereAnOptionTakesOne() throws {
        let folder = try AuditBinary.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("reports-dir"), withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: folder.appendingPathComponent("report-file.json"))
        let prefix = folder.path + "/report"
        #expect(try Lists.bashCandidates(["--out", prefix]) == [folder.path + "/reports-dir"], "--out takes a folder")
        #expect(try Set(Lists.bashCandidates(["--baseline", prefix])) == [folder.path + "/reports-dir", folder.path + "/report-file.json"])
        #expect(try Set(Lists.bashCandidates(["validate", prefix])) == [folder.path + "/reports-dir", folder.path + "/report-file.json"])
    }

    @Test func zshLoadsTheScriptAndDefinesEverySubcommandsCompletion() throws {
        // zsh is a test dependency (scripts/install-deps.sh --test): without it this test fails.
        guard let zsh = ShellCommand.which("zsh") else { throw HarnessError.missingProgram("zsh") }
        let home = try AuditBinary.temporaryDirectory()
        var environment = try Lists.environment()
        environment["ZDOTDIR"] = home.path
        environment["HOME"] = home.path
        let functions = Lists.commands.map { "_aasa_audit_\($0)" }.joined(separator: " ")
        let script = "autoload -U compinit && compinit -u -d \(home.path)/.zcompdump && source <(aasa-audit completions zsh) && print -r -- $_comps[aasa-audit] && functions \(functions)"
        let outcome = try ShellCommand.run(zsh, ["-f", "-c", script], environment: environment, checked: false)
        #expect(outcome.status == 0 && outcome.stderr.isEmpty, "\(outcome.stderr)")
        #expect(outcome.stdout.hasPrefix("_aasa_audit\n"))
        // Each subcommand's function lists every option its --help lists.
        let bodies = outcome.stdout.components(separatedBy: "\n_aasa_audit_")
        for command in Lists.commands {
            let body = bodies.first { $0.hasPrefix("\(command) ()") } ?? ""
            #expect(!body.isEmpty, "no _aasa_audit_\(command)")
            let help = try Lists.help(command)
            #expect(Lists.optionWords(body).isSuperset(of: help), "\(command): \(help.subtracting(Lists.optionWords(body)).sorted())")
        }
    }

    @Test func fishCompletesOptionsChoicesAndSubcommands() throws {
        // fish is a test dependency (scripts/install-deps.sh --test): without it this test fails.
        guard let fish = ShellCommand.which("fish") else { throw HarnessError.missingProgram("fish") }
        let home = try AuditBinary.temporaryDirectory()
        var environment = try Lists.environment()
        environment["HOME"] = home.path
        environment["XDG_CONFIG_HOME"] = home.path
        environment["XDG_DATA_HOME"] = home.path
        func complete(_ line: String) throws -> [String] {
            let script = "aasa-audit completions fish | source; or exit 3; complete -C '\(line)'"
            let outcome = try ShellCommand.run(fish, ["--no-config", "-c", script], environment: environment, checked: false)
            #expect(outcome.status == 0 && outcome.stderr.isEmpty, "\(line): \(outcome.stderr)")
            return outcome.stdout.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
        }
        #expect(try complete("aasa-audit --for") == ["--format"])
        #expect(try Set(complete("aasa-audit --fail-on ")) == ["any", "new", "expiring"])
        #expect(try Set(complete("aasa-audit --format ")) == ["json", "html", "md", "junit", "prom"])
        #expect(try Set(complete("aasa-audit ")) == Set(Lists.commands.filter { $0 != "audit" } + ["help"]))
        for command in Lists.commands {
            let line = (["aasa-audit"] + Lists.prefix(command) + ["-"]).joined(separator: " ")
            #expect(try Set(complete(line)) == Lists.help(command), "\(command)")
        }
    }

    @Test func aShellItDoesNotWriteForIsAUsageError() throws {
        let outcome = try AuditBinary.run(["completions", "tcsh"])
        #expect(outcome.status == 2 && outcome.stdout.isEmpty)
        #expect(outcome.stderr == "aasa-audit completions: completions \"tcsh\": not a shell it writes for; name one of bash, zsh, fish\n")
        #expect(try AuditBinary.run(["completions"]).status == 2)
    }
}
