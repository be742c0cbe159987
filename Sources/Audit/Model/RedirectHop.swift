import Foundation

/// One response in a redirect chain.
public struct RedirectHop: Sendable, Equatable, Codable {
    public var url: String
    public var status: Int?
    public var location: String?
    public var contentType: String?
    /// The transfer error at this hop, if any.
    public var error: String?

    public init(url: String, status: Int?, location: String?, contentType: String?, error: String?) {
        self.url = url
        self.status = status
        self.location = location
        self.contentType = contentType
        self.error = error
    }
}
