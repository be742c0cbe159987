/// Why a `Transfer` could not be made: the loop answers its request with `transferError` instead.
enum TransferSetupError: Error, Equatable {
    /// curl_easy_init gave no handle (or libcurl's global set-up failed).
    case noHandle
    /// libcurl refused one of the transfer's options.
    case refused(CurlOptionError)
    /// A URL the user did not give names a non-public address and would go through a proxy, which
    /// the tool cannot hold to public addresses (text, scope).
    case restrictedThroughProxy(String, AddressScope)

    var transferError: TransferError {
        switch self {
        case .noHandle: return TransferError(kind: .other, curlCode: -1, message: "libcurl could not create a transfer handle")
        case .refused(let error): return TransferError(refused: error)
        case .restrictedThroughProxy(let address, let scope):
            return TransferError(kind: .other, curlCode: -1, message: "Not fetched: \(address) is \(scope.description), and the tool "
                + "sends a URL the user did not give (a redirect target) only to public addresses; no request was sent")
        }
    }
}
