import AASA
import Fetching
import Foundation

/// One location's fetch, with the facts every check needs computed once.
public struct FetchedLocation: Sendable {
    public var path: String
    public var fetch: LocationFetch
    public var now: Date
    public var settings: AuditSettings
    /// The body validated as an AASA document, when the response was a 200 with a body read whole.
    public var validation: DocumentValidation?
    /// True when a followed redirect chain ends at a 200 serving a JSON object: the file exists, but
    /// only behind the redirect.
    public var redirectEndServesObject: Bool

    public init(path: String, fetch: LocationFetch, now: Date, settings: AuditSettings) {
        self.path = path
        self.fetch = fetch
        self.now = now
        self.settings = settings
        let response = fetch.response
        validation = response.error == nil && response.status == 200 && !response.bytes.truncated && !response.body.isEmpty
            ? DocumentValidator.validate(response.body) : nil
        redirectEndServesObject = fetch.redirectHops.last.map { $0.status == 200 && DocumentValidator.servesObject($0.body) } ?? false
    }

    public var response: FetchResponse { fetch.response }

    /// True when an HTTP response arrived (no network or TLS failure).
    public var gotResponse: Bool { response.error == nil && response.status != nil }

    /// True when the response is a 200 whose body the document checks should read.
    public var servedBody: Bool { gotResponse && response.status == 200 }
}
