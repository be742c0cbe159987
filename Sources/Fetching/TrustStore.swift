import AASA
import CCurl
import Foundation

/// Which CA certificates a transfer trusts.
///
/// Debian's libcurl is built with a CA bundle (`/etc/ssl/certs/ca-certificates.crt`) *and* a CA
/// directory (`/etc/ssl/certs`). With the directory set, libcurl neither caches the parsed store
/// (its CA cache requires no CA directory) nor honours `--cacert` as "instead of the system store":
/// the directory's certificates stay trusted beside the file. So the directory is switched off:
/// - `--cacert FILE`: exactly FILE is trusted, as the option says;
/// - otherwise the system bundle alone (the same certificates as the directory: Debian's
///   `update-ca-certificates` writes both), parsed once per run instead of once per connection;
/// - Apple's own CDN is always checked against the system store, as devices check it, whatever
///   `--cacert` says (a staging CA is for the servers the user points at).
/// When libcurl names no bundle, or it does not exist, libcurl's defaults stay as they are.
struct TrustStore: Sendable {
    /// `--cacert`.
    let userFile: String?
    /// The CA bundle libcurl was built with, when it exists.
    let systemBundle: String?

    init(userFile: String?, systemBundle: String? = TrustStore.builtInBundle) {
        self.userFile = userFile
        self.systemBundle = systemBundle
    }

    /// The CA bundle of this libcurl (`CURLINFO_CAINFO`), when it names a file that exists; read once.
    static let builtInBundle: String? = {
        guard let easy = curl_easy_init() else { return nil }
        defer { curl_easy_cleanup(easy) }
        var value: UnsafePointer<CChar>?
        guard ccurl_easy_getinfo_string(easy, CURLINFO_CAINFO, &value) == CURLE_OK, let value else { return nil }
        let path = String(cString: value)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { return nil }
        return path
    }()

    /// The bundle a transfer to `url` is verified with, or nil for libcurl's defaults.
    func bundle(for url: String) -> String? {
        if let userFile, !url.hasPrefix(AppleCDN.defaultBase) { return userFile }
        return systemBundle
    }

    /// Sets `CURLOPT_CAINFO` and `CURLOPT_CAPATH` of a transfer to `url`.
    func apply(to curl: CurlEasyOptions, url: String) throws(CurlOptionError) {
        guard let bundle = bundle(for: url) else { return }
        try curl.set(CURLOPT_CAINFO, bundle)
        try curl.clear(CURLOPT_CAPATH)
    }
}
