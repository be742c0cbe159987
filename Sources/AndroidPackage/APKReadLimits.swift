/// The most the APK reader accepts from a file, whatever the file claims: a hostile or broken APK gives
/// an error, never a huge allocation or an endless loop. Every limit is far above a real app's.
public struct APKReadLimits: Sendable, Equatable {
    /// The largest `AndroidManifest.xml`, as its zip header declares it (real ones: a few KB to a few hundred KB).
    public var manifestBytes: Int
    /// The most strings a binary XML string pool may declare.
    public var manifestStrings: Int
    /// The most elements a manifest may hold (start tags).
    public var manifestElements: Int
    /// The deepest nesting of elements.
    public var manifestDepth: Int
    /// The most attributes one element may declare.
    public var elementAttributes: Int
    /// The largest v1 signature file (`META-INF/*.RSA|DSA|EC`, a PKCS #7 envelope of a few KB).
    public var jarSignatureBytes: Int
    /// The most v1 signature files read.
    public var jarSignatureFiles: Int
    /// The largest APK Signing Block (a few KB; padded to 4 KB by apksigner).
    public var signingBlockBytes: UInt64
    /// The most signers one scheme's block may list (Android allows several; real apps have one).
    public var signers: Int
    /// The most certificates one signer may carry.
    public var certificatesPerSigner: Int
    /// The most verified hosts collected, as Android's DomainVerificationCollector stops at 1 MB of them.
    public var hostBytes: Int

    /// Limits; the defaults are far above any real app's and far below what would hurt.
    public init(manifestBytes: Int = 8 << 20, manifestStrings: Int = 1 << 20, manifestElements: Int = 1 << 20,
                manifestDepth: Int = 256, elementAttributes: Int = 1024, jarSignatureBytes: Int = 1 << 20,
                jarSignatureFiles: Int = 16, signingBlockBytes: UInt64 = 16 << 20, signers: Int = 16,
                certificatesPerSigner: Int = 16, hostBytes: Int = 1 << 20) {
        self.manifestBytes = manifestBytes
        self.manifestStrings = manifestStrings
        self.manifestElements = manifestElements
        self.manifestDepth = manifestDepth
        self.elementAttributes = elementAttributes
        self.jarSignatureBytes = jarSignatureBytes
        self.jarSignatureFiles = jarSignatureFiles
        self.signingBlockBytes = signingBlockBytes
        self.signers = signers
        self.certificatesPerSigner = certificatesPerSigner
        self.hostBytes = hostBytes
    }

    /// The limits `AndroidPackageFile.read(at:)` uses.
    public static let standard = APKReadLimits()
}
