import Foundation

/// A line of the domain list that could not be used.
public struct InputProblem: Sendable, Equatable, Codable, Error {
    /// The file it came from, or nil for a command-line argument.
    public var file: String?
    /// 1-based line number in `file`, or the argument's position.
    public var line: Int
    /// The offending text, as given.
    public var text: String
    /// Why it was rejected.
    public var reason: String

    public init(file: String?, line: Int, text: String, reason: String) {
        self.file = file
        self.line = line
        self.text = text
        self.reason = reason
    }

    /// Where the text came from: "domains.txt:7", or "argument 2" for a command-line domain.
    public var place: String { Self.place(file: file, line: line) }

    /// "FILE:LINE", or "argument N" when there is no file.
    public static func place(file: String?, line: Int) -> String {
        file.map { "\($0):\(line)" } ?? "argument \(line)"
    }
}
