import Testing
import AASA

/// A URL typed or pasted with raw Unicode or spaces (`https://example.com/café`, `opens=/café` in the
/// domain list) reaches Apple percent-encoded, as a browser sends it and as Foundation's
/// `URL(string:)` encodes it; the matcher must decide the same URL Apple sees.
@Suite struct RawURLTextTests {
    private let app = "ABQ7KM3X2P.com.exemplo.app"

    private func decide(_ component: String, _ url: String) throws -> MatchDecision {
        let json = #"{"applinks":{"details":[{"appIDs":["\#(app)"],"components":[\#(component)]}]}}"#
        let matcher = try #require(URLMatcher(json: Array(json.utf8)))
        return try matcher.decide(url, appID: app).decision
    }

    @Test func rawUnicodeIsEncodedBeforeMatching() throws {
        // Default percentEncoded: the pattern is compared with the encoded URL.
        #expect(try decide(#"{"/":"/caf%C3%A9/*"}"#, "https://example.com/café/1") == .match)
        #expect(try decide(#"{"/":"/café/*"}"#, "https://example.com/café/1") == .noMatch)
        #expect(try decide(#"{"/":"/café/*"}"#, "https://example.com/caf%C3%A9/1") == .noMatch)
        // percentEncoded false: the URL is decoded, so both spellings meet the Unicode pattern.
        #expect(try decide(#"{"/":"/café/*","percentEncoded":false}"#, "https://example.com/café/1") == .match)
        #expect(try decide(#"{"/":"/café/*","percentEncoded":false}"#, "https://example.com/caf%C3%A9/1") == .match)
    }

    @Test func spacesAndUnsafeCharactersAreEncodedInEveryPart() throws {
        #expect(try decide(#"{"/":"/a%20b"}"#, "/a b") == .match)
        #expect(try decide(#"{"?":{"q":"x%20y%7Cz"}}"#, "/s?q=x y|z") == .match)
        #expect(try decide(##"{"#":"%C3%BC"}"##, "/s#ü") == .match)
        #expect(try decide(#"{"/":"/a b"}"#, "/a b") == .noMatch)
    }

    @Test func encodedAndSafeTextIsLeftAlone() throws {
        let url = try MatchURL.parse("https://example.com/a%2Fb/c-d_e.f~g!$&'()*+,;=:@?x=1&y=%20#f/?")
        #expect(url.path == Array("/a%2Fb/c-d_e.f~g!$&'()*+,;=:@".utf8))
        #expect(url.query == Array("x=1&y=%20".utf8))
        #expect(url.fragment == Array("f/?".utf8))
        let raw = try MatchURL.parse("/ü ?ä#\"")
        #expect(raw.path == Array("/%C3%BC%20".utf8))
        #expect(raw.query == Array("%C3%A4".utf8))
        #expect(raw.fragment == Array("%22".utf8))
    }
}
