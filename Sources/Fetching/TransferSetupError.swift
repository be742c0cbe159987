/// Why a `Transfer` could not be made: the loop answers its request with `transferError` instead.
enum TransferSetupError: Error, Equatable {
    /// curl_easy_init gave no handle (or libcurl's global set-up failed).
    case noHandle
    /// libcurl refused one of the transfer's options.
    case refused(CurlOptionError)

    var transferError: TransferError {
        switch self {
        case .noHandle: return TransferError(kind: .other, curlCode: -1, message: "libcurl could not create a transfer handle")
        case .refused(let error): return TransferError(refused: error)
        }
    }
}
