import Foundation

/// Every option one subcommand takes, declared once, with `-h`/`--help` last: reads the command
/// line and writes the OPTIONS of `--help`.
public struct OptionTable<Target>: Sendable {
    /// When `--help` takes effect.
    public enum HelpRule: Sendable {
        /// At once: what follows is not read (`validate -h --bogus` is help).
        case atOnce
        /// After the whole line has parsed, so a mistake beside it is still told (the audit's).
        case afterTheLine
    }

    public let options: [DeclaredOption<Target>]
    public let helpRule: HelpRule
    /// The names that ask for help.
    public static var helpNames: [String] { ["-h", "--help"] }

    /// `options`, then `-h, --help` with `helpText`.
    public init(_ options: [DeclaredOption<Target>], helpText: String = "Show this help.", helpRule: HelpRule = .atOnce) {
        self.options = options + [.flag("-h", "--help", help: helpText) { _ in }]
        self.helpRule = helpRule
    }

    /// What each option is, in the order of the table.
    public var specs: [OptionSpec] { options.map(\.spec) }

    /// Reads `arguments` into `target`: each option by its declaration, each operand by `operand`.
    /// True when help was asked for (see `helpRule`). Throws `.unknownOption` for a name not in the table.
    public func parse(_ arguments: [String], into target: inout Target,
                      operand: (inout Target, String) throws(UsageError) -> Void) throws(UsageError) -> Bool {
        var cursor = ArgumentCursor(arguments)
        var help = false
        while let argument = try cursor.next() {
            switch argument {
            case .positional(let text):
                try operand(&target, text)
            case .option(let name) where Self.helpNames.contains(name):
                if helpRule == .atOnce { return true }
                help = true
            case .option(let name):
                guard let option = options.first(where: { $0.spec.names.contains(name) }) else { throw .unknownOption(name) }
                let value = option.spec.takesValue ? try cursor.value(for: name) : ""
                do {
                    try option.apply(&target, GivenValue(value: value, name: name))
                } catch let error as UsageError {
                    throw error
                } catch {
                    throw .invalidValue(name, value, "\(error)")
                }
            }
        }
        return help
    }

    /// The OPTIONS lines of `--help`: each label, then its help wrapped to `width` columns in a
    /// column wide enough for the longest label.
    public func helpLines(width: Int = 104) -> String {
        OptionTable.helpLines(specs, width: width)
    }

    static func helpLines(_ specs: [OptionSpec], width: Int) -> String {
        let column = (specs.map(\.label.count).max() ?? 0) + 1
        let indent = String(repeating: " ", count: 2 + column)
        var lines: [String] = []
        for spec in specs {
            let wrapped = HelpWrapping.wrap(spec.fullHelp, width: max(width - indent.count, 20))
            for (index, line) in wrapped.enumerated() {
                if index == 0 {
                    lines.append("  " + spec.label.padding(toLength: column, withPad: " ", startingAt: 0) + line)
                } else {
                    lines.append(indent + line)
                }
            }
        }
        return lines.joined(separator: "\n")
    }
}

/// Line breaking for help text.
enum HelpWrapping {
    /// `text` in lines of at most `width` characters (a longer word stands alone); each "\n" of
    /// the text starts a new line.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in paragraph.split(separator: " ") {
                if line.isEmpty {
                    line = String(word)
                } else if line.count + 1 + word.count <= width {
                    line += " " + word
                } else {
                    lines.append(line)
                    line = String(word)
                }
            }
            lines.append(line)
        }
        return lines
    }
}
