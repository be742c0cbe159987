/// Why entitlements could not be read from a file: what was wrong, and where.
public struct EntitlementsReadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path the user gave, with the member inside it when the problem is there.
    public var source: String
    /// What was wrong, as a sentence fragment (`is not a property list, Mach-O executable, .app or .ipa`).
    public var reason: String

    /// Makes an error for `source`.
    public init(source: String, reason: String) {
        self.source = source
        self.reason = reason
    }

    /// `entitlements FILE: REASON`, for the console and the report's input errors.
    public var description: String { "\(source): \(reason)" }
}
