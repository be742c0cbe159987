/// Why fetching could not start at all (as opposed to a transfer failing).
public enum FetchSetupError: Error, Equatable, CustomStringConvertible {
    case curlUnavailable
    /// libcurl refused an option of the loop's multi handle.
    case option(CurlOptionError)

    public var description: String {
        switch self {
        case .curlUnavailable: return "libcurl could not be initialised (is libcurl4-openssl-dev installed?)"
        case .option(let error): return "\(error.description); no transfer was started"
        }
    }
}
