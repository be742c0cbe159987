/// Google's Digital Asset Links API answer to `statements:list` (a `ListResponse`): the statements
/// Google's cache holds for a site, the error codes of its last fetch, and how long the answer holds.
/// Pure: read from the body, no judgement (that is the audit's `GoogleDALCheck`).
///
/// Source: Digital Asset Links API v1 reference, `statements.list` and `ListResponse`
/// (developers.google.com/digital-asset-links/reference/rest/v1/statements/list): `statements[]`
/// (`source`, `relation`, `target.androidApp.packageName`, `target.androidApp.certificate.sha256Fingerprint`),
/// `maxAge` (a protobuf Duration, JSON "86400s"), `errorCode[]` (an `ErrorCode` enum), `debugString`.
public struct GoogleStatementList: Sendable, Equatable {
    /// The `android_app` grants of the answer, each once, in its order (fingerprints normalised).
    public var grants: [AndroidGrant]
    /// Statements that are not an Android app's grant of the asked relation (a web target, another
    /// relation, or fields missing): counted, not compared.
    public var otherStatements: Int
    /// `errorCode`, as sent (strings only).
    public var errorCodes: [String]
    /// `debugString`, as sent; Google says not to parse it, so it is only shown.
    public var debugString: String?
    /// `maxAge`, as sent ("86400s").
    public var maxAge: String?

    /// Why a body is not a `ListResponse`.
    public enum ReadError: Error, Sendable, Equatable {
        /// Not JSON (the parser's reason).
        case notJSON(String)
        /// JSON, but not an object.
        case notObject
    }

    public init(grants: [AndroidGrant] = [], otherStatements: Int = 0, errorCodes: [String] = [], debugString: String? = nil, maxAge: String? = nil) {
        self.grants = grants
        self.otherStatements = otherStatements
        self.errorCodes = errorCodes
        self.debugString = debugString
        self.maxAge = maxAge
    }

    /// Reads an answer; members of the wrong type are left out, as a lenient client would.
    public static func read(_ bytes: [UInt8], relation: String = AssetLinksDocument.Relation.handleAllURLs) throws(ReadError) -> GoogleStatementList {
        let json: JSONDocument
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            throw .notJSON(error.description)
        }
        guard let root = json.root.objectValue else { throw .notObject }
        var list = GoogleStatementList()
        for statement in root["statements"]?.arrayValue ?? [] {
            let object = statement.objectValue
            let app = object?["target"]?.objectValue?["androidApp"]?.objectValue
            guard object?["relation"]?.stringValue == relation, let package = app?["packageName"]?.stringValue,
                  let fingerprint = app?["certificate"]?.objectValue?["sha256Fingerprint"]?.stringValue else {
                list.otherStatements += 1
                continue
            }
            let grant = AndroidGrant(packageName: package, fingerprint: fingerprint)
            if !list.grants.contains(grant) { list.grants.append(grant) }
        }
        list.errorCodes = (root["errorCode"]?.arrayValue ?? []).compactMap(\.stringValue)
        list.debugString = root["debugString"]?.stringValue
        list.maxAge = root["maxAge"]?.stringValue
        return list
    }

    /// `maxAge` in whole seconds ("86400s", "1.5s" → 1); nil when absent or not a Duration.
    public var maxAgeSeconds: Int? { maxAge.flatMap(Self.seconds) }

    /// A protobuf Duration's JSON form in whole seconds: digits, an optional fraction, "s". Too many
    /// digits for an Int is nil (`Int.init` refuses it), never an overflow.
    public static func seconds(_ duration: String) -> Int? {
        guard duration.hasSuffix("s") else { return nil }
        let number = duration.dropLast()
        let parts = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.allSatisfy({ $0.isASCII && $0.isNumber }),
              parts.count == 1 || (parts[1].allSatisfy { $0.isASCII && $0.isNumber } && !parts[1].isEmpty) else { return nil }
        return Int(whole)
    }

    /// What each `ErrorCode` value means (the API reference's words, shortened); nil for a value it does not list.
    public static func meaning(ofErrorCode code: String) -> String? {
        switch code {
        case "ERROR_CODE_UNSPECIFIED": return "no reason given"
        case "ERROR_CODE_INVALID_QUERY": return "Google could not parse the query (a tool bug, not the site's)"
        case "ERROR_CODE_FETCH_ERROR": return "Google could not fetch the site's statement list (no answer, or a status other than 200)"
        case "ERROR_CODE_FAILED_SSL_VALIDATION": return "Google did not trust the site's TLS certificate"
        case "ERROR_CODE_REDIRECT": return "the site answered with a redirect, which Google does not follow"
        case "ERROR_CODE_TOO_LARGE": return "the statement list is larger than Google reads"
        case "ERROR_CODE_MALFORMED_HTTP_RESPONSE": return "the site's HTTP response was malformed"
        case "ERROR_CODE_WRONG_CONTENT_TYPE": return "the file's Content-Type is not application/json"
        case "ERROR_CODE_MALFORMED_CONTENT": return "the file is not a valid statement list (malformed JSON or statements)"
        case "ERROR_CODE_SECURE_ASSET_INCLUDES_INSECURE": return "an https:// site's list includes an http:// list, which Google does not read"
        case "ERROR_CODE_FETCH_BUDGET_EXHAUSTED": return "the list includes more lists than Google fetches for one site"
        default: return nil
        }
    }
}

/// An Android app a statement grants a relation to: its package and one certificate fingerprint.
public struct AndroidGrant: Sendable, Hashable, Codable, CustomStringConvertible {
    public var packageName: String
    /// The SHA-256 fingerprint, normalised (upper case, colons) when it is 32 bytes of hex; as written otherwise.
    public var sha256: String

    public init(packageName: String, fingerprint: String) {
        self.packageName = packageName
        sha256 = SHA256Fingerprint.normalized(fingerprint) ?? fingerprint
    }

    public var description: String { "\(packageName) with \(sha256)" }

    /// The grants of `relation` in a statement list, each once, in its order.
    public static func grants(in document: AssetLinksDocument, relation: String = AssetLinksDocument.Relation.handleAllURLs) -> [AndroidGrant] {
        var result: [AndroidGrant] = []
        for statement in document.statements where statement.relations.contains(relation) {
            guard case .androidApp(let name?, let fingerprints) = statement.target else { continue }
            for fingerprint in fingerprints {
                let grant = AndroidGrant(packageName: name, fingerprint: fingerprint)
                if !result.contains(grant) { result.append(grant) }
            }
        }
        return result
    }
}
