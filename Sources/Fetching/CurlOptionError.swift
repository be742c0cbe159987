import CCurl

/// libcurl refused an option the tool set: which option, and libcurl's code and text for why.
///
/// Compared by `option` and `code` in tests; `description` is the one rendering of it. A refused
/// option on a transfer becomes that transfer's `TransferError` (`TransferError(refused:)`); on the
/// loop's multi handle, a `FetchSetupError`.
public struct CurlOptionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The option's name as libcurl's documentation spells it (`CURLOPT_LOW_SPEED_LIMIT`, `CURLMOPT_MAXCONNECTS`).
    public var option: String
    /// The CURLcode (for a `CURLOPT_`) or CURLMcode (for a `CURLMOPT_`) libcurl returned.
    public var code: Int
    /// libcurl's text for `code` (curl_easy_strerror or curl_multi_strerror).
    public var text: String

    public init(option: String, code: Int, text: String) {
        self.option = option
        self.code = code
        self.text = text
    }

    /// An easy handle's option refused with `code`; the name comes from libcurl's own option table.
    init(option: CURLoption, code: CURLcode) {
        self.init(option: Self.name(of: option), code: Int(code.rawValue), text: String(cString: curl_easy_strerror(code)))
    }

    /// A multi handle's option refused with `code` (libcurl has no table of multi options: the caller names it).
    init(multiOption name: String, code: CURLMcode) {
        self.init(option: name, code: Int(code.rawValue), text: String(cString: curl_multi_strerror(code)))
    }

    public var description: String {
        "libcurl refused the option \(option): \(text) (code \(code))"
    }

    /// `CURLOPT_` and the name libcurl gives the option (curl_easy_option_by_id, libcurl 7.73 and later).
    static func name(of option: CURLoption) -> String {
        guard let entry = curl_easy_option_by_id(option), let name = entry.pointee.name else {
            return "CURLoption \(option.rawValue)"
        }
        return "CURLOPT_" + String(cString: name)
    }
}
