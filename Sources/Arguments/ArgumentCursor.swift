/// Reads command-line arguments the way the audit and every subcommand take them: an option as
/// `--name value` or `--name=value`; anything not starting with `-`, and `-` itself (standard
/// input), as a positional argument; everything after `--` as positional too.
public struct ArgumentCursor {
    /// One argument as read.
    public enum Argument: Equatable {
        case option(String)
        case positional(String)
    }

    private let arguments: [String]
    private var index = 0
    private var onlyPositional = false
    /// The `=value` of the option just read, until `value(for:)` takes it.
    private var inline: (name: String, value: String)?

    /// A cursor before the first of `arguments` (without the program's name).
    public init(_ arguments: [String]) {
        self.arguments = arguments
    }

    /// The next argument, or nil after the last. Throws when the option read before was given a
    /// `=value` it does not take (`--strict=false` must not pass for `--strict`).
    public mutating func next() throws(UsageError) -> Argument? {
        if let unused = inline {
            inline = nil
            throw .invalidValue(unused.name, unused.value, "this option takes no value")
        }
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositional || argument == "-" || !argument.hasPrefix("-") { return .positional(argument) }
            if argument == "--" {
                onlyPositional = true
                continue
            }
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                let name = String(argument[..<equals])
                inline = (name, String(argument[argument.index(after: equals)...]))
                return .option(name)
            }
            return .option(argument)
        }
        return nil
    }

    /// The value of option `name`, just read: its `=value`, else the argument after it.
    public mutating func value(for name: String) throws(UsageError) -> String {
        if let given = inline {
            inline = nil
            return given.value
        }
        guard index < arguments.count else { throw .missingValue(name) }
        index += 1
        return arguments[index - 1]
    }
}
