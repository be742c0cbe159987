import Foundation
import Testing
import AASA
import TestSupport


/// Manifest rows that strict RFC 8259 disagrees with, and why. Empty: every row agrees.
private let manifestDisagreements: [String: String] = [:]

/// What the strict parser says about each invalid file. The lines and columns are the ones the
/// manifest's notes quote from Python's json module, so two parsers agree on where each file breaks.
private let expectedFailures: [String: (kind: JSONParseError.Kind, line: Int, column: Int)] = [
    "001.aasa": (.trailingComma, 17, 14),
    "043.aasa": (.unexpectedCharacter(":"), 9, 55),  // an app ID string used as a key
    "049.aasa": (.unexpectedCharacter("\""), 7, 5),  // missing comma between members
    "059.aasa": (.comment, 6, 88),
    "088.aasa": (.unexpectedCharacter("\u{201C}"), 6, 18),  // typographic opening quote
    "091.aasa": (.unexpectedCharacter("p"), 5, 15),  // doubled quote before a key
    "097.aasa": (.trailingComma, 5, 5),
    "123.aasa": (.controlCharacterInString, 8, 19),  // string closed with a typographic quote runs to the line end
]

@Test func corpusManifestMatchesStrictParsing() throws {
    let rows = try RealAASACorpus.entries()
    #expect(rows.count == 153)
    var failures: [String: JSONParseError] = [:]
    for row in rows {
        let bytes = try RealAASACorpus.bytes(of: row.file)
        let shouldParse = row.shape != "invalid-json"
        do {
            let document = try JSONParser.parse(bytes)
            #expect(shouldParse || manifestDisagreements[row.file] != nil, "\(row.file) parsed but the manifest says invalid-json")
            // Every real file survives a trip through formatted().
            #expect(try JSONParser.parse(Array(document.root.formatted().utf8)).root == document.root)
        } catch {
            failures[row.file] = error
            #expect(!shouldParse || manifestDisagreements[row.file] != nil, "\(row.file) failed: \(error) — \(error.hint)")
        }
    }
    #expect(Set(failures.keys) == Set(expectedFailures.keys))
    for (file, expected) in expectedFailures {
        let error = failures[file]
        #expect(error?.kind == expected.kind, "\(file)")
        #expect(error?.line == expected.line, "\(file)")
        #expect(error?.column == expected.column, "\(file)")
    }
}
