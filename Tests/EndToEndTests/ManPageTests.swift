import Foundation
import Testing
import TestSupport

/// docs/aasa-audit.1 and the README stay in step with the option tables: for each subcommand, the
/// options `--help` lists (written from its table) are the ones the man page and the completion
/// scripts list, no more and no fewer.
@Suite struct ManPageTests {
    typealias Lists = CommandOptionLists

    @Test func theAuditsOptionsAreTheSameInHelpTheManPageAndTheCompletions() throws {
        let help = try Lists.help("audit")
        #expect(help.count >= 30 && help.contains("--baseline") && help.contains("-o") && help.contains("--out"),
                "the option lines of --help were not found: \(help)")
        let man = try Lists.manAuditOptions()
        #expect(help.subtracting(man).isEmpty, "in --help, not in the man page's OPTIONS: \(help.subtracting(man).sorted())")
        #expect(man.subtracting(help).isEmpty, "in the man page's OPTIONS, not in --help: \(man.subtracting(help).sorted())")
        #expect(try Lists.bashOptions("audit") == help)
    }

    /// Each subcommand's entry of SUBCOMMANDS names every option it takes; its synopsis names none
    /// it does not take; bash completes exactly the options --help lists.
    @Test(arguments: CommandOptionLists.commands.filter { $0 != "audit" })
    func aSubcommandsOptionsAreTheSameInHelpTheManPageAndTheCompletions(command: String) throws {
        let help = try Lists.help(command)
        #expect(help.isSuperset(of: ["-h", "--help"]), "\(command): \(help.sorted())")
        let own = help.subtracting(["-h", "--help"])
        let entry = try Lists.manSubcommand(command)
        #expect(entry.found, "\(command) has no entry in the man page's SUBCOMMANDS")
        #expect(own.subtracting(entry.text.union(entry.synopsis)).isEmpty,
                "\(command): in --help, not in its man page entry: \(own.subtracting(entry.text.union(entry.synopsis)).sorted())")
        #expect(entry.synopsis.subtracting(help).isEmpty,
                "\(command): in its man page synopsis, not in --help: \(entry.synopsis.subtracting(help).sorted())")
        #expect(try Lists.bashOptions(command) == help, "\(command)")
    }

    @Test func theReadmeTableListsEveryOptionOfTheAudit() throws {
        let help = try Lists.help("audit").subtracting(["-h", "--help", "--version", "--list-findings"])
        let readme = try Lists.readmeOptions()
        #expect(help.subtracting(readme).isEmpty, "in --help, not in README's options table: \(help.subtracting(readme).sorted())")
        #expect(readme.subtracting(help).isEmpty, "in README's options table, not in --help: \(readme.subtracting(help).sorted())")
    }

    @Test func theManPageIsWellFormedRoff() throws {
        // groff is a test dependency (scripts/install-deps.sh --test): without it this test fails.
        guard let groff = ShellCommand.which("groff") else { throw HarnessError.missingProgram("groff (Debian package groff-base)") }
        let manPage = Lists.root.appendingPathComponent("docs/aasa-audit.1")
        let outcome = try ShellCommand.run(groff, ["-man", "-Tutf8", "-ww", "-z", manPage.path], checked: false)
        #expect(outcome.status == 0 && outcome.stderr.isEmpty, "\(outcome.stderr)")
    }
}
