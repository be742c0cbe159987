import Foundation

/// What Apple's CDN (`https://app-site-association.cdn-apple.com/a/v1/DOMAIN`) served for a domain.
/// The CDN is what iOS 14+ and macOS 11+ devices read; it fetches the origin on its own schedule.
public struct CDNResult: Sendable, Equatable, Codable {
    /// The CDN URL requested.
    public var url: String
    /// The status, or nil when no response arrived (see `error`).
    public var httpStatus: Int?
    /// `Apple-Failure-Reason`, e.g. "SWCERR00101 Bad HTTP Response: 404 Not Found".
    public var appleFailureReason: String?
    /// `Apple-Failure-Details` (JSON text, as served).
    public var appleFailureDetails: String?
    /// `Apple-From`: the origin URL the CDN tried.
    public var appleFrom: String?
    /// `Apple-Try-Direct` ("true" or "false"; its meaning is undocumented).
    public var appleTryDirect: String?
    /// `Apple-Origin-Format` ("json" for a served copy).
    public var appleOriginFormat: String?
    public var cacheControl: String?
    /// `Age`, as served (seconds).
    public var age: String?
    /// True when the CDN copy is semantically the file Apple takes from the origin; false when it
    /// differs (or Apple can read no file from the origin); nil when the CDN served no copy.
    public var matchesOrigin: Bool?
    /// What differs, in words (app IDs added or removed, rules); empty when nothing does.
    public var differences: [String]
    /// The transfer failure, when the CDN could not be reached.
    public var error: TransferFailure?

    public init(url: String, httpStatus: Int?, appleFailureReason: String? = nil, appleFailureDetails: String? = nil,
                appleFrom: String? = nil, appleTryDirect: String? = nil, appleOriginFormat: String? = nil,
                cacheControl: String? = nil, age: String? = nil, matchesOrigin: Bool? = nil,
                differences: [String] = [], error: TransferFailure? = nil) {
        self.url = url
        self.httpStatus = httpStatus
        self.appleFailureReason = appleFailureReason
        self.appleFailureDetails = appleFailureDetails
        self.appleFrom = appleFrom
        self.appleTryDirect = appleTryDirect
        self.appleOriginFormat = appleOriginFormat
        self.cacheControl = cacheControl
        self.age = age
        self.matchesOrigin = matchesOrigin
        self.differences = differences
        self.error = error
    }
}
