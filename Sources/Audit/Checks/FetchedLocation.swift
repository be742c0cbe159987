import AASA
import Fetching
import Foundation
import SignedFiles

/// Which file a location serves: Apple's apple-app-site-association or Android's assetlinks.json.
/// The transport checks are the same for both; the document checks and some wording differ.
public enum LocationKind: String, Sendable, Codable {
    case appleAppSiteAssociation = "aasa"
    case assetLinks = "assetlinks"

    /// Who reads the file, for messages ("Apple will not go there").
    public var reader: String { self == .assetLinks ? "Android's App Links verifier" : "Apple" }
}

/// One location's fetch, with the facts every check needs computed once.
public struct FetchedLocation: Sendable {
    public var path: String
    /// The file the location serves, and so which document checks apply.
    public var kind: LocationKind
    /// The body validated as a Digital Asset Links statement list, for an `.assetLinks` location
    /// that answered 200 with a body read whole.
    public var assetLinks: AssetLinksValidation?
    public var fetch: LocationFetch
    public var now: Date
    public var settings: AuditSettings
    /// The body validated as an AASA document, when the response was a 200 with a body read whole.
    public var validation: DocumentValidation?
    /// True when a followed redirect chain ends at a 200 serving a JSON object (for assetlinks.json, a
    /// JSON array): the file exists, but only behind the redirect.
    public var redirectEndServesObject: Bool

    /// `sibling`: the domain's other location, already checked. When it served the same bytes its
    /// validation is reused (validation depends on the bytes alone), so a domain serving one large
    /// file at both locations costs one validation, not two.
    public init(path: String, fetch: LocationFetch, now: Date, settings: AuditSettings, sibling: FetchedLocation? = nil,
                kind: LocationKind = .appleAppSiteAssociation) {
        self.path = path
        self.kind = kind
        self.fetch = fetch
        self.now = now
        self.settings = settings
        let response = fetch.response
        assetLinks = nil
        let readWhole = response.error == nil && response.status == 200 && !response.bytes.truncated && !response.body.isEmpty
        if kind == .assetLinks {
            validation = nil
            if readWhole { assetLinks = AssetLinksValidator.validate(Array(response.body)) }
        } else if readWhole {
            if let sibling, let validated = sibling.validation, sibling.response.body == response.body {
                validation = validated
            } else {
                validation = DocumentValidator.validate(SignedFile.open(response.body))
            }
        } else {
            validation = nil
        }
        redirectEndServesObject = fetch.redirectHops.last.map { hop in
            hop.status == 200 && (kind == .assetLinks ? AssetLinksValidator.looksLikeStatementList(Array(hop.body))
                                                      : DocumentValidator.servesObject(hop.body))
        } ?? false
    }

    public var response: FetchResponse { fetch.response }

    /// True when an HTTP response arrived (no network or TLS failure).
    public var gotResponse: Bool { response.error == nil && response.status != nil }

    /// True when the response is a 200 whose body the document checks should read.
    public var servedBody: Bool { gotResponse && response.status == 200 }
}
