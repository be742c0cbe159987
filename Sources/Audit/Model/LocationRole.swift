import Foundation

/// What a location is to the device that reads it, decided by `LocationChoice.role` and stored in
/// `LocationResult.role`: every reporter renders a location from this, none works it out again from
/// `usedLocation` and paths.
public enum LocationRole: String, Sendable, Equatable, Codable, CaseIterable {
    /// The location Apple takes the file from (`DomainResult.usedLocation`).
    case usedByApple = "used"
    /// The root location behind a `.well-known` Apple reads: Apple never reads it, so what it serves
    /// changes nothing.
    case fallbackNotRead = "fallback-not-read"
    /// Readable, but shadowed: `.well-known` answers 200 with a body Apple cannot read, and Apple
    /// takes that answer without falling back to this one.
    case shadowed
    /// `.well-known`, unreadable, so Apple falls back to the root location (which it reads): the
    /// cause of the fallback.
    case unreadableFallsBack = "unreadable-falls-back"
    /// Unreadable, and Apple reads no file at either location.
    case unreadable
    /// `/.well-known/assetlinks.json`, read by Android.
    case readByAndroid = "read-by-android"

    /// True when the location's findings decide the verdict and count as failures: false only for
    /// a location Apple does not take the file from while it takes it from the other.
    public var counts: Bool {
        switch self {
        case .usedByApple, .shadowed, .unreadable, .readByAndroid: return true
        case .fallbackNotRead, .unreadableFallsBack: return false
        }
    }

    /// True when what the location serves explains what a device gets, so its problems are listed
    /// with the domain's: every role but a fallback Apple does not read (an unused `.well-known` is why
    /// Apple falls back, a cause; an unused root behind a working `.well-known` changes nothing).
    public var isCause: Bool { self != .fallbackNotRead }

    /// The role in words, for a location's heading.
    public var label: String {
        switch self {
        case .usedByApple: return "used by Apple"
        case .fallbackNotRead: return "fallback — Apple does not read it, because it uses /.well-known/"
        case .shadowed: return "readable, but not used: Apple takes the /.well-known/ answer"
        case .unreadableFallsBack: return "Apple cannot read it — Apple falls back to the root location"
        case .unreadable: return "Apple cannot read it"
        case .readByAndroid: return "read by Android"
        }
    }

    /// " (not used by Apple)" for a location that does not count, appended to its name in lists.
    public var unusedSuffix: String { counts ? "" : " (not used by Apple)" }
}
