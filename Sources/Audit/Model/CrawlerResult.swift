import Foundation

/// The location Apple would use, fetched again with Apple's crawler User-Agent (`AASA-Bot/1.0.0`),
/// compared with what the tool's own User-Agent got.
public struct CrawlerResult: Sendable, Equatable, Codable {
    /// The crawler's User-Agent that was sent.
    public var userAgent: String
    /// The location compared.
    public var path: String
    /// The status the crawler got, or nil when no response arrived (see `error`).
    public var httpStatus: Int?
    /// The status the tool's own User-Agent got at the same location.
    public var toolHTTPStatus: Int?
    /// When both got 200: true when the two bodies are the same document (parsed JSON, or bytes
    /// when not JSON); nil otherwise.
    public var sameBody: Bool?
    /// The crawler's transfer failure, when there was one.
    public var error: TransferFailure?

    public init(userAgent: String, path: String, httpStatus: Int?, toolHTTPStatus: Int?, sameBody: Bool?, error: TransferFailure? = nil) {
        self.userAgent = userAgent
        self.path = path
        self.httpStatus = httpStatus
        self.toolHTTPStatus = toolHTTPStatus
        self.sameBody = sameBody
        self.error = error
    }
}
