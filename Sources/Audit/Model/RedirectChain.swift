import Foundation

/// A redirect answered at a file location, followed for diagnosis only (Apple follows none).
public struct RedirectChain: Sendable, Equatable, Codable {
    /// The `Location` header as served.
    public var location: String
    /// Every hop followed, starting with the file URL itself.
    public var hops: [RedirectHop]
    /// Why following stopped: "final response", "hop limit (5)", "loop", "error: ...".
    public var end: String
    /// True when the end of the chain serves a JSON object (the file exists, but behind a redirect).
    public var endServesJSONObject: Bool

    public init(location: String, hops: [RedirectHop], end: String, endServesJSONObject: Bool) {
        self.location = location
        self.hops = hops
        self.end = end
        self.endServesJSONObject = endServesJSONObject
    }
}
