import Audit
import Foundation
import Testing

/// Input, expected ASCII form, expected Unicode form, expected note (nil when none).
@Test("Accepted forms", arguments: [
    ("example.com", "example.com", "example.com", nil),
    ("EXAMPLE.Com", "example.com", "example.com", nil),
    ("example.com.", "example.com", "example.com", nil),
    ("  \texample.com \t ", "example.com", "example.com", nil),
    ("www.sub-domain.example.co.uk", "www.sub-domain.example.co.uk", "www.sub-domain.example.co.uk", nil),
    ("3com.com", "3com.com", "3com.com", nil),
    ("https://example.com/some/path?x#y", "example.com", "example.com", "used the host example.com from the URL"),
    ("http://Example.com", "example.com", "example.com", "used the host example.com from the URL"),
    ("example.com/path", "example.com", "example.com", "used the host example.com from the URL"),
    ("example.com/", "example.com", "example.com", "used the host example.com from the URL"),
    ("example.com?q=1", "example.com", "example.com", "used the host example.com from the URL"),
    ("//example.com/x", "example.com", "example.com", "used the host example.com from the URL"),
    ("applinks:example.com", "example.com", "example.com", "used the host example.com from the entitlement applinks:example.com"),
    ("applinks:example.com?mode=developer", "example.com", "example.com",
     "used the host example.com from the entitlement applinks:example.com?mode=developer"),
    ("webcredentials:Example.com", "example.com", "example.com", "used the host example.com from the entitlement webcredentials:Example.com"),
    ("bücher.example", "xn--bcher-kva.example", "bücher.example", nil),
    ("BÜCHER.example", "xn--bcher-kva.example", "bücher.example", nil),
    ("bu\u{0308}cher.example", "xn--bcher-kva.example", "bücher.example", nil),  // decomposed ü
    ("例え.テスト", "xn--r8jz45g.xn--zckzah", "例え.テスト", nil),
    ("例え。テスト", "xn--r8jz45g.xn--zckzah", "例え.テスト", nil),            // ideographic full stop
    ("ＥＸＡＭＰＬＥ．ｃｏｍ", "example.com", "example.com", nil),              // full-width
    ("xn--bcher-kva.example", "xn--bcher-kva.example", "bücher.example", nil),
    ("XN--BCHER-KVA.example", "xn--bcher-kva.example", "bücher.example", nil),
    ("https://bücher.example/path", "xn--bcher-kva.example", "bücher.example", "used the host bücher.example from the URL"),
] as [(String, String, String, String?)])
func accepts(input: String, ascii: String, unicode: String, note: String?) throws {
    let (name, actualNote) = try DomainName.parse(input)
    #expect(name.ascii == ascii)
    #expect(name.unicode == unicode)
    #expect(name.isInternationalized == (ascii != unicode))
    #expect(actualNote == note)
}

@Test("Length limits apply to the ASCII form, and the limits themselves are accepted")
func lengthLimits() throws {
    let label63 = String(repeating: "a", count: 63)
    #expect(try DomainName.parse(label63 + ".com").name.ascii == label63 + ".com")
    // 4 × 63 + 3 dots = 255; trim to exactly 253.
    let longest = [label63, label63, label63, String(repeating: "b", count: 61)].joined(separator: ".")
    #expect(longest.count == 253)
    #expect(try DomainName.parse(longest).name.ascii == longest)
    #expect(throws: DomainNameError.nameTooLong(length: 254)) { try DomainName.parse(longest + "b") }
    // RFC 3492's Korean sample is 24 characters but 73 in ASCII form (xn-- and 69).
    let korean = "\u{C138}\u{ACC4}\u{C758}\u{BAA8}\u{B4E0}\u{C0AC}\u{B78C}\u{B4E4}\u{C774}\u{D55C}\u{AD6D}\u{C5B4}"
        + "\u{B97C}\u{C774}\u{D574}\u{D55C}\u{B2E4}\u{BA74}\u{C5BC}\u{B9C8}\u{B098}\u{C88B}\u{C744}\u{AE4C}"
    // libidn2 stops encoding at 63 characters, so the reason says "longer than 63", not the exact 73.
    #expect(throws: DomainNameError.internationalLabelTooLong(label: korean)) { try DomainName.parse(korean + ".example") }
}

