import AASA
@testable import Fetching
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The latency model of `make bench`: `LatencyProxy` forwards bytes unchanged and adds its round-trip
/// time. Only lower bounds on elapsed time are asserted (a delay that must be at least X is what the
/// proxy is for); how fast anything goes is `make bench`'s business, never a test's.
@Suite struct LatencyProxyTests {
    @Test func forwardsEveryByteBothWaysAndDelaysEachRoundTrip() throws {
        let echo = try RawHTTPServer { _, _ in .respond(Data("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello".utf8)) }
        let proxy = try LatencyProxy(upstreamAddress: echo.address, upstreamPort: echo.port, roundTripMilliseconds: 150)
        defer { proxy.stop() }
        let request = "GET /x HTTP/1.1\r\nHost: echo.test\r\n" + String(repeating: "X-Pad: \(String(repeating: "a", count: 1000))\r\n", count: 60) + "\r\n"
        let started = ContinuousClock.now
        let response = try Self.exchange(port: proxy.port, sending: Data(request.utf8))
        let elapsed = ContinuousClock.now - started
        #expect(String(decoding: response, as: UTF8.self) == "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello")
        #expect(echo.requestedPaths == ["/x"], "the 60 KB request reached the server whole")
        // The TCP handshake's round trip, then the request's: at least two.
        #expect(elapsed >= .milliseconds(300), "\(elapsed)")
        #expect(proxy.connectionsAccepted == 1)
    }

    @Test func tlsPassesThroughToNginxAndAFetchPaysItsRoundTrips() throws {
        let sites = try LocalSites.shared.get()
        let proxy = try LatencyProxy(upstreamAddress: "127.0.0.1", upstreamPort: sites.port, roundTripMilliseconds: 100)
        defer { proxy.stop() }
        let options = FetchOptions(userAgent: "aasa-audit-tests", caFile: sites.certificateAuthority.certificatePath,
                                   connectTo: ["::127.0.0.1:\(proxy.port)"], totalTimeout: 10, crawlerUserAgent: AppleCDN.crawlerUserAgent)
        let started = ContinuousClock.now
        let results = try SiteFetcher(options: options).fetch(domains: ["latency.many.test"])
        let elapsed = ContinuousClock.now - started
        let site = try #require(results.first)
        // The certificate nginx sent was verified against the test CA: the proxy did not touch TLS.
        #expect(site.wellKnown.response.status == 200 && site.wellKnown.response.error == nil)
        #expect(site.wellKnown.response.tls?.certificate != nil)
        #expect(site.root.response.status == 200 && site.crawlerWellKnown?.status == 200)
        #expect(proxy.connectionsAccepted == 1, "the three requests shared one connection")
        // TCP handshake, TLS 1.3 handshake, then the requests: at least three round trips.
        #expect(elapsed >= .milliseconds(300), "\(elapsed)")
    }

    /// Connects to 127.0.0.1:`port`, sends `data`, reads until the server closes.
    static func exchange(port: Int, sending data: Data) throws -> Data {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0)
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let sent = data.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        try #require(sent == data.count)
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received.append(contentsOf: buffer[0..<count])
        }
        return received
    }
}
