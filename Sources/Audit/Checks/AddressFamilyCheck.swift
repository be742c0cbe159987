import AASA
import Fetching
import Foundation

/// `.well-known` over IPv4 and over IPv6, when the name has addresses of both: one failing, or the
/// two serving different answers, is what a client on the other family meets. curl's happy eyeballs
/// (and so the tool's first fetch) falls back to the family that works and hides it; a device on an
/// IPv6-only network, or Apple's CDN if it connects over the broken family, does not. Which family
/// the CDN's fetcher uses is not documented.
public enum AddressFamilyCheck: DomainCheck {
    public static let id = "families"
    public static let differ = Rule("network.families-differ", .warning, check: id,
        meaning: "The name has IPv4 and IPv6 addresses, and /.well-known/apple-app-site-association over one family fails or "
            + "answers differently than over the other, so what a client gets depends on the family it connects over. Which "
            + "family Apple's CDN uses is not documented.",
        fix: "Serve the same file over both families: check the AAAA (or A) record's server, its virtual host and its "
            + "certificate, or remove the record of the family that does not work.")

    public static let rules = [differ]

    /// The comparison of the first `.well-known` fetch with the one over the other family, and its
    /// finding; nil result when there is nothing to compare (no second fetch, or no address of that family).
    public static func check(first: FetchResponse, other: FamilyFetch?) -> (result: AddressFamilyComparison?, findings: [Finding]) {
        guard let other, !other.noAddress,
              let firstFamily = first.primaryAddress.flatMap(IPFamily.init(address:)) else { return (nil, []) }
        let one = FamilyOutcome(first, family: firstFamily)
        let two = FamilyOutcome(other.response, family: other.family)
        let sameAnswer = first.error == nil && other.response.error == nil && first.status == other.response.status
        let sameFile = sameAnswer && first.body == other.response.body && first.bytes.truncated == other.response.bytes.truncated
        let comparison = AddressFamilyComparison(families: [one, two], same: sameFile)
        guard !sameFile else { return (comparison, []) }
        let (ipv4, ipv6) = one.family == IPFamily.ipv4.rawValue ? (one, two) : (two, one)
        let what = sameAnswer ? "serves a different file" : "answers differently"
        let message = "/.well-known/apple-app-site-association \(what) by address family: over IPv4 \(ipv4.text); over IPv6 \(ipv6.text). "
            + "A client that connects over the other family than the tool's first fetch gets that answer; which family Apple's CDN uses is not documented."
        return (comparison, [differ.finding(message)])
    }
}

extension AddressFamilyCheck {
    /// `.well-known`'s first fetch compared with the one over the other family, when there was one.
    public static func check(_ context: DomainCheckContext) -> DomainCheckOutput {
        let checked = check(first: context.wellKnown.fetched.response, other: context.otherFamily)
        return DomainCheckOutput(findings: checked.findings, facts: checked.result.map(DomainCheckFacts.addressFamilies))
    }
}