/// RFC 3492's samples (section 7.1) that are valid IDNA2008 labels as they stand (lower-case, no
/// punctuation), through libidn2 both ways: the ASCII form is "xn--" and the RFC's Punycode.
@Test("RFC 3492 samples encode and decode", arguments: [
    ("\u{4ED6}\u{4EEC}\u{4E3A}\u{4EC0}\u{4E48}\u{4E0D}\u{8BF4}\u{4E2D}\u{6587}", "ihqwcrb4cv8a8dqg056pqjye"),
    ("\u{4ED6}\u{5011}\u{7232}\u{4EC0}\u{9EBD}\u{4E0D}\u{8AAA}\u{4E2D}\u{6587}", "ihqwctvzc91f659drss3x8bo0yb"),
    ("\u{306A}\u{305C}\u{307F}\u{3093}\u{306A}\u{65E5}\u{672C}\u{8A9E}\u{3092}\u{8A71}\u{3057}\u{3066}\u{304F}\u{308C}\u{306A}\u{3044}\u{306E}\u{304B}",
     "n8jok5ay5dzabd5bym9f0cm5685rrjetr6pdxa"),
    ("\u{043F}\u{043E}\u{0447}\u{0435}\u{043C}\u{0443}\u{0436}\u{0435}\u{043E}\u{043D}\u{0438}\u{043D}\u{0435}\u{0433}\u{043E}\u{0432}\u{043E}\u{0440}\u{044F}\u{0442}\u{043F}\u{043E}\u{0440}\u{0443}\u{0441}\u{0441}\u{043A}\u{0438}",
     "b1abfaaepdrnnbgefbadotcwatmq2g4l"),
    ("\u{305D}\u{306E}\u{30B9}\u{30D4}\u{30FC}\u{30C9}\u{3067}", "d9juau41awczczp"),
] as [(String, String)])
func rfc3492Samples(unicode: String, punycode: String) throws {
    #expect(try DomainName.parse(unicode + ".example").name.ascii == "xn--" + punycode + ".example")
    #expect(try DomainName.parse("xn--" + punycode + ".example").name.unicode == unicode + ".example")
}

/// Where IDNA2008 (libidn2) decides differently from the hand-written mapping it replaced.
@Test("IDNA2008 rules from libidn2")
func idna2008Rules() throws {
    // Non-transitional processing keeps ß (transitional processing would have made it "ss").
    #expect(try DomainName.parse("faß.de").name.ascii == "xn--fa-hia.de")
    // Emoji are not valid in IDNA2008 labels, typed or as an A-label.
    #expect(throws: DomainNameError.disallowedCharacter(0x1F4A9, label: "\u{1F4A9}")) { try DomainName.parse("\u{1F4A9}.la") }
    #expect(throws: DomainNameError.disallowedCharacter(0x1F4A9, label: "xn--ls8h")) { try DomainName.parse("xn--ls8h.la") }
    // A valid-looking xn-- label that is not the canonical encoding of anything.
    #expect(throws: DomainNameError.self) { try DomainName.parse("xn--abc.example") }
    // A hyphen at the edge of an international label is named like an ASCII one.
    #expect(throws: DomainNameError.hyphenAtLabelEdge(label: "bücher-")) { try DomainName.parse("bücher-.example") }
}

