/// A parsed AASA document (a JSON object at the root), with the views every schema check needs.
public struct AASADocument: Sendable {
    /// The parsed JSON (duplicate keys, BOM).
    public let json: JSONDocument
    /// The root object.
    public let root: JSONObject

    /// Nil when the JSON root is not an object.
    public init?(json: JSONDocument) {
        guard case .object(let root) = json.root else { return nil }
        self.json = json
        self.root = root
    }

    /// The `applinks` object, when present and an object.
    public var applinks: JSONObject? { root["applinks"]?.objectValue }

    /// One entry of `applinks.details`, whichever form `details` takes.
    public struct DetailsEntry: Sendable {
        /// JSON pointer of the entry (`/applinks/details/0`, or `/applinks/details/ABCDE12345.com.app` in the dictionary form).
        public var pointer: String
        /// The entry, when it is an object.
        public var object: JSONObject?
        /// The raw value.
        public var value: JSONValue
        /// In the oldest (dictionary) form, the app ID is the key.
        public var dictionaryKey: String?
    }

    /// Every `applinks.details` entry: the array form, or the oldest form where `details` is an object
    /// keyed by app ID. Empty when `details` is missing or of another type.
    public var detailsEntries: [DetailsEntry] {
        guard let details = applinks?["details"] else { return [] }
        let base = "/applinks/details"
        switch details {
        case .array(let items):
            return items.enumerated().map { index, item in
                DetailsEntry(pointer: JSONPointer.appending(base, index), object: item.objectValue, value: item, dictionaryKey: nil)
            }
        case .object(let dictionary):
            return dictionary.members.map { key, item in
                DetailsEntry(pointer: JSONPointer.appending(base, key), object: item.objectValue, value: item, dictionaryKey: key)
            }
        default:
            return []
        }
    }

    /// The four services Apple defines.
    public static let serviceKeys = ["applinks", "webcredentials", "appclips", "activitycontinuation"]
}

/// A check of the document's content (schema, app IDs, patterns). Pure: document in, findings out.
/// Each check declares its rules (stable ids, severity, meaning, fix) in its own file.
public protocol SchemaCheck {
    /// Every rule this check can report.
    static var rules: [Rule] { get }
    /// The findings for one document; each carries a JSON pointer to the offending value.
    static func findings(in document: AASADocument) -> [Finding]
}
