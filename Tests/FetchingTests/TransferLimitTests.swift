@testable import Fetching
import Foundation
import Testing
import TestSupport

/// The tool's own limits on one transfer, against a raw server over plain HTTP: its deadline
/// (not curl's timeout), its cap on header lines (trailers and 1xx included), a Content-Length no
/// count holds, and libcurl's per-line limit named for what it is.
@Suite struct TransferLimitTests {
    func fetch(_ behaviour: RawHTTPServer.Behaviour, timeout: Double = 1) throws -> FetchResponse {
        let server = try RawHTTPServer { _, _ in behaviour }
        let loop = try TransferLoop(options: FetchOptions(userAgent: "aasa-audit-tests", totalTimeout: timeout))
        var result: FetchResponse?
        loop.submit(FetchRequest(url: "http://127.0.0.1:\(server.port)/file")) { result = $0 }
        loop.run(until: nil)
        return try #require(result)
    }

    @Test func theDeadlineIsTheToolsOwn() throws {
        let started = ContinuousClock.now
        let response = try fetch(.endless(head: Data(), repeating: Data("HTTP/1.1 102 Processing\r\n\r\n".utf8), interval: 0.05, limit: 10))
        let elapsed = ContinuousClock.now - started
        let error = try #require(response.error)
        #expect(error.kind == .timeout && error.curlCode == 28)
        #expect(error.message.hasPrefix("No complete response within the time limit of 1 s"), "\(error.message)")
        #expect(elapsed < .milliseconds(1500), "\(elapsed)")
        #expect(response.timings.totalMs >= 990 && response.timings.totalMs < 1500, "\(response.timings.totalMs)")
    }

    @Test func trailersCountTowardsTheHeaderCap() throws {
        let head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n"
        let response = try fetch(.endless(head: Data(head.utf8), repeating: Data(("X-T: " + String(repeating: "t", count: 2000) + "\r\n").utf8),
                                          interval: 0, limit: 10), timeout: 5)
        let error = try #require(response.error)
        #expect(error.kind == .tooLarge, "\(error)")
        #expect(error.message.hasPrefix("The server sent more than 256 KB of header lines"))
        let kept = response.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count }
        #expect(kept <= Transfer.maximumHeaderBytes)
    }

    @Test func aContentLengthNoCountHoldsFails() throws {
        let response = try fetch(.respond(Data("HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999999\r\n\r\n{}".utf8)))
        #expect(response.error?.kind == .tooLarge)
        #expect(response.error?.message.contains("Content-Length 99999999999999999999999") == true)
        // The largest count there is, and a malformed value (curl's own error), are not this.
        #expect(!Transfer.overflows(name: "content-length", value: "9223372036854775807"))
        #expect(Transfer.overflows(name: "Content-Length", value: "9223372036854775808"))
        #expect(!Transfer.overflows(name: "content-length", value: "-1"))
        #expect(!Transfer.overflows(name: "x-length", value: "99999999999999999999999"))
    }

    @Test func aHeaderLineOverLibcurlsLimitIsTooLarge() throws {
        let line = "Location: http://x.test/" + String(repeating: "p", count: 200 << 10) + "\r\n"
        let response = try fetch(.respond(Data(("HTTP/1.1 301 Moved\r\n" + line + "Content-Length: 0\r\n\r\n").utf8)))
        #expect(response.error?.kind == .tooLarge)
        #expect(response.error?.message.hasPrefix("A header line is longer than libcurl accepts (100 KB)") == true, "\(response.error?.message ?? "")")
    }
}
