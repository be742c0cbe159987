/// Why a transfer failed: curl's own code and text, kept verbatim, and what kind of failure it is.
public struct TransferError: Sendable, Equatable, Error {
    /// The kind of failure, derived from the curl code.
    public enum Kind: String, Sendable {
        case dns, refused, timeout, reset, tls, tooLarge, other
    }
    public var kind: Kind
    /// The CURLcode number.
    public var curlCode: Int
    /// curl's error buffer text (or curl_easy_strerror when the buffer was empty).
    public var message: String

    public init(kind: Kind, curlCode: Int, message: String) {
        self.kind = kind
        self.curlCode = curlCode
        self.message = message
    }
}

extension TransferError.Kind {
    /// Classifies a CURLcode; the code and text are kept alongside, so nothing is lost.
    public init(curlCode: Int) {
        switch curlCode {
        case 5, 6: self = .dns
        case 7: self = .refused
        case 28: self = .timeout
        case 18, 52, 55, 56: self = .reset
        case 35, 51, 53, 54, 58, 59, 60, 64, 66, 77, 80, 82, 83, 90, 91: self = .tls
        case 63, 100: self = .tooLarge  // CURLE_FILESIZE_EXCEEDED, CURLE_TOO_LARGE (curl 8.6+)
        default: self = .other
        }
    }
}

extension TransferError {
    /// A transfer that never started because libcurl refused one of its options: the option is named,
    /// curl's code and text are kept, and no request was sent.
    init(refused: CurlOptionError) {
        self.init(kind: .other, curlCode: refused.code, message: "\(refused.description); no request was sent")
    }
}
