import Foundation

/// The name and version of the tool that wrote a report.
public struct ToolInfo: Sendable, Equatable, Codable {
    public var name: String
    public var version: String
    public init(name: String, version: String) {
        self.name = name
        self.version = version
    }
}
