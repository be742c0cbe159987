/// A file as the pure core reads it: the bytes to parse as JSON and what was found around them before
/// the core (a CMS signature is unwrapped by the `SignedFiles` target, which uses OpenSSL).
public struct ServedDocument: Sendable, Equatable {
    /// The bytes to check as JSON: the file itself, or the content inside its signature.
    public var json: [UInt8]
    /// Whether the file was signed, and by whom.
    public var envelope: Envelope
    /// The size of the file as served, envelope included: Apple's 128 KB limit is on that.
    public var fileSize: Int

    /// A file to check as it is (`envelope` `.none`), or content unwrapped from an envelope whose
    /// whole file had `fileSize` bytes (default: the JSON's own size).
    public init(json: [UInt8], envelope: Envelope = .none, fileSize: Int? = nil) {
        self.json = json
        self.envelope = envelope
        self.fileSize = fileSize ?? json.count
    }
}

/// What wrapped a document's JSON.
public enum Envelope: Sendable, Equatable {
    /// Nothing: the file is the JSON (or whatever it is).
    case none
    /// A CMS (PKCS #7) SignedData file, iOS 8's format; the signer is the subject of the signer's
    /// certificate when the file carries it.
    case cmsSigned(signer: String?)
    /// The file looks CMS-signed but its content could not be read; the reason follows
    /// "The file looks CMS-signed, but ".
    case unreadableCMS(reason: String)
}
