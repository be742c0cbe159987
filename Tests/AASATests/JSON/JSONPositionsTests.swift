@testable import AASA
import Testing

/// Positions of the values JSON pointers name: the parser records where each value starts and the
/// document turns a pointer into a line and column.
@Suite struct JSONPositionsTests {
    static let text = """
        {
          "applinks": {
            "details": [
              { "appIDs": ["ABQ7KM3X2P.com.exemplo.app"],
                "components": [ {"/": "/a"}, {"/": "/b", "exlude": true} ] }
            ]
          },
          "a/b": {"~x": 1},
          "dup": 1, "dup": [2, 3],
          "é": "ü", "z": 0
        }
        """

    @Test(arguments: [
        ("", 1, 1),
        ("/applinks", 2, 15),
        ("/applinks/details", 3, 16),
        ("/applinks/details/0", 4, 7),
        ("/applinks/details/0/appIDs/0", 4, 20),
        ("/applinks/details/0/components/1", 5, 38),
        ("/applinks/details/0/components/1/exlude", 5, 60),
        ("/a~1b/~0x", 8, 17),
        // A repeated key names its last value, as Apple's parser keeps it.
        ("/dup", 9, 20),
        ("/dup/1", 9, 24),
        // Columns count characters, not bytes.
        ("/z", 10, 18),
        // A missing member: the deepest value that exists.
        ("/applinks/details/0/components/7", 5, 23),
        ("/applinks/nothing/here", 2, 15),
        ("/applinks/details/x", 3, 16),
    ])
    func pointerGivesTheLineAndColumnOfItsValue(pointer: String, line: Int, column: Int) throws {
        let document = try JSONParser.parse(Array(Self.text.utf8))
        #expect(document.position(of: pointer) == TextPosition(line: line, column: column), "\(pointer)")
    }

    @Test func manyPointersAtOnceKeepTheirOrder() throws {
        let document = try JSONParser.parse(Array(Self.text.utf8))
        let pointers = ["/z", "", "/applinks/details/0/components/1/exlude", "not a pointer", "/dup"]
        #expect(document.positions(of: pointers) == [
            TextPosition(line: 10, column: 18), TextPosition(line: 1, column: 1), TextPosition(line: 5, column: 60), nil,
            TextPosition(line: 9, column: 20),
        ])
    }

    @Test func aByteOrderMarkIsNotAColumn() throws {
        let document = try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array(#"{"a": 1}"#.utf8))
        #expect(document.position(of: "/a") == TextPosition(line: 1, column: 7))
    }

    @Test func aBuiltDocumentHasNoPositions() {
        let document = JSONDocument(root: .object(JSONObject(members: [("a", .null)])))
        #expect(document.position(of: "/a") == nil)
    }

    /// Deep nesting is walked without recursion over the values stepped over.
    @Test func deepNestingAndLongArrays() throws {
        let deep = String(repeating: "[", count: 400) + "1" + String(repeating: "]", count: 400)
        let document = try JSONParser.parse(Array(("[" + deep + ",\n 7]").utf8))
        #expect(document.position(of: "/1") == TextPosition(line: 2, column: 2))
        let long = "[" + (0..<20_000).map(String.init).joined(separator: ",\n") + "]"
        let array = try JSONParser.parse(Array(long.utf8))
        #expect(array.position(of: "/19999") == TextPosition(line: 20_000, column: 1))
    }
}

/// RFC 6901's escapes, read back.
@Suite struct JSONPointerTokenTests {
    @Test(arguments: [
        ("", [String]()),
        ("/", [""]),
        ("/a/b", ["a", "b"]),
        ("/a~1b/~0x", ["a/b", "~x"]),
        ("/~01", ["~1"]),
        ("/a~", ["a~"]),
        ("/é//0", ["é", "", "0"]),
    ])
    func tokens(pointer: String, tokens: [String]) {
        #expect(JSONPositions.tokens(of: pointer) == tokens)
    }

    @Test func aPointerStartsWithASlash() {
        #expect(JSONPositions.tokens(of: "a/b") == nil)
    }
}
