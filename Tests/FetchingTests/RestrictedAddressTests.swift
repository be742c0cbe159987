@testable import Fetching
import Foundation
import Testing
import TestSupport

/// Which addresses count as public, and a transfer that may connect only to public ones (a redirect
/// target) against a real server on 127.0.0.2: refused before connecting unless the user routed it.
@Suite struct RestrictedAddressTests {
    @Test(arguments: [
        ("127.0.0.1", AddressScope.loopback), ("127.255.0.9", .loopback), ("::1", .loopback), ("[::1]", .loopback),
        ("10.1.2.3", .private), ("172.16.0.1", .private), ("172.31.255.255", .private), ("192.168.1.1", .private),
        ("169.254.169.254", .linkLocal), ("fe80::1", .linkLocal), ("fe80::1%eth0", .linkLocal),
        ("fc00::1", .uniqueLocal), ("fd12:3456::1", .uniqueLocal),
        ("100.64.0.1", .sharedCGNAT), ("100.127.255.255", .sharedCGNAT),
        ("224.0.0.1", .multicast), ("239.1.1.1", .multicast), ("ff02::1", .multicast),
        ("0.0.0.0", .reserved), ("0.1.2.3", .reserved), ("240.0.0.1", .reserved), ("255.255.255.255", .reserved),
        ("192.0.2.1", .reserved), ("198.18.0.1", .reserved), ("::", .reserved), ("2001:db8::1", .reserved),
        ("::ffff:127.0.0.1", .loopback), ("::ffff:10.0.0.1", .private), ("64:ff9b::a9fe:a9fe", .linkLocal),
        ("2002:7f00:1::", .loopback),
        ("8.8.8.8", .public), ("1.1.1.1", .public), ("172.32.0.1", .public), ("100.128.0.1", .public),
        ("17.253.144.10", .public), ("2606:4700::1111", .public), ("2a00:1450:4001::200e", .public),
    ])
    func scopes(text: String, scope: AddressScope) {
        #expect(AddressScope(text: text) == scope, "\(text)")
    }

    @Test func aNameIsNotAnAddress() {
        #expect(AddressScope(text: "localhost") == nil)
        #expect(AddressScope(text: "example.com") == nil)
    }

    /// One transfer of `url` on its own loop.
    func fetch(_ url: String, publicAddressesOnly: Bool, _ adjust: (inout FetchOptions) -> Void = { _ in }) throws -> FetchResponse {
        var options = FetchOptions(userAgent: "aasa-audit-tests", totalTimeout: 5)
        adjust(&options)
        let loop = try TransferLoop(options: options)
        var result: FetchResponse?
        loop.submit(FetchRequest(url: url, publicAddressesOnly: publicAddressesOnly)) { result = $0 }
        loop.run(until: nil)
        return try #require(result)
    }

    @Test func aRedirectTargetOnLoopbackIsNotConnectedTo() throws {
        let server = try RawHTTPServer(address: "127.0.0.2") { _, _ in .respond(Data("HTTP/1.1 204 No Content\r\n\r\n".utf8)) }
        let url = "http://127.0.0.2:\(server.port)/internal-secret"
        let response = try fetch(url, publicAddressesOnly: true)
        let error = try #require(response.error)
        #expect(error.message.hasPrefix("Not connected to 127.0.0.2: it is a loopback address"), "\(error.message)")
        #expect(response.status == nil)
        #expect(response.addresses == ["127.0.0.2"])
        #expect(server.requestedPaths.isEmpty)
    }

    @Test func aNameRoutedByTheUserIsWhereTheUserWantsToGo() throws {
        let server = try RawHTTPServer(address: "127.0.0.2") { _, _ in .respond(Data("HTTP/1.1 204 No Content\r\n\r\n".utf8)) }
        // --resolve and --connect-to both say "this name goes there".
        let resolved = try fetch("http://staging.test:\(server.port)/a", publicAddressesOnly: true) {
            $0.resolve = ["staging.test:\(server.port):127.0.0.2"]
        }
        #expect(resolved.status == 204 && resolved.error == nil && resolved.routed)
        let connected = try fetch("http://other.test:80/b", publicAddressesOnly: true) {
            $0.connectTo = ["other.test:80:127.0.0.2:\(server.port)"]
        }
        #expect(connected.status == 204 && connected.error == nil && connected.routed)
        #expect(server.requestedPaths == ["/a", "/b"])
        // A route for another port does not cover this one.
        let elsewhere = try fetch("http://127.0.0.2:\(server.port)/c", publicAddressesOnly: true) {
            $0.connectTo = ["127.0.0.2:1:127.0.0.2:\(server.port)"]
        }
        #expect(elsewhere.status == nil && !elsewhere.routed)
        #expect(server.requestedPaths == ["/a", "/b"])
    }

    @Test func theAuditedURLItselfIsFetchedAndItsAddressesRecorded() throws {
        let server = try RawHTTPServer(address: "127.0.0.2") { _, _ in .respond(Data("HTTP/1.1 204 No Content\r\n\r\n".utf8)) }
        let response = try fetch("http://127.0.0.2:\(server.port)/given", publicAddressesOnly: false)
        #expect(response.status == 204)
        #expect(response.addresses == ["127.0.0.2"] && !response.routed)
        #expect(server.requestedPaths == ["/given"])
    }
}
