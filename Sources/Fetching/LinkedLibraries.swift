import CCurl

/// The libcurl this process runs with and the TLS library that libcurl uses, as libcurl reports
/// them at run time (the shared libraries loaded, not the headers built against), for `--version`.
public struct LinkedLibraries: Equatable, Sendable {
    /// libcurl's version ("7.88.1").
    public var curl: String
    /// The TLS library libcurl uses, as libcurl names it ("OpenSSL/3.0.17"), or nil when it has none.
    public var tls: String?

    public init(curl: String, tls: String?) {
        self.curl = curl
        self.tls = tls
    }

    /// What the loaded libcurl says of itself.
    public static func loaded() -> LinkedLibraries {
        // CURLVERSION_NOW is a macro Swift does not import; `version` and `ssl_version` are in every age.
        guard let info = curl_version_info(CURLVERSION_FIRST) else { return LinkedLibraries(curl: "unknown", tls: nil) }
        let curl = info.pointee.version.map { String(cString: $0) } ?? "unknown"
        return LinkedLibraries(curl: curl, tls: info.pointee.ssl_version.map { String(cString: $0) })
    }
}
