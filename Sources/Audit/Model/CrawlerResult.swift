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
    /// The bot-management wall that answered the crawler in place of the file (`BotWallSignature`);
    /// nil when none was recognised. Absent from reports written before it was recorded.
    public var botWall: BotWall?
    /// The wall that answered this tool's own User-Agent at the same location, if any.
    public var toolBotWall: BotWall?

    public init(userAgent: String, path: String, httpStatus: Int?, toolHTTPStatus: Int?, sameBody: Bool?, error: TransferFailure? = nil,
                botWall: BotWall? = nil, toolBotWall: BotWall? = nil) {
        self.botWall = botWall
        self.toolBotWall = toolBotWall
        self.userAgent = userAgent
        self.path = path
        self.httpStatus = httpStatus
        self.toolHTTPStatus = toolHTTPStatus
        self.sameBody = sameBody
        self.error = error
    }
}
