import AASA
import Foundation
import Testing

/// `ASCIISearch` answers as Foundation's case-sensitive and case-insensitive `range(of:)` do.
@Suite struct ASCIISearchTests {
    @Test(arguments: [
        ("sha1WithRSAEncryption", "sha1"),
        ("ecdsa-with-SHA1", "sha1"),
        ("ecdsa-with-SHA256", "sha1"),
        ("sha", "sha1"),
        ("", "sha1"),
        ("sh sha1", "sha1"),
        ("shsha1", "sha1"),
        ("ssha1", "sha1"),
        ("ECDHE-RSA-AES128-GCM-SHA256", "AES"),
        ("ECDHE-RSA-CHACHA20-POLY1305", "AES"),
        ("ECDHE-RSA-aes128", "AES"),
        ("2001:db8::1", ":"),
        ("203.0.113.7", ":"),
        ("/food/$(name)", "$("),
        ("/food/$name(", "$("),
        ("/food/$", "$("),
        ("x", ""),
        ("über-sha1", "sha1"),
        ("ß:", ":"),
        ("SHA-1", "sha1"),
    ] as [(String, StaticString)])
    func agreesWithFoundation(text: String, word: StaticString) {
        let needle = word.description
        #expect(ASCIISearch.contains(word, in: text) == (needle.isEmpty || text.range(of: needle) != nil))
        #expect(ASCIISearch.contains(word, in: text, ignoringCase: true)
            == (needle.isEmpty || text.range(of: needle, options: .caseInsensitive) != nil))
        // A substring is searched in place, within its bounds only.
        let inner = "sha1:AES$(" + text + "sha1:AES$("
        let middle = inner.dropFirst(10).dropLast(10)
        #expect(ASCIISearch.contains(word, in: middle) == ASCIISearch.contains(word, in: text))
    }
}
