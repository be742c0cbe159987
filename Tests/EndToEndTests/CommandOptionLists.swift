import Foundation
import TestSupport

/// The options of each subcommand as every place that lists them says: `--help`, the completion
/// scripts (run for real), the man page and the README. ManPageTests and CompletionsTests compare them.
enum CommandOptionLists {
    /// Every subcommand, "audit" for the top level.
    static let commands = ["audit", "validate", "match", "diff", "merge", "history", "completions"]

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The arguments before a subcommand's own (none for the audit).
    static func prefix(_ command: String) -> [String] { command == "audit" ? [] : [command] }

    /// Every option named at the start of a line of the OPTIONS section of `--help`
    /// ("  -o, --out DIR   Write ..." → -o, --out).
    static func help(_ command: String) throws -> Set<String> {
        let outcome = try AuditBinary.run(prefix(command) + ["--help"])
        guard outcome.status == 0 else { throw HarnessError.missingProgram("\(command) --help exited \(outcome.status)") }
        var options: Set<String> = []
        var inOptions = false
        for line in outcome.stdout.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "OPTIONS:" { inOptions = true; continue }
            guard inOptions else { continue }
            if line.isEmpty || !line.hasPrefix(" ") { break }
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("-"), line.hasPrefix("  "), !line.hasPrefix("   ") else { continue }
            for word in trimmed.split(separator: " ").prefix(3) {
                let token = word.hasSuffix(",") ? word.dropLast() : word
                if token.hasPrefix("-") && token.count > 1 && token.dropFirst().allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) {
                    options.insert(String(token))
                }
            }
        }
        return options
    }

    /// The options words of `text`: `-o`, `--out`, with roff's "\-" made plain first.
    static func optionWords(_ text: String) -> Set<String> {
        // roff's font changes (\fB, \fR) would hide where an option starts.
        let plain = text.replacingOccurrences(of: "\\-", with: "-")
            .replacingOccurrences(of: #"\\f[A-Z]"#, with: " ", options: .regularExpression)
        let pattern = try? NSRegularExpression(pattern: "(?<![A-Za-z0-9-])(--?[A-Za-z][A-Za-z0-9-]*)")
        let range = NSRange(plain.startIndex..., in: plain)
        return Set((pattern?.matches(in: plain, range: range) ?? []).compactMap { match in
            Range(match.range(at: 1), in: plain).map { String(plain[$0]) }
        })
    }

    /// The man page's lines.
    static func manLines() throws -> [String] {
        try String(contentsOf: root.appendingPathComponent("docs/aasa-audit.1"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The lines of section `name` (`.SH OPTIONS`) of the man page.
    static func manSection(_ name: String) throws -> [String] {
        let lines = try manLines()
        guard let start = lines.firstIndex(of: ".SH \(name)") else { return [] }
        let rest = lines[(start + 1)...]
        return Array(rest.prefix { !$0.hasPrefix(".SH ") })
    }

    /// The audit's options in the man page: the tag line after each `.TP` of OPTIONS.
    static func manAuditOptions() throws -> Set<String> {
        let lines = try manSection("OPTIONS")
        var options: Set<String> = []
        for (index, line) in lines.enumerated() where line == ".TP" && index + 1 < lines.count {
            options.formUnion(optionWords(lines[index + 1]))
        }
        return options
    }

    /// A subcommand's entries of SUBCOMMANDS (`.TP`, `.B history ...`, its text): the tag lines
    /// (its synopsis) and the whole text.
    static func manSubcommand(_ command: String) throws -> (found: Bool, synopsis: Set<String>, text: Set<String>) {
        let lines = try manSection("SUBCOMMANDS")
        var synopsis: Set<String> = [], text: Set<String> = []
        var inEntry = false, found = false
        for (index, line) in lines.enumerated() {
            if line == ".TP", index + 1 < lines.count {
                inEntry = lines[index + 1].hasPrefix(".B \(command) ") || lines[index + 1] == ".B \(command)"
                found = found || inEntry
                if inEntry { synopsis.formUnion(optionWords(String(lines[index + 1].dropFirst(3 + command.count)))) }
                continue
            }
            if inEntry { text.formUnion(optionWords(line)) }
        }
        return (found, synopsis, text)
    }

    /// The options the README's options table lists (its first column).
    static func readmeOptions() throws -> Set<String> {
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        var options: Set<String> = []
        for line in readme.split(separator: "\n") where line.hasPrefix("| `-") {
            let cell = line.dropFirst(2).prefix { $0 != "|" }
            options.formUnion(optionWords(String(cell)))
        }
        return options
    }

    /// Runs `script` with bash, the binary's folder first on PATH; its stdout.
    static func bash(_ script: String) throws -> ShellCommand.Outcome {
        guard let bash = ShellCommand.which("bash") else { throw HarnessError.missingProgram("bash") }
        return try ShellCommand.run(bash, ["-c", script], environment: environment(), checked: false)
    }

    /// PATH with the binary's folder first, so the scripts' `aasa-audit` is the one under test.
    static func environment() throws -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        let folder = URL(fileURLWithPath: try AuditBinary.path()).deletingLastPathComponent().path
        environment["PATH"] = folder + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        return environment
    }

    /// The bash completion's candidates for the words `words` (the last one being completed).
    static func bashCandidates(_ words: [String]) throws -> [String] {
        let quoted = (["aasa-audit"] + words).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let script = """
            source <(aasa-audit completions bash) || exit 3
            COMP_WORDS=(\(quoted.joined(separator: " "))); COMP_CWORD=\(words.count); COMPREPLY=()
            _aasa_audit
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let outcome = try bash(script)
        guard outcome.status == 0, outcome.stderr.isEmpty else {
            throw HarnessError.missingProgram("bash completion failed (\(outcome.status)): \(outcome.stderr)")
        }
        return outcome.stdout.split(separator: "\n").map(String.init)
    }

    /// The options bash offers for a word "-" after the subcommand's name.
    static func bashOptions(_ command: String) throws -> Set<String> {
        Set(try bashCandidates(prefix(command) + ["-"]))
    }
}
