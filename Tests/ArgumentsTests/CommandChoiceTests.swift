import Testing
@testable import Arguments

/// The first argument: a subcommand, `help [COMMAND]`, a mistyped command, or the audit's; and the
/// suggestion an unknown option gets.
@Suite struct CommandChoiceTests {
    static let commands = [ValidateOptions.name, MatchOptions.name, MergeOptions.name]

    static func pick(_ arguments: [String]) throws(UsageError) -> CommandChoice {
        try CommandChoice.pick(arguments, commands: commands)
    }

    @Test func subcommandsHelpAndTheAudit() throws {
        #expect(try Self.pick(["validate", "a.json"]) == .subcommand("validate", ["a.json"]))
        #expect(try Self.pick(["merge"]) == .subcommand("merge", []))
        #expect(try Self.pick([]) == .audit([]))
        #expect(try Self.pick(["help"]) == .help(nil))
        #expect(try Self.pick(["help", "--help"]) == .help(nil))
        #expect(try Self.pick(["help", "match"]) == .help("match"))
        #expect(try Self.pick(["help", "audit"]) == .help("audit"))
        #expect(try Self.pick(["example.com", "validate"]) == .audit(["example.com", "validate"]))
    }

    /// The first word after the audit's options is read as the first argument is: a command's name or
    /// a word close to one is refused wherever it stands, so nothing is audited.
    @Test(arguments: [
        (["--quiet", "help"], "help", "help"),
        (["--no-cdn", "validat", "foo.json"], "validat", "validate"),
        (["--out", "match", "mtach", "x"], "mtach", "match"),
        (["--out=match", "--strict", "merg"], "merg", "merge"),
        (["-o", "dir", "validate", "a.json"], "validate", "validate"),
    ])
    func aCommandAfterOptionsIsRefused(arguments: [String], word: String, command: String) {
        #expect(throws: UsageError.commandAfterOptions(word, command: command)) { try Self.pick(arguments) }
    }

    @Test func domainsAfterOptionsAreTheAudits() throws {
        #expect(try Self.pick(["--out", "validate", "example.com"]) == .audit(["--out", "validate", "example.com"]))
        #expect(try Self.pick(["--strict", "--", "validat"]) == .audit(["--strict", "--", "validat"]))
        #expect(try Self.pick(["--strict", "example.com", "validat"]) == .audit(["--strict", "example.com", "validat"]))
    }

    @Test(arguments: [
        ("validat", "validate"), ("Validate", "validate"), ("valdiate", "validate"), ("mtach", "match"), ("matches", "match"),
        ("merg", "merge"), ("mrege", "merge"), ("hlep", "help"), ("HELP", "help"), ("hello", "help"),
    ])
    func aWordCloseToACommandIsAnUnknownCommand(word: String, suggestion: String) {
        #expect(throws: UsageError.unknownCommand(word, suggestion: suggestion)) { try Self.pick([word, "foo.json"]) }
    }

    /// Domains, URLs, addresses and words far from every command go to the audit, whose domain
    /// checks say what is wrong with them.
    @Test(arguments: ["example.com", "match.example", "help.example.", "https://merge", "merge:443", "::1", "127.0.0.1",
                      "localhost", "intranet", "m", "validation-server", "例え。テスト", "-", "--", "--strict"])
    func domainsAndFarWordsAreTheAudits(word: String) throws {
        #expect(try Self.pick([word]) == .audit([word]))
    }

    @Test func helpNamesOneKnownCommand() {
        #expect(throws: UsageError.unknownCommand("validat", suggestion: "validate")) { try Self.pick(["help", "validat"]) }
        #expect(throws: UsageError.unknownCommand("frobnicate", suggestion: nil)) { try Self.pick(["help", "frobnicate"]) }
        #expect(throws: UsageError.invalidValue("help", "match merge", "name one command: audit, validate, match, merge")) {
            try Self.pick(["help", "match", "merge"])
        }
    }

    @Test func messages() {
        #expect(UsageError.unknownCommand("validat", suggestion: "validate").description == "unknown command 'validat'; did you mean 'validate'?")
        #expect(UsageError.unknownCommand("x", suggestion: nil).description == "unknown command 'x' (see aasa-audit help)")
        #expect(UsageError.unknownOption("--strcit", suggestion: "--strict").description == "unknown option '--strcit'; did you mean '--strict'?")
    }

    // MARK: - Options

    @Test func optionNamesComeFromTheTable() {
        let audit = AuditOptions.optionNames
        for name in ["--domains", "-o", "--out", "--format", "--strict", "-q", "--quiet", "--baseline", "--no-baseline", "--cacert",
                     "--connect-to", "-A", "--user-agent", "--shard", "-h", "--help", "--version", "--json", "--keep"] {
            #expect(audit.contains(name), "\(name)")
        }
        #expect(!audit.contains { !$0.hasPrefix("-") || $0.contains(",") || $0.contains("=") }, "\(audit)")
        #expect(ValidateOptions.optionNames == ["--format", "--json", "--strict", "-h", "--help"])
        #expect(MergeOptions.optionNames.contains("--no-baseline") && MergeOptions.optionNames.contains("--keep") && !MergeOptions.optionNames.contains("--shard"))
        #expect(MatchOptions.optionNames.contains("--file"))
        #expect(AuditOptions.optionNames == AuditOptions.table.specs.flatMap(\.names))
    }

    @Test func anUnknownOptionCloseToOneGetsASuggestionForEverySubcommand() {
        #expect(throws: UsageError.unknownOption("--strcit", suggestion: "--strict")) { try AuditOptions.parseSuggesting(["--strcit", "a.example"]) }
        #expect(throws: UsageError.unknownOption("-strict", suggestion: "--strict")) { try AuditOptions.parseSuggesting(["-strict"]) }
        #expect(throws: UsageError.unknownOption("--jsno", suggestion: "--json")) { try ValidateOptions.parseSuggesting(["--jsno", "a"]) }
        #expect(throws: UsageError.unknownOption("--qiuet", suggestion: "--quiet")) { try MergeOptions.parseSuggesting(["a.json", "--qiuet"]) }
        #expect(throws: UsageError.unknownOption("--flie", suggestion: "--file")) { try MatchOptions.parseSuggesting(["--flie", "x", "/a"]) }
        // Nothing close: no suggestion; a short option is never guessed at.
        #expect(throws: UsageError.unknownOption("--frobnicate", suggestion: nil)) { try AuditOptions.parseSuggesting(["--frobnicate"]) }
        #expect(throws: UsageError.unknownOption("-x", suggestion: nil)) { try AuditOptions.parseSuggesting(["-x"]) }
        // Other usage errors pass through unchanged.
        #expect(throws: UsageError.missingValue("--out")) { try AuditOptions.parseSuggesting(["--out"]) }
    }
}
