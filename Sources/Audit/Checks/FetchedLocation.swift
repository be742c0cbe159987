import AASA
import Fetching
import Foundation

/// One location's fetch, with the facts every check needs computed once.
public struct FetchedLocation: Sendable {
    public var path: String
    public var fetch: LocationFetch
    public var now: Date
    public var settings: AuditSettings
    /// The body read as a document, when the response was a 200 with a body read whole.
    public var document: BodyDocument?

    public init(path: String, fetch: LocationFetch, now: Date, settings: AuditSettings) {
        self.path = path
        self.fetch = fetch
        self.now = now
        self.settings = settings
        let response = fetch.response
        document = response.error == nil && response.status == 200 && !response.bytes.truncated
            ? BodyDocument(body: response.body) : nil
    }

    public var response: FetchResponse { fetch.response }

    /// True when an HTTP response arrived (no network or TLS failure).
    public var gotResponse: Bool { response.error == nil && response.status != nil }

    /// True when the response is a 200 whose body the document checks should read.
    public var servedBody: Bool { gotResponse && response.status == 200 }
}

/// What a served body is, read once.
public enum BodyDocument: Sendable {
    /// Strict JSON whose root is an object.
    case object(JSONObject, JSONDocument)
    /// Strict JSON with another root.
    case otherJSON(JSONDocument)
    /// Not JSON at all.
    case invalid(JSONParseError)
    /// A CMS (PKCS #7) signed file, iOS 8's format.
    case signed
    /// Nothing.
    case empty

    public init(body: Data) {
        if body.isEmpty {
            self = .empty
        } else if BodyDocument.looksLikeCMS(body) {
            self = .signed
        } else {
            do {
                let document = try JSONParser.parse(body)
                if case .object(let object) = document.root {
                    self = .object(object, document)
                } else {
                    self = .otherJSON(document)
                }
            } catch {
                self = .invalid(error)
            }
        }
    }

    /// The parsed root object, when there is one.
    public var object: JSONObject? {
        if case .object(let object, _) = self { return object }
        return nil
    }

    /// DER SEQUENCE holding the pkcs7-signedData OID (1.2.840.113549.1.7.2) near its start.
    static func looksLikeCMS(_ body: Data) -> Bool {
        guard body.first == 0x30 else { return false }
        let oid: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
        let head = Array(body.prefix(32))
        guard head.count >= oid.count else { return false }
        return (0...(head.count - oid.count)).contains { Array(head[$0..<($0 + oid.count)]) == oid }
    }
}
