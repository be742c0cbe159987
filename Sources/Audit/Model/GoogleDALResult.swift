import AASA

/// What Google's Digital Asset Links API (`statements:list`, `--google-dal`) answered for a site's
/// App Links statements, compared with the statements the origin serves (`GoogleDALCheck`).
/// Google answers from its cache, fetched on its own schedule; `maxAge` says how long the answer holds.
public struct GoogleDALResult: Sendable, Equatable, Codable {
    /// The API URL requested.
    public var url: String
    /// The status, or nil when no response arrived (see `error`).
    public var httpStatus: Int?
    /// The transfer failure, when the API could not be reached.
    public var error: TransferFailure?
    /// The `handle_all_urls` grants Google holds for the site; absent when its answer was not read.
    public var grants: [AndroidGrant]?
    /// `errorCode` values Google reported for its fetch of the site; absent when none.
    public var errorCodes: [String]?
    /// `debugString`, as sent (Google's human-readable explanation; not to be parsed).
    public var debugString: String?
    /// `maxAge`, as sent ("86400s"), and in whole seconds when it is a Duration.
    public var maxAge: String?
    public var maxAgeSeconds: Int?
    /// True when Google's grants are the origin's (with the lists it includes that were read); false
    /// when they differ; absent when Google's answer was not read.
    public var matchesOrigin: Bool?
    /// Grants Google holds that the origin does not serve, and the other way round; absent when none.
    public var onlyAtGoogle: [AndroidGrant]?
    public var onlyAtOrigin: [AndroidGrant]?

    public init(url: String, httpStatus: Int? = nil, error: TransferFailure? = nil) {
        self.url = url
        self.httpStatus = httpStatus
        self.error = error
    }
}
