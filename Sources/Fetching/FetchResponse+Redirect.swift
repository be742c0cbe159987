import Foundation

// "Is this a redirect", decided once: the fetch follows a chain by it, the audit records the chain
// and `RedirectCheck` reports it by it.
extension FetchResponse {
    /// True when the response is a redirect: a status from 300 to 399 (Apple and Android's verifier
    /// follow none of them).
    public var isRedirect: Bool { status.map(Self.isRedirect(status:)) ?? false }

    /// True for a redirect status, 300 to 399.
    public static func isRedirect(status: Int) -> Bool { (300...399).contains(status) }
}
