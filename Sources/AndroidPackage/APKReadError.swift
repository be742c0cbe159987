/// Why an APK could not be read: which file (and member), what kind of problem, and what exactly.
public struct APKReadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of problem it is: stable, for tests and for callers that decide by kind.
    public enum Code: String, Sendable, Equatable, Codable {
        /// The file cannot be opened or read, or is not a regular file.
        case unreadable
        /// The file is not a zip archive libzip can open.
        case notAnArchive
        /// A member the reader needs is missing (`AndroidManifest.xml`).
        case missingMember
        /// A member or structure is larger than its limit (`APKReadLimits`).
        case overLimit
        /// A zip member inflates to more, or less, than its header declares.
        case inconsistentMember
        /// `AndroidManifest.xml` is not Android binary XML this reader can follow.
        case malformedManifest
        /// The manifest is binary XML but lacks what every APK has (`<manifest package=…>`).
        case incompleteManifest
        /// The APK Signing Block, or a signer inside it, is malformed.
        case malformedSigningBlock
        /// A v1 (JAR) signature file is not a PKCS #7 SignedData envelope with its signer's certificate.
        case malformedJARSignature
        /// A signing certificate is not a DER X.509 certificate.
        case malformedCertificate
        /// The APK carries no signature of any scheme Android installs (v1, v2, v3).
        case unsigned
    }

    /// The path the user gave, with the member inside it when the problem is there.
    public var source: String
    /// What kind of problem it is.
    public var code: Code
    /// What was wrong, as a sentence fragment (`ends before its string pool (…)`).
    public var reason: String

    /// Makes an error for `source`.
    public init(source: String, code: Code, reason: String) {
        self.source = source
        self.code = code
        self.reason = reason
    }

    /// `FILE: REASON`, for the console and the report's input errors.
    public var description: String { "\(source): \(reason)" }
}
