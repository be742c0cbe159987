// `aasa-latency-proxy LISTEN_ADDR:PORT UPSTREAM_ADDR:PORT RTT_MS`: the latency model of `make bench`
// (docs/scaling.md). Forwards TCP unchanged (TLS passes through) from LISTEN to UPSTREAM, adding RTT_MS
// to every round trip (`LatencyProxy`). Prints `listening on ADDR:PORT` once ready (PORT 0: a free
// port), then runs until SIGTERM or SIGINT, and on exit prints how many connections it forwarded.
import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

func endpoint(_ text: String) -> (String, Int)? {
    guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else { return nil }
    return (String(text[..<colon]), port)
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 3, let listen = endpoint(arguments[arguments.startIndex]),
      let upstream = endpoint(arguments[arguments.startIndex + 1]), let rtt = Int(arguments[arguments.startIndex + 2]), rtt >= 0 else {
    FileHandle.standardError.write(Data("usage: aasa-latency-proxy LISTEN_ADDR:PORT UPSTREAM_ADDR:PORT RTT_MS\n".utf8))
    exit(2)
}
// Blocked before the proxy's thread starts (it inherits the mask), so sigwait below receives them.
var signals = sigset_t()
sigemptyset(&signals)
sigaddset(&signals, SIGTERM)
sigaddset(&signals, SIGINT)
pthread_sigmask(SIG_BLOCK, &signals, nil)
do {
    let proxy = try LatencyProxy(address: listen.0, port: listen.1, upstreamAddress: upstream.0, upstreamPort: upstream.1,
                                 roundTripMilliseconds: rtt)
    print("listening on \(proxy.address):\(proxy.port)")
    fflush(stdout)
    var received: Int32 = 0
    sigwait(&signals, &received)
    proxy.stop()
    print("forwarded \(proxy.connectionsAccepted) connections")
} catch {
    FileHandle.standardError.write(Data("aasa-latency-proxy: \(error)\n".utf8))
    exit(1)
}
