import Foundation

/// What one app's entitlements say: its application identifier and the domains it claims.
///
/// Read from whatever the user has at hand (an Xcode `.entitlements` file, an `.xcent`, a built
/// `.app`, its executable, an `.ipa`) by `EntitlementsFile.read(at:)`. Plain values: what the file
/// says, not yet checked. Entry syntax, app ID resolution and what each entry expects of a domain's
/// file are decided in Audit.
public struct AppEntitlements: Sendable, Equatable {
    /// Where the entitlements were read: the path given, with the member inside it when there is one
    /// (`App.ipa: Payload/App.app/App`).
    public var source: String
    /// What kind of file held them.
    public var kind: EntitlementsFileKind
    /// `application-identifier` (or, on macOS, `com.apple.application-identifier`) as written. It may hold
    /// unresolved build-setting variables (`$(AppIdentifierPrefix)$(CFBundleIdentifier)`) in an Xcode file.
    public var applicationIdentifier: String?
    /// `com.apple.developer.team-identifier`, when present.
    public var teamIdentifier: String?
    /// The entries of `com.apple.developer.associated-domains`, in order; nil when the key is absent.
    public var associatedDomains: [EntitlementValue]?
    /// The provisioning profile beside the executable (`embedded.mobileprovision` in an iOS app,
    /// `Contents/embedded.provisionprofile` in a macOS one), when there is one and it could be read.
    public var profile: ProvisioningProfile?
    /// Why the provisioning profile beside the executable could not be read, when it is there but
    /// broken (`profile` is then nil). A note, not an error: the app's own entitlements are what a
    /// device checks against the domains' files, and they were read.
    public var profileProblem: EntitlementsReadError?

    /// Makes the entitlements of one app.
    public init(source: String, kind: EntitlementsFileKind, applicationIdentifier: String? = nil, teamIdentifier: String? = nil,
                associatedDomains: [EntitlementValue]? = nil, profile: ProvisioningProfile? = nil,
                profileProblem: EntitlementsReadError? = nil) {
        self.source = source
        self.kind = kind
        self.applicationIdentifier = applicationIdentifier
        self.teamIdentifier = teamIdentifier
        self.associatedDomains = associatedDomains
        self.profile = profile
        self.profileProblem = profileProblem
    }
}

/// One element of an entitlement's array, as the property list holds it.
public enum EntitlementValue: Sendable, Equatable {
    /// A string, as written.
    case text(String)
    /// Anything else (a number, a dictionary ...), named by its property-list type, so that an input
    /// error can say what was found at which index.
    case other(type: String)
}

/// The kinds of file entitlements are read from.
public enum EntitlementsFileKind: String, Sendable, Codable, CaseIterable {
    /// An XML property list: an Xcode `.entitlements` file, or an `.xcent`.
    case xmlPropertyList = "xml-plist"
    /// A binary property list (`bplist00`).
    case binaryPropertyList = "binary-plist"
    /// A Mach-O executable, thin or universal: the entitlements blob of its code signature.
    case machO = "mach-o"
    /// A built `.app` folder: its executable's code signature, and its `embedded.mobileprovision`.
    case appBundle = "app"
    /// An `.ipa`: the zip holding `Payload/NAME.app/`.
    case ipa
}

/// What an embedded provisioning profile says about the app it was made for.
public struct ProvisioningProfile: Sendable, Equatable {
    /// Where it was read (`App.ipa: Payload/App.app/embedded.mobileprovision`).
    public var source: String
    /// The profile's `Name`.
    public var name: String?
    /// `TeamIdentifier`: the Team IDs the profile was issued to (Apple issues it to one).
    public var teamIdentifiers: [String]
    /// `application-identifier` in the profile's `Entitlements`.
    public var applicationIdentifier: String?
    /// `com.apple.developer.associated-domains` in the profile's `Entitlements` (often `*`).
    public var associatedDomains: [EntitlementValue]?
    /// `ExpirationDate`.
    public var expirationDate: Date?

    /// Makes the facts of one profile.
    public init(source: String, name: String? = nil, teamIdentifiers: [String] = [], applicationIdentifier: String? = nil,
                associatedDomains: [EntitlementValue]? = nil, expirationDate: Date? = nil) {
        self.source = source
        self.name = name
        self.teamIdentifiers = teamIdentifiers
        self.applicationIdentifier = applicationIdentifier
        self.associatedDomains = associatedDomains
        self.expirationDate = expirationDate
    }
}
