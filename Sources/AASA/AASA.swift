/// The pure AASA module: parse and validate apple-app-site-association documents. No I/O.
public enum AASAFile {
    /// The two paths Apple fetches, in the order it consults them.
    public static let wellKnownPath = "/.well-known/apple-app-site-association"
    public static let rootPath = "/apple-app-site-association"
    /// Apple's limit on the uncompressed file (iOS 9.3.1 and later), in bytes.
    public static let maximumSize = 131_072
}
