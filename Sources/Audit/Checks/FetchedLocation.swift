import AASA
import Fetching
import Foundation
import SignedFiles

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

    /// `sibling`: the domain's other location, already checked. When it served the same bytes its
    /// validation is reused (validation depends on the bytes alone), so a domain serving one large
    /// file at both locations costs one validation, not two.
    public init(path: String, fetch: LocationFetch, now: Date, settings: AuditSettings, sibling: FetchedLocation? = nil) {
        self.path = path
        self.fetch = fetch
        self.now = now
        self.settings = settings
        let response = fetch.response
        if response.error == nil && response.status == 200 && !response.bytes.truncated && !response.body.isEmpty {
            if let sibling, let validated = sibling.validation, sibling.response.body == response.body {
                validation = validated
            } else {
                validation = DocumentValidator.validate(SignedFile.open(response.body))
            }
        } else {
            validation = nil
        }
        redirectEndServesObject = fetch.redirectHops.last.map { $0.status == 200 && DocumentValidator.servesObject($0.body) } ?? false
    }

    public var response: FetchResponse { fetch.response }

    /// True when an HTTP response arrived (no network or TLS failure).
    public var gotResponse: Bool { response.error == nil && response.status != nil }

    /// True when the response is a 200 whose body the document checks should read.
    public var servedBody: Bool { gotResponse && response.status == 200 }
}
