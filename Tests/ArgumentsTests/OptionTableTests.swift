import Audit
import Reporting
import Testing
@testable import Arguments

/// The option tables: what each declares, how `--help` is written from it, and the completion
/// scripts written from every table.
@Suite struct OptionTableTests {
    static let all: [any CommandOptions.Type] = [AuditOptions.self, ValidateOptions.self, MatchOptions.self, DiffOptions.self, MergeOptions.self,
                                                 HistoryOptions.self, CompletionsOptions.self]

    @Test(arguments: OptionTableTests.all.map { $0.name })
    func everyTableIsWellFormed(name: String) throws {
        let type = try #require(Self.all.first { $0.name == name })
        let names = type.optionSpecs.flatMap(\.names)
        #expect(Set(names).count == names.count, "\(name): a name is declared twice: \(names)")
        #expect(type.optionSpecs.last?.names == ["-h", "--help"], "\(name): help comes last")
        for spec in type.optionSpecs {
            #expect(spec.names.allSatisfy { $0.hasPrefix("--") ? $0.count > 3 : $0.count == 2 }, "\(spec.names)")
            #expect(!spec.help.isEmpty && spec.help.hasSuffix("."), "\(spec.label): help is sentences")
            // The help's OPTIONS has a line starting with each label.
            #expect(type.help.contains("\n  \(spec.label) "), "\(name): \(spec.label) is not in --help")
            if case .text = spec.kind {} else { #expect(spec.takesValue, "\(spec.label): only a value is completed") }
        }
    }

    @Test func theValuesCompletedAreTheOnesParsed() throws {
        let format = try #require(AuditOptions.optionSpecs.first { $0.names == ["--format"] })
        #expect(format.kind == .choiceList(ReportFormat.allCases.map(\.name)) && format.defaultValue == "json,html")
        let failOn = try #require(AuditOptions.optionSpecs.first { $0.names == ["--fail-on"] })
        #expect(failOn.kind == .choiceList(FailOn.allCases.map(\.rawValue)) && failOn.defaultValue == "any")
        #expect(AuditOptions.optionSpecs.first { $0.names == ["-o", "--out"] }?.kind == .directory)
        #expect(MergeOptions.optionSpecs.first { $0.names == ["--format"] }?.kind == format.kind, "the group is declared once")
        #expect(CompletionsOptions.operands == .choices(CompletionShell.allCases.map(\.rawValue)))
    }

    @Test func sharedGroupsAreIncludedNotRedeclared() throws {
        let network = NetworkOptions.options.map(\.spec)
        #expect(AuditOptions.optionSpecs.filter { network.contains($0) }.count == network.count)
        #expect(MatchOptions.optionSpecs.filter { network.contains($0) }.count == network.count)
        #expect(!MergeOptions.optionSpecs.contains { network.contains($0) })
        guard case .run(let match) = try MatchOptions.parse(["--timeout=2.5", "--connect-to", "a:443:b:8443", "d.example", "/a"]) else {
            Issue.record("match did not parse")
            return
        }
        #expect(match.network.timeout == 2.5 && match.network.connectTo == ["a:443:b:8443"])
    }

    @Test(arguments: [
        (OptionSpec(names: ["--n"], valueName: "N", help: "A number.", defaultValue: "6"), "A number (default: 6)."),
        (OptionSpec(names: ["--n"], valueName: "N", help: "A number", defaultValue: "6"), "A number (default: 6)"),
        (OptionSpec(names: ["--n"], help: "A flag."), "A flag."),
    ])
    func theDefaultIsSaidInTheHelp(spec: OptionSpec, expected: String) {
        #expect(spec.fullHelp == expected)
    }

    @Test func helpLinesAreAColumnWrappedToTheWidth() {
        let specs = [
            OptionSpec(names: ["-o", "--out"], valueName: "DIR", help: "Write the reports into DIR, a folder that is created when it is missing."),
            OptionSpec(names: ["--json"], help: "JSON.\nOn stdout."),
        ]
        let text = OptionTable<Int>.helpLines(specs, width: 40)
        #expect(text == """
              -o, --out DIR Write the reports into
                            DIR, a folder that is
                            created when it is
                            missing.
              --json        JSON.
                            On stdout.
            """)
        #expect(text.split(separator: "\n").allSatisfy { $0.count <= 40 })
    }

    @Test func helpRules() throws {
        let table = OptionTable<[String]>([.flag("--x", help: "X.") { $0.append("x") }])
        var seen: [String] = []
        #expect(try table.parse(["--help", "--bogus"], into: &seen) { _, _ in })
        let late = OptionTable<[String]>([.flag("--x", help: "X.") { $0.append("x") }], helpRule: .afterTheLine)
        #expect(throws: UsageError.unknownOption("--bogus")) { try late.parse(["--help", "--bogus"], into: &seen) { _, _ in } }
        #expect(try late.parse(["--x", "--help", "--x"], into: &seen) { _, _ in } && seen == ["x", "x"])
    }

    /// A declaration throwing something other than a UsageError still comes out as one, naming the option.
    @Test func anyErrorOfADeclarationIsAUsageError() {
        struct Odd: Error, CustomStringConvertible { var description: String { "odd" } }
        let table = OptionTable<Int>([.value("--n", valueName: "N", help: "N.") { _, _ in throw Odd() }])
        var value = 0
        #expect(throws: UsageError.invalidValue("--n", "3", "odd")) { try table.parse(["--n=3"], into: &value) { _, _ in } }
    }

    @Test func completionsTakesOneShell() throws {
        #expect(try SubcommandOptionsTests.run(CompletionsOptions.self, ["zsh"]) == CompletionsOptions(shell: .zsh))
        #expect(try SubcommandOptionsTests.asksForHelp(CompletionsOptions.self, ["--help"]))
        #expect(throws: UsageError.missingArgument("completions needs a shell: bash, zsh, fish (see completions --help)")) {
            try CompletionsOptions.parse([])
        }
        #expect(throws: UsageError.invalidValue("completions", "bash zsh", "name one shell: bash, zsh, fish")) {
            try CompletionsOptions.parse(["bash", "zsh"])
        }
        #expect(throws: UsageError.unknownOption("--json")) { try CompletionsOptions.parse(["--json", "bash"]) }
    }

    /// Each script names every option of every subcommand (the shells run them in EndToEndTests).
    @Test(arguments: CompletionShell.allCases)
    func everyScriptNamesEveryOption(shell: CompletionShell) {
        let script = CompletionScript(audit: CompletedCommand(AuditOptions.self),
                                      subcommands: Self.all.dropFirst().map { CompletedCommand($0) })
        let text = script.text(for: shell)
        for type in Self.all {
            #expect(text.contains(type.name), "\(shell): \(type.name)")
            for name in type.optionSpecs.flatMap(\.names) {
                let written = shell == .fish ? (name.hasPrefix("--") ? "-l \(name.dropFirst(2))" : "-s \(name.dropFirst())") : name
                #expect(text.contains(written), "\(shell): \(type.name) \(name)")
            }
        }
        for word in ReportFormat.allCases.map(\.name) + FailOn.allCases.map(\.rawValue) {
            #expect(text.contains(word), "\(shell): \(word)")
        }
    }

    @Test func descriptionsAreOneLineAndQuotedForTheShell() {
        #expect(CompletionScript.describe("short") == "short")
        let long = String(repeating: "word ", count: 30)
        #expect(CompletionScript.describe(long).count <= 80 && CompletionScript.describe(long).hasSuffix("…"))
        let script = CompletionScript(audit: CompletedCommand(AuditOptions.self), subcommands: [])
        #expect(script.zshQuoted("it's") == "'it'\\''s'")
        #expect(script.fishQuoted("it's \\") == "'it\\'s \\\\'")
        #expect(OptionSpec(names: ["--x"], help: "First. Second.").summary == "First")
    }
}
