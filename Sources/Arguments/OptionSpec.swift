/// What an option's value, or a subcommand's operand, is: what a shell offers to complete it.
public enum ValueKind: Equatable, Sendable {
    /// Nothing to offer (a flag has no value; a domain or URL cannot be guessed).
    case text
    case file
    case directory
    /// One of these words.
    case choices([String])
    /// Any of these words, comma-separated (`--format json,md`).
    case choiceList([String])
}

/// One option as every reader of the command line sees it: `parse`, `--help`, the suggestion for
/// a mistyped option and the shell completions all read this, so none of them lists it by hand.
public struct OptionSpec: Equatable, Sendable {
    /// Short name first, when there is one: `["-o", "--out"]`.
    public var names: [String]
    /// What the value is called in the help (`DIR`); nil for a flag, which takes no value.
    public var valueName: String?
    public var kind: ValueKind
    /// What the option does, as sentences; a "\n" starts a new line in `--help`.
    public var help: String
    /// The value used without the option, as the help says it; nil when there is none to say.
    public var defaultValue: String?
    /// Whether giving it again adds a value (`--connect-to`) rather than replacing it.
    public var repeatable: Bool

    public init(names: [String], valueName: String? = nil, kind: ValueKind = .text, help: String,
                defaultValue: String? = nil, repeatable: Bool = false) {
        self.names = names
        self.valueName = valueName
        self.kind = kind
        self.help = help
        self.defaultValue = defaultValue
        self.repeatable = repeatable
    }

    /// Whether it takes a value.
    public var takesValue: Bool { valueName != nil }
    /// `-o, --out DIR`: how `--help` and the README name it.
    public var label: String { names.joined(separator: ", ") + (valueName.map { " \($0)" } ?? "") }
    /// The help with its default, as `--help` and the man page say it.
    public var fullHelp: String {
        guard let defaultValue else { return help }
        let said = " (default: \(defaultValue))"
        return help.hasSuffix(".") ? help.dropLast() + said + "." : help + said
    }
    /// The first sentence of the help, for a shell's one-line description.
    public var summary: String {
        let text = help.replacingNewlines()
        if let end = text.range(of: ". ") { return String(text[..<end.lowerBound]) }
        return text.hasSuffix(".") ? String(text.dropLast()) : text
    }
}

extension String {
    /// The text with every line break a space.
    func replacingNewlines() -> String { split(separator: "\n").joined(separator: " ") }
}

/// The value of an option as given, with the option's name as given (`-o` or `--out`), for errors.
public struct GivenValue: Sendable {
    public let value: String
    public let name: String
}

/// An option declared once: what it is (`spec`) and what it does to the options being parsed.
public struct DeclaredOption<Target>: Sendable {
    public let spec: OptionSpec
    /// Stores the value given (the empty string for a flag), or throws a `UsageError` saying why not.
    let apply: Apply
    /// Closures cannot yet infer a typed throw, so an apply may throw any error; `OptionTable`
    /// passes a `UsageError` on and words any other as the value's refusal.
    public typealias Apply = @Sendable (_ target: inout Target, _ given: GivenValue) throws -> Void

    /// A flag: `names`, no value.
    public static func flag(_ names: String..., help: String,
                            set: @escaping @Sendable (inout Target) -> Void) -> DeclaredOption {
        DeclaredOption(spec: OptionSpec(names: names, help: help)) { target, _ in set(&target) }
    }

    /// An option with a value called `valueName`, stored (or refused) by `set`.
    public static func value(_ names: String..., valueName: String, kind: ValueKind = .text, defaultValue: String? = nil,
                             repeatable: Bool = false, help: String,
                             set: @escaping Apply) -> DeclaredOption {
        DeclaredOption(spec: OptionSpec(names: names, valueName: valueName, kind: kind, help: help,
                                        defaultValue: defaultValue, repeatable: repeatable), apply: set)
    }

    /// The same option storing into the `path` part of a larger target: how a shared group
    /// (`NetworkOptions`) is included in a subcommand's table without being declared again.
    public func lifted<Outer>(_ path: WritableKeyPath<Outer, Target> & Sendable) -> DeclaredOption<Outer> {
        let apply = self.apply
        return DeclaredOption<Outer>(spec: spec) { outer, given in try apply(&outer[keyPath: path], given) }
    }
}
