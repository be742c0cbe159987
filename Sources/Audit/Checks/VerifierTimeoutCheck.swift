import AASA
import Fetching

/// Android's verifier waits 5 s to connect and 5 s for each read (`HTTP_CONNECTION_TIMEOUT_MILLIS`,
/// set as both timeouts of its `HttpsURLConnection`: AOSP StatementService, `UrlFetcher.kt` and
/// `URLFetcher.java`), then gives up on the file. The tool's own timeouts are its options'; this check
/// says when a phase of the assetlinks.json fetch took longer than Android waits. Only phases curl
/// times on their own are judged: the TCP connection (the name's lookup is not under Java's connect
/// timeout), the TLS handshake (its reads are under the read timeout) and the wait for the response.
public enum VerifierTimeoutCheck: LocationCheck {
    /// The check's stable id, stored in each of its findings (`Finding.check`).
    public static let id = "verifier-timeout"
    public static let slow = Rule("assetlinks.verifier-timeout", .warning, check: id,
        meaning: "A phase of fetching assetlinks.json (the TCP connection, the TLS handshake or the wait for the response) took longer than the 5 seconds Android's App Links verifier waits for it (AOSP StatementService, HTTP_CONNECTION_TIMEOUT_MILLIS as its connect and read timeouts); a device meeting the same delay gets no statements and does not verify the app. One slow fetch may be chance; a server that is usually this slow fails verification.",
        fix: "Serve assetlinks.json quickly from every network: a static file, no slow upstream, a close edge; check the server's and the network's latency to the file.")

    public static let rules = [slow]
    public static var judges: Set<LocationKind> { [.assetLinks] }

    /// The phases of `timings` longer than Android waits, named, with their milliseconds.
    static func slowPhases(_ timings: Timings) -> [(phase: String, ms: Double)] {
        let limit = AssetLinksFile.verifierTimeoutMs
        var phases: [(String, Double)] = []
        // curl's timers are cumulative from the transfer's start; a reused connection has none of its own.
        if timings.connectMs > 0 { phases.append(("the TCP connection", timings.connectMs - timings.dnsMs)) }
        if timings.tlsMs > 0 { phases.append(("the TLS handshake", timings.tlsMs - max(timings.connectMs, timings.dnsMs))) }
        if timings.firstByteMs > 0 {
            phases.append(("the wait for the response", timings.firstByteMs - max(timings.tlsMs, timings.connectMs, timings.dnsMs)))
        }
        return phases.filter { $0.1 > limit }
    }

    public static func findings(for location: FetchedLocation) -> [Finding] {
        guard location.kind == .assetLinks, location.gotResponse else { return [] }
        let slow = slowPhases(location.response.timings)
        guard !slow.isEmpty else { return [] }
        let named = slow.map { "\($0.phase) took \(Int($0.ms.rounded())) ms" }.joined(separator: ", ")
        return [Self.slow.finding("Fetching \(location.response.url): \(named); Android's verifier waits \(Int(AssetLinksFile.verifierTimeoutMs)) ms for each, so a device meeting this delay gives up on the file.")]
    }
}