/// Input, and fragments the reason must contain (the culprit and the rule).
@Test("Rejected forms name the culprit", arguments: [
    ("", ["empty"]),
    ("   ", ["empty"]),
    ("https://", ["empty"]),
    (".", ["empty"]),
    ("example.com other.com", ["contains a space", "one domain per line"]),
    ("example .com", ["contains a space"]),
    ("example\t.com", ["contains a tab"]),
    ("example\u{0}.com", ["not text", "0x00"]),
    ("exa\u{200B}mple.com", ["invisible", "U+200B"]),
    ("192.168.0.1", ["192.168.0.1", "an IP address, not a domain name", "by host name"]),
    ("https://10.0.0.1/x", ["10.0.0.1", "IP address"]),
    ("[::1]", ["[::1]", "IP address"]),
    ("https://[2001:db8::1]:443/", ["[2001:db8::1]", "IP address"]),
    ("2001:db8::1", ["2001:db8::1", "IP address"]),
    ("example.com:8443", [":8443", "has a port", "carry no port"]),
    ("https://example.com:8443/path", [":8443", "has a port"]),
    ("https://user@example.com/", ["user@", "user info"]),
    ("https://user:secret@example.com/", ["user@", "user info"]),
    ("ftp://example.com", ["ftp", "URL"]),
    ("example..com", ["example..com", "empty label"]),
    (".example.com", [".example.com", "empty label"]),
    ("example.com..", ["empty label"]),
    ("example．．", ["empty label"]),
    ("../etc", ["empty label"]),
    ("../../etc/passwd", ["empty label"]),
    ("-example.com", ["\"-example\"", "starts with \"-\""]),
    ("example-.com", ["\"example-\"", "ends with \"-\""]),
    ("ex_ample.com", ["\"ex_ample\"", "underscore \"_\""]),
    ("_dmarc.example.com", ["\"_dmarc\"", "underscore"]),
    ("exa!mple.com", ["\"exa!mple\"", "\"!\"", "letters, digits and \"-\""]),
    ("exa\"mple.com", ["\"\"\""]),
    ("bü_cher.example", ["\"bü_cher\"", "underscore"]),
    ("*.example.com", ["*.example.com", "wildcard", "the apex example.com"]),
    ("https://*.example.com/", ["wildcard"]),
    ("localhost", ["\"localhost\"", "not a fully qualified domain name"]),
    ("LOCALHOST.", ["\"localhost\"", "not a fully qualified domain name"]),
    ("example.123", ["\"123\"", "all digits"]),
    ("xn--zz.example", ["\"xn--zz\"", "not valid Punycode"]),
    ("xn--abc-.example", ["\"xn--abc-\""]),
    ("xn--bü.example", ["\"xn--bü\"", "Punycode"]),
    ("\u{2488}x.com", ["\"\u{2488}x\"", "U+2488", "IDNA2008 does not allow"]),
    (String(repeating: "a", count: 64) + ".com", ["\"" + String(repeating: "a", count: 64) + "\"", "64 characters", "at most 63"]),
    (String(repeating: "a.", count: 127) + "com", ["257 characters", "at most 253"]),
])
func rejects(input: String, fragments: [String]) {
    do {
        let parsed = try DomainName.parse(input)
        Issue.record("accepted \(input) as \(parsed.name)")
    } catch {
        for fragment in fragments {
            #expect(error.description.contains(fragment), "\(error.description) should mention \(fragment)")
        }
    }
}

@Test("A password in a URL stays out of the reason")
func passwordNotShown() {
    #expect(throws: DomainNameError.userInfo("user")) { try DomainName.parse("https://user:secret@example.com") }
}

@Test("Names compare, hash and encode by the ASCII form")
func identityAndCoding() throws {
    let a = try DomainName.parse("Bücher.Example.").name
    let b = try DomainName.parse("xn--bcher-kva.example").name
    #expect(a == b)
    #expect(Set([a, b]).count == 1)
    #expect(a.description == "bücher.example (xn--bcher-kva.example)")

    let encoded = try JSONEncoder().encode([a])
    #expect(String(decoding: encoded, as: UTF8.self) == #"["xn--bcher-kva.example"]"#)
    let decoded = try JSONDecoder().decode([DomainName].self, from: encoded)
    #expect(decoded == [a])
    #expect(decoded.first?.unicode == "bücher.example")
    #expect(throws: DecodingError.self) { try JSONDecoder().decode([DomainName].self, from: Data(#"["localhost"]"#.utf8)) }
}

@Test("A megabyte of one label gives a bounded reason")
func hugeLabelReason() {
    let huge = String(repeating: "a", count: 1_000_000) + ".com"
    do {
        _ = try DomainName.parse(huge)
        Issue.record("accepted a huge label")
    } catch {
        #expect(error.description.count < 300)
    }
}
