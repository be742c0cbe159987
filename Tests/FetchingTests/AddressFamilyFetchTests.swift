@testable import Fetching
import Foundation
import Testing

/// `.well-known` fetched again over the address family its first fetch did not use
/// (`SiteFetchMachine`'s `.otherFamily` step), driven without libcurl.
@Suite struct AddressFamilyFetchTests {
    typealias Machine = SiteFetchMachineTests
    static let wellKnown = Machine.wellKnown, root = Machine.root

    static func connected(_ code: Int, _ url: String, over address: String?) -> FetchResponse {
        var response = Machine.status(code, url)
        response.primaryAddress = address
        return response
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var families: AddressFamilies
        var firstAddress: String?
        /// The other-family step expected, as "otherFamily URL FAMILY", or nil for none.
        var step: String?
        var connectTo: [String] = []
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "connected over IPv4: .well-known again over IPv6", families: .compare, firstAddress: "127.0.0.1",
             step: "otherFamily \(wellKnown) ipv6"),
        Case(name: "connected over IPv6: again over IPv4", families: .compare, firstAddress: "::1",
             step: "otherFamily \(wellKnown) ipv4"),
        Case(name: "no connection made: nothing to compare", families: .compare, firstAddress: nil, step: nil),
        Case(name: "--ip-families off: no second fetch", families: .any, firstAddress: "127.0.0.1", step: nil),
        Case(name: "--ip-families 4: no second fetch", families: .only(.ipv4), firstAddress: "127.0.0.1", step: nil),
        // --connect-to to an address: one address, one family; the second fetch could only fail unresolved.
        Case(name: "--connect-to every name to an IPv4 address: no second fetch", families: .compare, firstAddress: "127.0.0.2",
             step: nil, connectTo: ["::127.0.0.2:8443"]),
        Case(name: "--connect-to this name to a bracketed IPv6 address: no second fetch", families: .compare, firstAddress: "::1",
             step: nil, connectTo: ["A.test:443:[::1]:8443"]),
        Case(name: "--connect-to a host name: compared", families: .compare, firstAddress: "127.0.0.1",
             step: "otherFamily \(wellKnown) ipv6", connectTo: ["::staging.test:443"]),
        Case(name: "--connect-to only another name to an address: compared", families: .compare, firstAddress: "127.0.0.1",
             step: "otherFamily \(wellKnown) ipv6", connectTo: ["b.test::127.0.0.2:"]),
        Case(name: "--connect-to only another port to an address: compared", families: .compare, firstAddress: "127.0.0.1",
             step: "otherFamily \(wellKnown) ipv6", connectTo: ["a.test:8443:127.0.0.2:"]),
        Case(name: "the first entry that applies decides (a host name): compared", families: .compare, firstAddress: "127.0.0.1",
             step: "otherFamily \(wellKnown) ipv6", connectTo: ["a.test::staging.test:", "::127.0.0.2:"]),
    ]

    @Test(arguments: cases)
    func theOtherFamilyIsFetchedOnlyAfterAConnection(_ test: Case) throws {
        let options = Machine.options {
            $0.addressFamilies = test.families
            $0.connectTo = test.connectTo
        }
        var otherFamilyResponse: FetchResponse?
        let run = Machine.run(options, connection: false) { request in
            if request.url == Self.wellKnown, let family = request.ipFamily {
                let response = Self.connected(404, request.url, over: family == .ipv6 ? "::1" : "127.0.0.1")
                otherFamilyResponse = response
                return response
            }
            return request.url == Self.wellKnown ? Self.connected(200, request.url, over: test.firstAddress)
                : Machine.status(200, request.url, reused: true)
        }
        #expect(run.strays.isEmpty)
        let site = try #require(run.site)
        if let step = test.step {
            #expect(run.started.last == step)
            let other = try #require(site.otherFamily)
            #expect(other.family == (test.firstAddress == "::1" ? IPFamily.ipv4 : .ipv6))
            #expect(other.response == otherFamilyResponse)
            #expect(other.response.status == 404)
        } else {
            #expect(!run.started.contains { $0.hasPrefix("otherFamily") })
            #expect(site.otherFamily == nil)
        }
    }

    @Test func aFailedFirstFetchThatConnectedIsStillCompared() throws {
        // A TLS failure over one family (another server behind the IPv6 address) made a connection.
        var failed = Machine.tlsFailure(Self.wellKnown)
        failed.primaryAddress = "2001:db8::1"
        failed.tls?.certificate = Machine.certificate
        let run = Machine.run(Machine.options { $0.addressFamilies = .compare }, connection: false) { request in
            if request.ipFamily == .ipv4 { return Self.connected(200, request.url, over: "192.0.2.1") }
            return request.url == Self.wellKnown ? failed : Machine.status(404, request.url)
        }
        let site = try #require(run.site)
        #expect(site.otherFamily?.family == .ipv4)
        #expect(site.otherFamily?.response.status == 200)
    }

    @Test(arguments: [
        (FetchResponse(url: wellKnown, error: TransferError(kind: .dns, curlCode: 6, message: "Could not resolve host")), true),
        (FetchResponse(url: wellKnown, error: TransferError(kind: .refused, curlCode: 7, message: "Couldn't connect")), true),
        (FetchResponse(url: wellKnown, error: TransferError(kind: .timeout, curlCode: 28, message: "timed out"), addresses: ["2001:db8::1"]), false),
        (FetchResponse(url: wellKnown, status: 404, primaryAddress: "::1"), false),
    ])
    func noAddressOnlyWhenNothingWasTried(response: FetchResponse, noAddress: Bool) {
        #expect(FamilyFetch(family: .ipv6, response: response).noAddress == noAddress)
    }

    @Test(arguments: [("203.0.113.7", IPFamily.ipv4), ("2001:db8::1", .ipv6), ("::ffff:192.0.2.1", .ipv6)])
    func anAddressNamesItsFamily(address: String, family: IPFamily) {
        #expect(IPFamily(address: address) == family)
    }
}
