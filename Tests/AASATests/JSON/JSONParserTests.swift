import Foundation
import Testing
@testable import AASA

/// Parses text the way a file would arrive: as UTF-8 bytes.
private func parse(_ text: String, maximumDepth: Int = JSONParser.defaultMaximumDepth) throws(JSONParseError) -> JSONDocument {
    try JSONParser.parse(Array(text.utf8), maximumDepth: maximumDepth)
}

/// The error parsing `bytes` throws, or nil if it parses.
private func parseError(_ bytes: [UInt8], maximumDepth: Int = JSONParser.defaultMaximumDepth) -> JSONParseError? {
    do {
        _ = try JSONParser.parse(bytes, maximumDepth: maximumDepth)
        return nil
    } catch {
        return error
    }
}

private func parseError(_ text: String) -> JSONParseError? { parseError(Array(text.utf8)) }

private func number(_ text: String) -> JSONValue { .number(JSONNumber(text: text)) }

private func object(_ members: [(String, JSONValue)]) -> JSONValue {
    .object(JSONObject(members: members.map { (key: $0.0, value: $0.1) }))
}

// MARK: - Valid documents

struct ValidDocumentCase: Sendable, CustomTestStringConvertible {
    let text: String
    let expected: JSONValue
    var testDescription: String { text.debugDescription }
}

