/// What one file location produced: the response Apple would see, plus diagnostics.
public struct LocationFetch: Sendable, Equatable {
    /// The single, non-following GET (the one the verdict is about).
    public var response: FetchResponse
    /// When `response` was a redirect: the responses met while following it (diagnosis only).
    public var redirectHops: [FetchResponse]
    /// Why following stopped, when it was followed.
    public var redirectEnd: String?

    public init(response: FetchResponse, redirectHops: [FetchResponse] = [], redirectEnd: String? = nil) {
        self.response = response
        self.redirectHops = redirectHops
        self.redirectEnd = redirectEnd
    }
}
