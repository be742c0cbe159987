@testable import Fetching
import Foundation
import Testing

/// A domain's identical bodies are held once while it waits for its audit, and each in a buffer of
/// its own size.
@Suite struct SiteFetchBodiesTests {
    static func response(_ url: String, _ body: Data) -> FetchResponse {
        FetchResponse(url: url, status: 200, body: body)
    }

    static func address(_ data: Data) -> UnsafeRawPointer? {
        data.withUnsafeBytes { UnsafeRawPointer($0.baseAddress) }
    }

    @Test func identicalBodiesShareOneBuffer() {
        let file = Data(repeating: 0x61, count: 40_000)
        let other = Data(repeating: 0x62, count: 40_000)
        // Separate buffers of the same bytes, as separate transfers give.
        var site = SiteFetch(domain: "a.test",
                             wellKnown: LocationFetch(response: Self.response("w", Data(file))),
                             root: LocationFetch(response: Self.response("r", Data(file))),
                             cdn: Self.response("c", other),
                             crawlerWellKnown: Self.response("k", Data(file)),
                             android: LocationFetch(response: Self.response("a", Data(other))))
        #expect(Self.address(site.wellKnown.response.body) != Self.address(site.root.response.body))
        let before = site
        site.shareIdenticalBodies()
        #expect(site == before)
        let wellKnown = Self.address(site.wellKnown.response.body)
        #expect(Self.address(site.root.response.body) == wellKnown)
        #expect(site.crawlerWellKnown.flatMap { Self.address($0.body) } == wellKnown)
        #expect(site.cdn.flatMap { Self.address($0.body) } != wellKnown)
        #expect(site.android.flatMap { Self.address($0.response.body) } == site.cdn.flatMap { Self.address($0.body) })
    }

    @Test(arguments: [0, 1, 32, 33, 16_384, 16_385, 131_072])
    func aBodyIsCopiedToItsOwnSize(count: Int) {
        var grown = Data()
        let bytes = [UInt8](repeating: 7, count: count)
        // Appended in chunks as curl hands them over.
        for start in stride(from: 0, to: count, by: 1_000) { grown.append(contentsOf: bytes[start..<min(count, start + 1_000)]) }
        let copy = Transfer.exactCopy(grown)
        #expect(copy == grown)
        #expect(copy.count == count)
    }
}
