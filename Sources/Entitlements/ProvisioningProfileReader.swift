import CCMS
import Foundation

/// Reads an embedded provisioning profile (`embedded.mobileprovision`, `embedded.provisionprofile`):
/// a CMS (PKCS #7) SignedData envelope whose content is an XML property list. The envelope is opened
/// with OpenSSL; Apple's signature on it is not verified (the device did that when it installed the
/// app; this tool only reads what the profile says).
public enum ProvisioningProfileReader {
    /// The facts of the profile in `bytes`, called `source` in errors.
    public static func profile(from bytes: [UInt8], source: String, limits: EntitlementsReadLimits = .standard) throws(EntitlementsReadError)
        -> ProvisioningProfile
    {
        let content = try envelopeContent(of: bytes, source: source, limits: limits)
        let dictionary = try EntitlementsPropertyList.dictionary(from: Data(content), source: source, limits: limits)
        var profile = ProvisioningProfile(source: source)
        profile.name = try field("Name", of: dictionary, source: source)
        if let value = dictionary["TeamIdentifier"] {
            guard let identifiers = value as? [Any], let strings = identifiers as? [String] else {
                throw EntitlementsReadError(source: source, reason: "its TeamIdentifier is \(EntitlementsPropertyList.typeName(value)), not an array of strings")
            }
            profile.teamIdentifiers = strings
        }
        profile.expirationDate = try field("ExpirationDate", of: dictionary, source: source)
        if let value = dictionary["Entitlements"] {
            guard let entitlements = value as? [String: Any] else {
                throw EntitlementsReadError(source: source, reason: "its Entitlements is \(EntitlementsPropertyList.typeName(value)), not a dictionary")
            }
            let app = try EntitlementsPropertyList.entitlements(from: entitlements, source: source, kind: .xmlPropertyList)
            profile.applicationIdentifier = app.applicationIdentifier
            profile.associatedDomains = app.associatedDomains
        }
        return profile
    }

    /// A top-level value of type `T`, nil when absent, an error naming the key when of another type.
    static func field<T>(_ key: String, of dictionary: [String: Any], source: String) throws(EntitlementsReadError) -> T? {
        guard let value = dictionary[key] else { return nil }
        guard let typed = value as? T else {
            throw EntitlementsReadError(source: source, reason: "its \(key) is \(EntitlementsPropertyList.typeName(value)), not \(T.self == Date.self ? "a date" : "a string")")
        }
        return typed
    }

    /// The encapsulated content of a CMS SignedData structure.
    static func envelopeContent(of bytes: [UInt8], source: String, limits: EntitlementsReadLimits) throws(EntitlementsReadError) -> [UInt8] {
        guard bytes.count <= limits.profileBytes else {
            throw EntitlementsReadError(source: source, reason: "is \(bytes.count) bytes, more than the \(limits.profileBytes) read for a provisioning profile")
        }
        ERR_clear_error()
        defer { ERR_clear_error() }
        guard let cms = bytes.withUnsafeBufferPointer({ ccms_read($0.baseAddress, $0.count) }) else {
            throw EntitlementsReadError(source: source, reason: "is not a CMS (PKCS #7) signed file, as a provisioning profile is (\(openSSLReason() ?? "OpenSSL cannot decode it"))")
        }
        defer { CMS_ContentInfo_free(cms) }
        guard OBJ_obj2nid(CMS_get0_type(cms)) == NID_pkcs7_signed else {
            throw EntitlementsReadError(source: source, reason: "is CMS but not SignedData, as a provisioning profile is")
        }
        guard let slot = CMS_get0_content(cms), let octets = slot.pointee else {
            throw EntitlementsReadError(source: source, reason: "is a detached CMS signature: it carries no property list")
        }
        let count = Int(ASN1_STRING_length(octets))
        guard count >= 0, let start = ASN1_STRING_get0_data(octets) else {
            throw EntitlementsReadError(source: source, reason: "has a CMS envelope whose content cannot be read")
        }
        return Array(UnsafeBufferPointer(start: start, count: count))
    }

    static func openSSLReason() -> String? {
        let code = ERR_get_error()
        guard code != 0, let reason = ERR_reason_error_string(code) else { return nil }
        return "OpenSSL: " + String(cString: reason)
    }
}