@Test(arguments: [
    ValidDocumentCase(text: "{}", expected: object([])),
    ValidDocumentCase(text: "[]", expected: .array([])),
    ValidDocumentCase(text: " \t\r\n{ \n } \r\n", expected: object([])),
    ValidDocumentCase(text: "null", expected: .null),
    ValidDocumentCase(text: "true", expected: .bool(true)),
    ValidDocumentCase(text: "false", expected: .bool(false)),
    ValidDocumentCase(text: "0", expected: number("0")),
    ValidDocumentCase(text: "-12.5e+3", expected: number("-12.5e+3")),
    ValidDocumentCase(text: "\"\"", expected: .string("")),
    ValidDocumentCase(text: "\"héllo ✓ 😀\"", expected: .string("héllo ✓ 😀")),
    ValidDocumentCase(text: #"[1, "a", true, false, null, {}, []]"#,
                      expected: .array([number("1"), .string("a"), .bool(true), .bool(false), .null, object([]), .array([])])),
    ValidDocumentCase(text: #"{"a":{"b":[{"c":null}]}}"#,
                      expected: object([("a", object([("b", .array([object([("c", .null)])]))]))])),
    ValidDocumentCase(text: #"{"applinks":{"apps":[],"details":[{"appID":"ABQ7KM3X2P.com.exemplo.app","paths":["/buy/*","NOT /help"]}]}}"#,
                      expected: object([("applinks", object([
                          ("apps", .array([])),
                          ("details", .array([object([
                              ("appID", .string("ABQ7KM3X2P.com.exemplo.app")),
                              ("paths", .array([.string("/buy/*"), .string("NOT /help")])),
                          ])])),
                      ]))])),
    ValidDocumentCase(text: #"{"":1, " ":2}"#, expected: object([("", number("1")), (" ", number("2"))])),
    ValidDocumentCase(text: ##"["#/?*", "a/b", "//not a comment", "'single'"]"##,
                      expected: .array([.string("#/?*"), .string("a/b"), .string("//not a comment"), .string("'single'")])),
])
func parsesValidDocuments(_ testCase: ValidDocumentCase) throws {
    let document = try parse(testCase.text)
    #expect(document.root == testCase.expected)
    #expect(!document.hadByteOrderMark)
    #expect(document.duplicateKeys.isEmpty)
}

@Test func keepsMembersInDocumentOrder() throws {
    let root = try parse(#"{"z":1,"a":2,"m":3}"#).root
    #expect(root.objectValue?.keys == ["z", "a", "m"])
}

@Test func parsesData() throws {
    let document = try JSONParser.parse(Data(#"{"webcredentials":{"apps":["ABQ7KM3X2P.com.example"]}}"#.utf8))
    #expect(document.root.objectValue?["webcredentials"]?.objectValue?["apps"]?.arrayValue?.first?.stringValue == "ABQ7KM3X2P.com.example")
}

@Test func convenienceAccessorsAndTypeNames() throws {
    let root = try parse(#"{"o":{},"a":[],"s":"x","n":1,"b":true,"z":null}"#).root
    guard let object = root.objectValue else {
        Issue.record("root is not an object")
        return
    }
    #expect(object.members.map { $0.value.typeName } == ["object", "array", "string", "number", "boolean", "null"])
    #expect(object["s"]?.stringValue == "x")
    #expect(object["b"]?.boolValue == true)
    #expect(object["a"]?.arrayValue == [])
    #expect(object["n"]?.numberValue?.intValue == 1)
    #expect(object["z"]?.isNull == true)
    #expect(object["s"]?.objectValue == nil)
    #expect(object["missing"] == nil)
}

// MARK: - Errors, with line and column

struct ErrorCase: Sendable, CustomTestStringConvertible {
    let text: String
    let kind: JSONParseError.Kind
    let line: Int
    let column: Int
    var testDescription: String { text.debugDescription }
}

@Test(arguments: [
    // Empty input.
    ErrorCase(text: "", kind: .empty, line: 1, column: 1),
    ErrorCase(text: " \n\t\r\n ", kind: .empty, line: 1, column: 1),
    // Comments.
    ErrorCase(text: "{\n  // note\n  \"a\": 1\n}", kind: .comment, line: 2, column: 3),
    ErrorCase(text: "{\"a\": 1 /* note */}", kind: .comment, line: 1, column: 9),
    ErrorCase(text: "# note\n{}", kind: .comment, line: 1, column: 1),
    ErrorCase(text: "{}\n// trailing note", kind: .comment, line: 2, column: 1),
    ErrorCase(text: "[1, // one\n2]", kind: .comment, line: 1, column: 5),
    // Trailing commas: reported at the closing bracket, as Python and Foundation do.
    ErrorCase(text: "[1, 2,]", kind: .trailingComma, line: 1, column: 7),
    ErrorCase(text: "{\n  \"a\": 1,\n}", kind: .trailingComma, line: 3, column: 1),
    ErrorCase(text: "{\"a\": [\"x\",\n   ]}", kind: .trailingComma, line: 2, column: 4),
    // Quotes and keys.
    ErrorCase(text: "{'a': 1}", kind: .singleQuotedString, line: 1, column: 2),
    ErrorCase(text: "{\"a\": 'b'}", kind: .singleQuotedString, line: 1, column: 7),
    ErrorCase(text: "{a: 1}", kind: .unquotedKey, line: 1, column: 2),
    ErrorCase(text: "{\"a\": 1,\n applinks: {}}", kind: .unquotedKey, line: 2, column: 2),
    ErrorCase(text: "{\"a\": \u{201C}b\u{201D}}", kind: .unexpectedCharacter("\u{201C}"), line: 1, column: 7),
    // Strings.
    ErrorCase(text: "[\"abc", kind: .unterminatedString, line: 1, column: 2),
    ErrorCase(text: "[\"ab\\", kind: .unterminatedString, line: 1, column: 2),
    ErrorCase(text: "[\"ab\ncd\"]", kind: .controlCharacterInString, line: 1, column: 5),
    ErrorCase(text: "[\"a\tb\"]", kind: .controlCharacterInString, line: 1, column: 4),
    ErrorCase(text: "[\"a\u{0}b\"]", kind: .controlCharacterInString, line: 1, column: 4),
    ErrorCase(text: #"["a\x41"]"#, kind: .invalidEscape, line: 1, column: 4),
    ErrorCase(text: #"["a\'"]"#, kind: .invalidEscape, line: 1, column: 4),
    ErrorCase(text: #"["\u12G4"]"#, kind: .invalidEscape, line: 1, column: 3),
    ErrorCase(text: #"["\u12"]"#, kind: .invalidEscape, line: 1, column: 3),
    ErrorCase(text: #"["\ud83d"]"#, kind: .loneSurrogate(0xD83D), line: 1, column: 3),
    ErrorCase(text: #"["\ud800"]"#, kind: .loneSurrogate(0xD800), line: 1, column: 3),
    ErrorCase(text: #"["\ud83dx"]"#, kind: .loneSurrogate(0xD83D), line: 1, column: 3),
    ErrorCase(text: #"["\ud83d\u0041"]"#, kind: .loneSurrogate(0xD83D), line: 1, column: 3),
    ErrorCase(text: #"["\ud83d\ud83d"]"#, kind: .loneSurrogate(0xD83D), line: 1, column: 3),
    ErrorCase(text: #"["\ud83d\n"]"#, kind: .loneSurrogate(0xD83D), line: 1, column: 3),
    ErrorCase(text: #"["ok", "\ude00"]"#, kind: .loneSurrogate(0xDE00), line: 1, column: 9),
    ErrorCase(text: #"["\ud83d\u12"]"#, kind: .loneSurrogate(0xD83D), line: 1, column: 3),
    // Numbers.
    ErrorCase(text: "[01]", kind: .invalidNumber, line: 1, column: 2),
    ErrorCase(text: "[-01]", kind: .invalidNumber, line: 1, column: 2),
    ErrorCase(text: "[+1]", kind: .invalidNumber, line: 1, column: 2),
    ErrorCase(text: "[.5]", kind: .invalidNumber, line: 1, column: 2),
    ErrorCase(text: "[1.]", kind: .invalidNumber, line: 1, column: 2),
    ErrorCase(text: "[1.e5]", kind: .invalidNumber, line: 1, column: 2),
    ErrorCase(text: "[1e]", kind: .invalidNumber, line: 1, column: 2),
    ErrorCase(text: "[1e+]", kind: .invalidNumber, line: 1, column: 2),
    ErrorCase(text: "[0x1F]", kind: .invalidNumber, line: 1, column: 2),
    ErrorCase(text: "[1.2.3]", kind: .invalidNumber, line: 1, column: 2),
    ErrorCase(text: "[-]", kind: .invalidNumber, line: 1, column: 2),
    ErrorCase(text: "[- 1]", kind: .invalidNumber, line: 1, column: 2),
    ErrorCase(text: "-", kind: .invalidNumber, line: 1, column: 1),
    // Non-standard literals.
    ErrorCase(text: "[NaN]", kind: .nonStandardLiteral("NaN"), line: 1, column: 2),
    ErrorCase(text: "[Infinity]", kind: .nonStandardLiteral("Infinity"), line: 1, column: 2),
    ErrorCase(text: "[-Infinity]", kind: .nonStandardLiteral("-Infinity"), line: 1, column: 2),
    ErrorCase(text: "{\"a\": True}", kind: .nonStandardLiteral("True"), line: 1, column: 7),
    ErrorCase(text: "{\"a\": undefined}", kind: .nonStandardLiteral("undefined"), line: 1, column: 7),
    ErrorCase(text: "[nul]", kind: .nonStandardLiteral("nul"), line: 1, column: 2),
    ErrorCase(text: "[truex]", kind: .nonStandardLiteral("truex"), line: 1, column: 2),
    // Unexpected characters and ends.
    ErrorCase(text: "{\"a\" 1}", kind: .unexpectedCharacter("1"), line: 1, column: 6),
    ErrorCase(text: "{\"a\": 1 \"b\": 2}", kind: .unexpectedCharacter("\""), line: 1, column: 9),
    ErrorCase(text: "[1 2]", kind: .unexpectedCharacter("2"), line: 1, column: 4),
    ErrorCase(text: "[1}", kind: .unexpectedCharacter("}"), line: 1, column: 3),
    ErrorCase(text: "{\"a\": 1]", kind: .unexpectedCharacter("]"), line: 1, column: 8),
    ErrorCase(text: "[,1]", kind: .unexpectedCharacter(","), line: 1, column: 2),
    ErrorCase(text: "{,}", kind: .unexpectedCharacter(","), line: 1, column: 2),
    ErrorCase(text: "{\"a\":}", kind: .unexpectedCharacter("}"), line: 1, column: 6),
    ErrorCase(text: "[1,,2]", kind: .unexpectedCharacter(","), line: 1, column: 4),
    ErrorCase(text: "]", kind: .unexpectedCharacter("]"), line: 1, column: 1),
    ErrorCase(text: "[\u{00A0}1]", kind: .unexpectedCharacter("\u{00A0}"), line: 1, column: 2),
    ErrorCase(text: "[1,\u{FEFF}2]", kind: .unexpectedCharacter("\u{FEFF}"), line: 1, column: 4),
    ErrorCase(text: "{", kind: .unexpectedEnd, line: 1, column: 2),
    ErrorCase(text: "[", kind: .unexpectedEnd, line: 1, column: 2),
    ErrorCase(text: "{\"a\"", kind: .unexpectedEnd, line: 1, column: 5),
    ErrorCase(text: "{\"a\":", kind: .unexpectedEnd, line: 1, column: 6),
    ErrorCase(text: "{\"a\": 1", kind: .unexpectedEnd, line: 1, column: 8),
    ErrorCase(text: "[1,\n", kind: .unexpectedEnd, line: 2, column: 1),
    // Content after the root value.
    ErrorCase(text: "{}}", kind: .trailingContent, line: 1, column: 3),
    ErrorCase(text: "{} {}", kind: .trailingContent, line: 1, column: 4),
    ErrorCase(text: "{},\n", kind: .trailingContent, line: 1, column: 3),
    ErrorCase(text: "1 2", kind: .trailingContent, line: 1, column: 3),
    // Lines end at \n; \r\n is one line end; columns count characters, not bytes.
    ErrorCase(text: "{\r\n\"a\": 1,\r\n}", kind: .trailingComma, line: 3, column: 1),
    ErrorCase(text: "{\"é✓😀\": x}", kind: .nonStandardLiteral("x"), line: 1, column: 9),
    ErrorCase(text: "\n\n  [1,]", kind: .trailingComma, line: 3, column: 6),
])
func rejectsWithKindAndPosition(_ testCase: ErrorCase) {
    let error = parseError(testCase.text)
    #expect(error?.kind == testCase.kind)
    #expect(error?.line == testCase.line)
    #expect(error?.column == testCase.column)
}

@Test func errorByteOffsetCountsBytes() {
    let error = parseError("{\"é\": x}")
    #expect(error?.byteOffset == 7)
    #expect(error?.column == 7)
}

@Test func descriptionAndHintNameTheCulprit() {
    let trailing = parseError("{\n  \"a\": [\n    1,\n  ]\n}")
    #expect(trailing?.description == "trailing comma before ']' at line 4, column 3")
    #expect(trailing?.hint.contains("comma after the last item") == true)

    let comment = parseError("{ // x\n}")
    #expect(comment?.description == "comment at line 1, column 3")
    #expect(comment?.hint.contains("comments") == true)

    let smartQuote = parseError("{\"a\": \u{201C}b\u{201D}}")
    #expect(smartQuote?.hint.contains("typographic") == true)

    let missingComma = parseError("{\"a\": 1\n \"b\": 2}")
    #expect(missingComma?.description == "unexpected character '\"', expected ',' or '}' at line 2, column 2")
    #expect(missingComma?.hint.contains("comma is probably missing") == true)

    let nbsp = parseError("[\u{00A0}]")
    #expect(nbsp?.description.contains("U+00A0") == true)
    #expect(nbsp?.hint.contains("non-breaking space") == true)

    #expect(parseError(#"{"details": {"A.b": "x": {}}}"#)?.hint.contains("used as a key") == true)
    #expect(parseError(#"{""paths": 1}"#)?.hint.contains("doubled or misplaced quote") == true)
    #expect(parseError("[1,2")?.description == "unexpected end of input, expected ',' or ']' at line 1, column 5")
    #expect(parseError("[NaN]")?.hint.contains("NaN") == true)
    #expect(parseError("{a:1}")?.hint.contains("double quotes") == true)
    #expect(parseError("['a']")?.hint.contains("single quotes") == true)
}

@Test func everyKindHasDescriptionAndHint() {
    let kinds: [JSONParseError.Kind] = [
        .empty, .invalidUTF8, .unexpectedCharacter("x"), .unexpectedEnd, .trailingComma, .comment, .singleQuotedString,
        .unquotedKey, .unterminatedString, .invalidEscape, .loneSurrogate(0xD800), .controlCharacterInString, .invalidNumber,
        .nonStandardLiteral("NaN"), .trailingContent, .tooDeep(limit: 3),
    ]
    for kind in kinds {
        let error = JSONParseError(kind: kind, line: 2, column: 5, byteOffset: 9)
        #expect(error.description.hasSuffix(" at line 2, column 5"))
        #expect(!error.hint.isEmpty)
    }
}

// MARK: - Byte order mark and UTF-8

@Test func skipsAndReportsByteOrderMark() throws {
    let document = try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array(#"{"a": 1}"#.utf8))
    #expect(document.hadByteOrderMark)
    #expect(document.root == object([("a", number("1"))]))
    #expect(try !parse("{}").hadByteOrderMark)
}

@Test func byteOrderMarkDoesNotCountAsAColumn() {
    let error = parseError([0xEF, 0xBB, 0xBF] + Array("[1,]".utf8))
    #expect(error?.kind == .trailingComma)
    #expect(error?.column == 4)
    #expect(error?.byteOffset == 6)
}

@Test func byteOrderMarkAloneIsEmpty() {
    #expect(parseError([0xEF, 0xBB, 0xBF])?.kind == .empty)
    #expect(parseError([0xEF, 0xBB, 0xBF, 0x20, 0x0A])?.kind == .empty)
}

struct InvalidUTF8Case: Sendable, CustomTestStringConvertible {
    let name: String
    let bytes: [UInt8]
    let byteOffset: Int
    let line: Int
    let column: Int
    var testDescription: String { name }
}

@Test(arguments: [
    InvalidUTF8Case(name: "stray continuation byte", bytes: Array("[\"a".utf8) + [0x80] + Array("\"]".utf8), byteOffset: 3, line: 1, column: 4),
    InvalidUTF8Case(name: "Latin-1 é", bytes: Array("{\"caf".utf8) + [0xE9] + Array("\": 1}".utf8), byteOffset: 5, line: 1, column: 6),
    InvalidUTF8Case(name: "overlong slash C0 AF", bytes: Array("[\"".utf8) + [0xC0, 0xAF] + Array("\"]".utf8), byteOffset: 2, line: 1, column: 3),
    InvalidUTF8Case(name: "overlong C1 BF", bytes: [0x5B, 0xC1, 0xBF, 0x5D], byteOffset: 1, line: 1, column: 2),
    InvalidUTF8Case(name: "overlong three-byte E0 80 AF", bytes: Array("[\"".utf8) + [0xE0, 0x80, 0xAF] + Array("\"]".utf8), byteOffset: 2, line: 1, column: 3),
    InvalidUTF8Case(name: "overlong four-byte F0 80 80 AF", bytes: Array("[\"".utf8) + [0xF0, 0x80, 0x80, 0xAF] + Array("\"]".utf8), byteOffset: 2, line: 1, column: 3),
    InvalidUTF8Case(name: "encoded surrogate ED A0 80", bytes: Array("[\"".utf8) + [0xED, 0xA0, 0x80] + Array("\"]".utf8), byteOffset: 2, line: 1, column: 3),
    InvalidUTF8Case(name: "past U+10FFFF F4 90 80 80", bytes: Array("[\"".utf8) + [0xF4, 0x90, 0x80, 0x80] + Array("\"]".utf8), byteOffset: 2, line: 1, column: 3),
    InvalidUTF8Case(name: "F5 lead byte", bytes: Array("[\"".utf8) + [0xF5, 0x80, 0x80, 0x80] + Array("\"]".utf8), byteOffset: 2, line: 1, column: 3),
    InvalidUTF8Case(name: "FF byte", bytes: [0x5B, 0xFF, 0x5D], byteOffset: 1, line: 1, column: 2),
    InvalidUTF8Case(name: "truncated at end", bytes: Array("[\"".utf8) + [0xE2, 0x82], byteOffset: 2, line: 1, column: 3),
    InvalidUTF8Case(name: "truncated before ASCII", bytes: Array("[\"".utf8) + [0xE2, 0x82] + Array("\"]".utf8), byteOffset: 2, line: 1, column: 3),
    InvalidUTF8Case(name: "after valid multibyte on line 2", bytes: Array("{\n \"é✓\": \"".utf8) + [0xA0] + Array("\"}".utf8), byteOffset: 13, line: 2, column: 9),
    InvalidUTF8Case(name: "UTF-16 LE byte order mark", bytes: [0xFF, 0xFE, 0x7B, 0x00, 0x7D, 0x00], byteOffset: 0, line: 1, column: 1),
])
func rejectsInvalidUTF8(_ testCase: InvalidUTF8Case) {
    let error = parseError(testCase.bytes)
    #expect(error?.kind == .invalidUTF8)
    #expect(error?.byteOffset == testCase.byteOffset)
    #expect(error?.line == testCase.line)
    #expect(error?.column == testCase.column)
}

@Test func acceptsEveryUTF8Length() throws {
    // 1-, 2-, 3- and 4-byte sequences at the edges of their ranges.
    let text = "[\"\u{7F}\u{80}\u{7FF}\u{800}\u{D7FF}\u{E000}\u{FFFF}\u{10000}\u{10FFFF}\"]"
    #expect(try parse(text).root == .array([.string("\u{7F}\u{80}\u{7FF}\u{800}\u{D7FF}\u{E000}\u{FFFF}\u{10000}\u{10FFFF}")]))
}

// MARK: - Duplicate keys

@Test func reportsDuplicateKeysWithPointers() throws {
    let text = """
    {
      "applinks": {
        "details": [
          {"appID": "A", "paths": [], "appID": "B"},
          {"a/b~c": {"x": 1, "x": 2, "x": 3}}
        ]
      },
      "applinks": {}
    }
    """
    let document = try parse(text)
    #expect(document.duplicateKeys == [
        JSONDuplicateKey(pointer: "/applinks/details/0", key: "appID", line: 4, column: 35),
        JSONDuplicateKey(pointer: "/applinks/details/1/a~1b~0c", key: "x", line: 5, column: 26),
        JSONDuplicateKey(pointer: "/applinks/details/1/a~1b~0c", key: "x", line: 5, column: 34),
        JSONDuplicateKey(pointer: "", key: "applinks", line: 8, column: 3),
    ])
    // The last value wins, as in Foundation's and Apple's parsers; all members are kept.
    guard let root = document.root.objectValue else {
        Issue.record("root is not an object")
        return
    }
    #expect(root.keys == ["applinks", "applinks"])
    #expect(root["applinks"] == object([]))
    let first = root.members.first?.value.objectValue?["details"]?.arrayValue?.first?.objectValue
    #expect(first?["appID"] == .string("B"))
    #expect(first?.members.count == 3)
}

@Test func sameKeyInDifferentObjectsIsNotADuplicate() throws {
    let document = try parse(#"[{"a": 1}, {"a": 2, "b": {"a": 3}}]"#)
    #expect(document.duplicateKeys.isEmpty)
}

// MARK: - Depth

@Test func acceptsNestingUpToTheLimit() throws {
    let depth = JSONParser.defaultMaximumDepth
    let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    var value = try parse(text).root
    var levels = 0
    while let inner = value.arrayValue {
        levels += 1
        guard let next = inner.first else { break }
        value = next
    }
    #expect(levels == depth)
}

@Test(arguments: [JSONParser.defaultMaximumDepth + 1, 100_000, 1_000_000])
func rejectsNestingPastTheLimit(count: Int) {
    let error = parseError([UInt8](repeating: UInt8(ascii: "["), count: count))
    #expect(error?.kind == .tooDeep(limit: JSONParser.defaultMaximumDepth))
    #expect(error?.byteOffset == JSONParser.defaultMaximumDepth)
    #expect(error?.column == JSONParser.defaultMaximumDepth + 1)
}

@Test func honoursACustomDepthLimit() throws {
    #expect(parseError(Array(#"{"a":{"b":[1]}}"#.utf8), maximumDepth: 2)?.kind == .tooDeep(limit: 2))
    #expect(try JSONParser.parse(Array(#"{"a":{"b":[1]}}"#.utf8), maximumDepth: 3).root.typeName == "object")
    #expect(try JSONParser.parse(Array("7".utf8), maximumDepth: 0).root == number("7"))
}

// MARK: - Numbers

@Test(arguments: ["0", "-0", "1", "-1", "10", "123456789", "0.5", "-0.5", "1.25", "1e5", "1E5", "1e+5", "1e-5", "1.5e10",
                  "-0.0e-0", "12345678901234567890123", "1e400", "4.9e-324"])
func parsesValidNumbers(_ text: String) throws {
    let root = try parse(text).root
    #expect(root == number(text))
    #expect(root.numberValue?.text == text)
    #expect(root.numberValue?.doubleValue == Double(text))
}

@Test func numbersCompareByValue() {
    #expect(JSONNumber(text: "1") == JSONNumber(text: "1.0"))
    #expect(JSONNumber(text: "1") == JSONNumber(text: "1e0"))
    #expect(JSONNumber(text: "100") == JSONNumber(text: "1E2"))
    #expect(JSONNumber(text: "0") == JSONNumber(text: "-0"))
    #expect(JSONNumber(text: "1") != JSONNumber(text: "2"))
    #expect(JSONNumber(text: "0.1") != JSONNumber(text: "0.10000001"))
}

@Test func numberIntValue() {
    #expect(JSONNumber(text: "42").intValue == 42)
    #expect(JSONNumber(text: "4.2e1").intValue == 42)
    #expect(JSONNumber(text: "4.5").intValue == nil)
    #expect(JSONNumber(text: "1e30").intValue == nil)
}

// MARK: - Strings and escapes

struct EscapeCase: Sendable, CustomTestStringConvertible {
    let json: String
    let decoded: String
    var testDescription: String { json }
}

@Test(arguments: [
    EscapeCase(json: #""\"\\\/\b\f\n\r\t""#, decoded: "\"\\/\u{08}\u{0C}\n\r\t"),
    EscapeCase(json: #""\u0041\u00e9\u00E9""#, decoded: "Aéé"),
    EscapeCase(json: #""\u0000""#, decoded: "\u{0}"),
    EscapeCase(json: #""\u001f\u007F""#, decoded: "\u{1F}\u{7F}"),
    EscapeCase(json: #""\u2713 ok""#, decoded: "✓ ok"),
    EscapeCase(json: #""\ud83d\ude00""#, decoded: "😀"),
    EscapeCase(json: #""\uD83D\uDE00\uD83D\uDE00""#, decoded: "😀😀"),
    EscapeCase(json: #""\udbff\udfff""#, decoded: "\u{10FFFF}"),
    EscapeCase(json: #""a\u0020b\/c""#, decoded: "a b/c"),
    EscapeCase(json: #""raw é ✓ 😀 then \n escaped""#, decoded: "raw é ✓ 😀 then \n escaped"),
])
func decodesEscapes(_ testCase: EscapeCase) throws {
    #expect(try parse(testCase.json).root == .string(testCase.decoded))
}

@Test func escapedAndPlainStringsInOneDocument() throws {
    // The scratch buffer is reused between strings; nothing may leak from one to the next.
    let root = try parse(#"["a\nb", "plain", "c\td", "\u00e9"]"#).root
    #expect(root == .array([.string("a\nb"), .string("plain"), .string("c\td"), .string("é")]))
}

// MARK: - formatted()

@Test func formatsForPeople() throws {
    let root = try parse(#"{"b":[1,{"c":"x\"y\\z\n\u0001"}],"a":{},"e":[],"n":null,"t":true,"é":"ü/"}"#).root
    let expected = """
    {
      "b": [
        1,
        {
          "c": "x\\"y\\\\z\\n\\u0001"
        }
      ],
      "a": {},
      "e": [],
      "n": null,
      "t": true,
      "é": "ü/"
    }
    """
    #expect(root.formatted() == expected)
    #expect(JSONValue.string("tab\there").formatted() == #""tab\there""#)
    #expect(number("-1.5e3").formatted() == "-1.5e3")
}

@Test(arguments: [
    "{}", "[]", "null", "0", "\"\"",
    #"{"applinks":{"details":[{"appIDs":["A.b"],"components":[{"/":"/x/*","?":{"q":"?*"},"exclude":true}]}]}}"#,
    #"["\u0000\u001f\"\\/", "😀", "\ud83d\ude00", -0.5e-3, [[[]]], {"a":{"b":{}}}]"#,
    #"{"k":1,"k":2}"#,
])
func formattedRoundTrips(_ text: String) throws {
    let value = try parse(text).root
    #expect(try parse(value.formatted()).root == value)
}

// MARK: - Semantic equality

@Test func objectEqualityIgnoresKeyOrder() throws {
    let first = try parse(#"{"applinks":{"apps":[],"details":[{"appID":"A.b","paths":["*"]}]},"webcredentials":{"apps":["A.b"]}}"#).root
    let second = try parse(#"{"webcredentials":{"apps":["A.b"]},"applinks":{"details":[{"paths":["*"],"appID":"A.b"}],"apps":[]}}"#).root
    #expect(first == second)
}

@Test func objectEqualityUsesLastValuePerKey() throws {
    #expect(try parse(#"{"a":1,"a":2}"#).root == parse(#"{"a":2}"#).root)
    #expect(try parse(#"{"a":1,"a":2}"#).root != parse(#"{"a":1}"#).root)
}

@Test func equalityStillSeesRealDifferences() throws {
    #expect(try parse(#"{"a":[1,2]}"#).root != parse(#"{"a":[2,1]}"#).root)
    #expect(try parse(#"{"a":1}"#).root != parse(#"{"a":1,"b":null}"#).root)
    #expect(try parse(#"{"a":"1"}"#).root != parse(#"{"a":1}"#).root)
    #expect(try parse(#"{"a":1.0}"#).root == parse(#"{"a":1}"#).root)
}

// MARK: - JSON pointers

@Test(arguments: [("", ""), ("a", "a"), ("a/b", "a~1b"), ("m~n", "m~0n"), ("~1", "~01"), ("/~/", "~1~0~1"), ("é ✓", "é ✓")])
func escapesPointerTokens(_ token: String, _ escaped: String) {
    #expect(JSONPointer.escape(token) == escaped)
}

@Test func appendsPointerTokens() {
    #expect(JSONPointer.appending("", "applinks") == "/applinks")
    #expect(JSONPointer.appending("/applinks", "details") == "/applinks/details")
    #expect(JSONPointer.appending("/applinks/details", 0) == "/applinks/details/0")
    #expect(JSONPointer.appending("/a", "b/c") == "/a/b~1c")
    #expect(JSONPointer.appending("", "") == "/")
}

// MARK: - A large document

/// How long this takes is `make bench-json`'s `plausible-1mb` case (validated whole within 2 s, release), not
/// checked here: speed targets are benchmarks, never a timed unit test.
@Test func parsesAMegabyte() throws {
    // A plausible large AASA: many details entries with escapes, numbers and non-ASCII text.
    var text = #"{"applinks":{"details":["#
    var index = 0
    while text.utf8.count < 1_000_000 {
        if index > 0 { text += "," }
        text += #"{"appIDs":["ABQ7KM3X2P.com.exemplo.app\#(index)"],"components":[{"/":"/päth/\#(index)/*","?":{"q":"a\"b"},"exclude":false,"comment":"n \#(index * 7) ✓","#
        text += #""weight":\#(index).5e-3}]}"#
        index += 1
    }
    text += "]}}"
    let document = try JSONParser.parse(Array(text.utf8))
    let details = document.root.objectValue?["applinks"]?.objectValue?["details"]?.arrayValue
    #expect(details?.count == index)
    #expect(details?.last?.objectValue?["components"]?.arrayValue?.first?.objectValue?["/"]?.stringValue == "/päth/\(index - 1)/*")
}

/// A lone surrogate is a valid escape that is no character: the message says so, not "invalid escape".
@Test(arguments: [
    (#"{"a": "\ud800"}"#, "\\uD800 is a valid JSON escape but not a character: it is a high surrogate not followed by an escaped low surrogate"),
    (#"{"a": "x\uDFFFy"}"#, "\\uDFFF is a valid JSON escape but not a character: it is a low surrogate with no high surrogate"),
])
func loneSurrogateIsNamed(_ text: String, _ summary: String) throws {
    let error = try #require(parseError(text))
    #expect(error.description.hasPrefix(summary), "\(error.description)")
    #expect(!error.description.contains("invalid escape"))
    #expect(error.hint.contains("\\uD83D\\uDE00"))
}

@Test func surrogatePairsStillDecode() throws {
    let document = try JSONParser.parse(Array(#"["\ud83d\ude00", "\uD83D\uDE00"]"#.utf8))
    #expect(document.root.arrayValue?.compactMap(\.stringValue) == ["😀", "😀"])
}
