import Foundation

/// Reads the entitlements keys out of a property list (XML or binary), as held by an `.entitlements`
/// file, an `.xcent`, a code signature's entitlements blob or a provisioning profile.
public enum EntitlementsPropertyList {
    /// The key of the Associated Domains entitlement.
    public static let associatedDomainsKey = "com.apple.developer.associated-domains"
    /// The application identifier keys: iOS's, then macOS's.
    public static let applicationIdentifierKeys = ["application-identifier", "com.apple.application-identifier"]
    /// The Team ID key.
    public static let teamIdentifierKey = "com.apple.developer.team-identifier"

    /// Whether `data` starts like a property list this reader understands (`bplist00`, `<?xml`, `<plist`).
    public static func looksLikePropertyList(_ data: Data) -> Bool {
        kind(of: data) != nil
    }

    /// The property-list kind `data` starts as, or nil.
    public static func kind(of data: Data) -> EntitlementsFileKind? {
        let head = data.prefix(64)
        if head.starts(with: Array("bplist00".utf8)) { return .binaryPropertyList }
        // XML may begin with a byte-order mark or white space.
        var bytes = head[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        while let first = bytes.first, first == 0x20 || first == 0x09 || first == 0x0A || first == 0x0D { bytes = bytes.dropFirst() }
        if bytes.starts(with: Array("<?xml".utf8)) || bytes.starts(with: Array("<plist".utf8)) || bytes.starts(with: Array("<!DOCTYPE plist".utf8)) {
            return .xmlPropertyList
        }
        return nil
    }

    /// Decodes `data` as a property list whose top level is a dictionary, refusing a binary one whose
    /// shared references would decode to more values or bytes than `limits` allow.
    public static func dictionary(from data: Data, source: String, limits: EntitlementsReadLimits = .standard) throws(EntitlementsReadError)
        -> [String: Any]
    {
        let bytes = [UInt8](data)
        if BinaryPropertyListSize.isBinary(bytes) {
            do {
                _ = try BinaryPropertyListSize.measure(bytes, maxObjects: limits.propertyListObjects, maxBytes: limits.propertyListExpandedBytes)
            } catch {
                switch error {
                case .malformed: throw Self.undecodableBinary(source)
                case .expandsPast(let objects, let expandedBytes):
                    throw EntitlementsReadError(source: source, reason: "is a binary property list of \(data.count) bytes whose shared references "
                                                + "decode to more than \(objects) values or \(expandedBytes) bytes of text and data, "
                                                + "so it is not read (a real one decodes to hundreds of values)")
                }
            }
        }
        if Self.looksLikeOpenStep(bytes) {
            // Foundation would print its own parser warnings on stderr for a broken one; a built app's is never one.
            throw EntitlementsReadError(source: source, reason: "is an OpenStep (old-style text) property list, which aasa-audit does not read "
                                        + "(a built app's property lists are XML or binary; plutil -convert xml1 converts one)")
        }
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            // Foundation then tries the text formats and blames the "b" of "bplist00", which says nothing.
            if kind(of: data) == .binaryPropertyList { throw Self.undecodableBinary(source) }
            throw EntitlementsReadError(source: source, reason: "is not a valid property list (\(Self.reason(error)))")
        }
        guard let dictionary = object as? [String: Any] else {
            throw EntitlementsReadError(source: source, reason: "is a property list whose top level is \(typeName(object)), not a dictionary")
        }
        return dictionary
    }

    /// The entitlements of an app from the property list in `data`.
    public static func entitlements(from data: Data, source: String, kind: EntitlementsFileKind,
                                    limits: EntitlementsReadLimits = .standard) throws(EntitlementsReadError) -> AppEntitlements {
        try entitlements(from: dictionary(from: data, source: source, limits: limits), source: source, kind: kind)
    }

    /// The entitlements of an app from a decoded dictionary. A key holding the wrong type is an error
    /// naming the key: the app's own signing would have refused it too.
    public static func entitlements(from dictionary: [String: Any], source: String, kind: EntitlementsFileKind) throws(EntitlementsReadError)
        -> AppEntitlements
    {
        var result = AppEntitlements(source: source, kind: kind)
        for key in applicationIdentifierKeys {
            guard let value = dictionary[key] else { continue }
            guard let text = value as? String else {
                throw EntitlementsReadError(source: source, reason: "the \(key) entitlement is \(typeName(value)), not a string")
            }
            if let first = result.applicationIdentifier, first != text {
                // Both keys, naming two apps: which one the system uses is not ours to guess.
                throw EntitlementsReadError(source: source, reason: "its application-identifier entitlement is \(first) "
                                            + "but its com.apple.application-identifier is \(text); an app has one app ID")
            }
            if result.applicationIdentifier == nil { result.applicationIdentifier = text }
        }
        if let value = dictionary[teamIdentifierKey] {
            guard let text = value as? String else {
                throw EntitlementsReadError(source: source, reason: "the \(teamIdentifierKey) entitlement is \(typeName(value)), not a string")
            }
            result.teamIdentifier = text
        }
        result.associatedDomains = try values(dictionary[associatedDomainsKey], key: associatedDomainsKey, source: source)
        return result
    }

    /// The elements of an array entitlement, or nil when the key is absent.
    public static func values(_ value: Any?, key: String, source: String) throws(EntitlementsReadError) -> [EntitlementValue]? {
        guard let value else { return nil }
        guard let array = value as? [Any] else {
            // Xcode writes `*` as a string in development profiles; anything else is not an array either.
            if let text = value as? String { return [.text(text)] }
            throw EntitlementsReadError(source: source, reason: "the \(key) entitlement is \(typeName(value)), not an array of strings")
        }
        return array.map { element in
            if let text = element as? String { return .text(text) }
            return .other(type: typeName(element))
        }
    }

    /// A property-list type's name for messages: `a string`, `an array`, `a dictionary` ...
    public static func typeName(_ value: Any) -> String {
        switch value {
        case is String: return "a string"
        case is [Any]: return "an array"
        case is [String: Any]: return "a dictionary"
        case is Bool: return "a boolean"
        case is Date: return "a date"
        case is Data: return "data"
        case is NSNumber, is Int, is Double: return "a number"
        default: return "a \(type(of: value))"
        }
    }

    /// Whether `bytes` start like an OpenStep property list: a `{` or `(` after any byte-order mark and white space.
    static func looksLikeOpenStep(_ bytes: [UInt8]) -> Bool {
        var rest = bytes.prefix(64)[...]
        if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
        while let first = rest.first, first == 0x20 || first == 0x09 || first == 0x0A || first == 0x0D { rest = rest.dropFirst() }
        return rest.first == UInt8(ascii: "{") || rest.first == UInt8(ascii: "(")
    }

    private static func undecodableBinary(_ source: String) -> EntitlementsReadError {
        EntitlementsReadError(source: source, reason: "is a binary property list (it starts with bplist00) that cannot be decoded: "
                              + "it is truncated, corrupt or nested too deeply")
    }

    private static func reason(_ error: Error) -> String {
        let nsError = error as NSError
        if let debug = nsError.userInfo["NSDebugDescription"] as? String, !debug.isEmpty { return debug }
        return nsError.localizedDescription
    }
}
