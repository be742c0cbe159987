@testable import Audit
import Fetching
import Foundation
import Testing

/// `.well-known` over IPv4 and IPv6 compared: a difference is a finding naming both results.
@Suite struct AddressFamilyCheckTests {
    static let url = CheckFixtures.url

    static func served(_ status: Int, _ body: String, at address: String) -> FetchResponse {
        var response = CheckFixtures.response(status: status, body: body)
        response.primaryAddress = address
        return response
    }

    static let file = CheckFixtures.goodJSON
    static let noAAAA = FetchResponse(url: url, error: TransferError(kind: .dns, curlCode: 6, message: "Could not resolve host: example.com"))
    static let timedOut = FetchResponse(url: url, error: TransferError(kind: .timeout, curlCode: 28, message: "Connection timed out after 5001 milliseconds"),
                                        addresses: ["2001:db8::1"])

    @Test func theSameFileOverBothIsRecordedWithoutAFinding() throws {
        let checked = AddressFamilyCheck.check(first: Self.served(200, Self.file, at: "192.0.2.1"),
                                               other: FamilyFetch(family: .ipv6, response: Self.served(200, Self.file, at: "2001:db8::1")))
        #expect(checked.findings.isEmpty)
        let result = try #require(checked.result)
        #expect(result.same && result.families.map(\.family) == ["ipv4", "ipv6"])
    }

    @Test func aNameWithoutTheOtherFamilyHasNothingToCompare() {
        let checked = AddressFamilyCheck.check(first: Self.served(200, Self.file, at: "192.0.2.1"), other: FamilyFetch(family: .ipv6, response: Self.noAAAA))
        #expect(checked.result == nil && checked.findings.isEmpty)
        #expect(AddressFamilyCheck.check(first: Self.served(200, Self.file, at: "192.0.2.1"), other: nil).result == nil)
    }

    @Test func aNotFoundOverIPv6IsNamedWithBothResults() throws {
        let body = Self.file
        let checked = AddressFamilyCheck.check(first: Self.served(200, body, at: "127.0.0.1"),
                                               other: FamilyFetch(family: .ipv6, response: Self.served(404, "nope", at: "::1")))
        let finding = try #require(checked.findings.first)
        #expect(finding.id == "network.families-differ" && finding.severity == .warning)
        #expect(finding.message.contains("over IPv4 (127.0.0.1) it answered 200 with \(body.utf8.count) bytes"))
        #expect(finding.message.contains("over IPv6 (::1) it answered 404 with 4 bytes"))
        #expect(checked.result?.same == false)
    }

    @Test func aFamilyThatTimesOutIsADifferenceAndIPv4IsNamedFirst() throws {
        let checked = AddressFamilyCheck.check(first: Self.served(200, Self.file, at: "192.0.2.1"),
                                               other: FamilyFetch(family: .ipv6, response: Self.timedOut))
        let finding = try #require(checked.findings.first)
        #expect(finding.message.contains("over IPv6 (2001:db8::1) it failed: Connection timed out"))
        // The first fetch over IPv6, the other over IPv4: IPv4 is still named first.
        let swapped = AddressFamilyCheck.check(first: Self.served(404, "x", at: "2001:db8::1"),
                                               other: FamilyFetch(family: .ipv4, response: Self.served(200, Self.file, at: "192.0.2.1")))
        let message = try #require(swapped.findings.first?.message)
        #expect(message.range(of: "over IPv4")!.lowerBound < message.range(of: "over IPv6")!.lowerBound)
        #expect(swapped.result?.families.first?.family == "ipv6")
    }

    @Test func twoDifferentFilesWithTheSameStatus() throws {
        let checked = AddressFamilyCheck.check(first: Self.served(200, Self.file, at: "192.0.2.1"),
                                               other: FamilyFetch(family: .ipv6, response: Self.served(200, "{}", at: "2001:db8::1")))
        #expect(try #require(checked.findings.first).message.contains("serves a different file by address family"))
    }
}
