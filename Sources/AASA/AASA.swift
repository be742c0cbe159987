/// The pure AASA module: parse and validate apple-app-site-association documents. No I/O.
public enum AASAFile {
    /// The two paths Apple fetches, in the order it consults them.
    public static let wellKnownPath = "/.well-known/apple-app-site-association"
    public static let rootPath = "/apple-app-site-association"
    /// Apple's limit on the uncompressed file (iOS 9.3.1 and later), in bytes.
    public static let maximumSize = 131_072
}

/// Apple's CDN for AASA files and the crawler that fills it: the one copy of these constants
/// (the fetch layer, the audit and the command line refer to them).
public enum AppleCDN {
    /// Where the CDN serves a domain's copy: this base followed by the domain.
    public static let defaultBase = "https://app-site-association.cdn-apple.com/a/v1/"
    /// The User-Agent Apple's CDN crawler sends.
    public static let crawlerUserAgent = "AASA-Bot/1.0.0"
}

/// Android's Digital Asset Links file: where Android's App Links verifier reads it
/// (developer.android.com/training/app-links/verify-android-applinks).
public enum AssetLinksFile {
    /// The one path Android fetches, on each host of the app's verified intent filters.
    public static let path = "/.well-known/assetlinks.json"
    /// The file name, by which `aasa-audit validate` recognises a statement list.
    public static let fileName = "assetlinks.json"

    // Android's verifier, AOSP `frameworks/base/packages/StatementService`: `StatementRetriever.kt`
    // (Android 12 and later) and `DirectStatementRetriever.java` (Android 6 to 11) declare these.

    /// `HTTP_CONTENT_SIZE_LIMIT_IN_BYTES` (1024 * 1024): a larger file gives no statements. Android 6
    /// to 11 stop reading past it (`URLFetcher.inputStreamToString`); Android 12 and later refuse a
    /// response whose Content-Length says more (`UrlFetcher.kt`).
    public static let maximumSize = 1_048_576
    /// `HTTP_CONNECTION_TIMEOUT_MILLIS` (5000), set as both the connect and the read timeout of the
    /// verifier's `HttpsURLConnection` (`UrlFetcher.kt`, `URLFetcher.java`).
    public static let verifierTimeoutMs = 5_000.0
    /// `MAX_INCLUDE_LEVEL` (1): the file's `include` lists are read, the lists they include are not.
    public static let includeLevels = 1
}
