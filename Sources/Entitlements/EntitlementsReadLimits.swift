/// The most the entitlements readers accept from a file, whatever the file claims: hostile or broken
/// input gives an error, never a huge allocation or an endless read.
public struct EntitlementsReadLimits: Sendable, Equatable {
    /// The largest property list read whole: an entitlements file, an `.xcent`, an `Info.plist`, the
    /// entitlements blob of a code signature (a few KB in practice).
    public var propertyListBytes: Int
    /// The most values a property list may decode to, each reference of a binary one counted every
    /// time it is reached (real entitlements, Info.plists and profiles make hundreds).
    public var propertyListObjects: Int
    /// The most bytes of strings and data a property list may decode to, counted the same way.
    public var propertyListExpandedBytes: Int
    /// The largest provisioning profile (tens of KB in practice).
    public var profileBytes: Int
    /// The largest load-command area of a Mach-O image (tens of KB in practice).
    public var loadCommandBytes: Int
    /// The most slices a universal binary may declare. Real ones have two to four; the bound is also
    /// what tells a universal binary from a Java class file, which starts with the same 0xcafebabe.
    public var universalSlices: Int
    /// The most blobs a code signature's SuperBlob may index (real ones have under ten).
    public var signatureBlobs: Int
    /// The largest executable read (streamed, never held whole) from inside an `.ipa`, as its zip
    /// header declares it: reaching the code signature at its end means decompressing all before it.
    public var archivedExecutableBytes: UInt64

    /// Limits; the defaults are far above any real app's and far below what would hurt.
    public init(propertyListBytes: Int = 4 << 20, propertyListObjects: Int = 250_000, propertyListExpandedBytes: Int = 8 << 20, profileBytes: Int = 1 << 20, loadCommandBytes: Int = 4 << 20,
                universalSlices: Int = 16, signatureBlobs: Int = 256, archivedExecutableBytes: UInt64 = 2 << 30) {
        self.propertyListBytes = propertyListBytes
        self.propertyListObjects = propertyListObjects
        self.propertyListExpandedBytes = propertyListExpandedBytes
        self.profileBytes = profileBytes
        self.loadCommandBytes = loadCommandBytes
        self.universalSlices = universalSlices
        self.signatureBlobs = signatureBlobs
        self.archivedExecutableBytes = archivedExecutableBytes
    }

    /// The limits `EntitlementsFile.read(at:)` uses.
    public static let standard = EntitlementsReadLimits()
}
