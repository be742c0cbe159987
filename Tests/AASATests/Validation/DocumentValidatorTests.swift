import AASA
import Foundation
import Testing

/// The validator as a whole: bytes in, JSON findings first, then the schema checks'.
@Suite struct DocumentValidatorTests {
    func ids(_ text: String) -> [String] {
        DocumentValidator.validate(json: Array(text.utf8)).findings.map(\.id)
    }

    @Test func aCleanLegacyFileHasNoFindings() {
        #expect(ids(#"{"applinks":{"apps":[],"details":[{"appID":"ABQ7KM3X2P.com.exemplo.app","paths":["/buy/*","NOT /help/*"]}]}}"#) == [])
    }

    @Test func aCleanModernFileOnlyNotesTheIOSVersion() {
        #expect(ids(#"{"applinks":{"details":[{"appIDs":["ABQ7KM3X2P.com.exemplo.app"],"components":[{"/":"/buy/*"}]}]}}"#)
                == ["schema.components-only"])
    }

    /// A lone surrogate escape is grammatical JSON that decodes to no character: the message must not
    /// call the document invalid JSON in the same breath as it calls the escape valid.
    @Test func aLoneSurrogateIsNotCalledInvalidJSON() throws {
        let finding = try #require(DocumentValidator.validate(json: Array(#"{"a": "\ud800"}"#.utf8)).findings.first)
        #expect(finding.id == "json.syntax")
        #expect(finding.message.hasPrefix("The document cannot be decoded: \\uD800 is a valid JSON escape but not a character"), "\(finding.message)")
        #expect(!finding.message.contains("not valid JSON"))
    }

    @Test func jsonFindingsComeBeforeSchemaFindings() {
        let found = ids(#"{"applinks":{"details":[]},"applinks":{"details":[{"appID":"bad"}]}}"#)
        #expect(found.first == "json.duplicate-key")
        #expect(found.contains("schema.app-id-format"))
    }

    @Test(arguments: [100_000, 1_000_000])
    func hostileNestingIsASyntaxErrorNotACrash(depth: Int) throws {
        let bytes = [UInt8](repeating: UInt8(ascii: "["), count: depth) + [UInt8](repeating: UInt8(ascii: "]"), count: depth)
        let validation = DocumentValidator.validate(json: bytes)
        // Both depths are also over the size limit (2 bytes per level).
        #expect(validation.findings.map(\.id) == ["size.too-large", "json.syntax"])
        let message = try #require(validation.findings.last?.message)
        #expect(message.contains("deep") || message.contains("nest"), "\(message.prefix(200))")
    }

    /// `validate` applies Apple's 128 KB limit too (the audit's SizeCheck reports it for served files),
    /// on the file's own bytes, whatever else is wrong with it.
    @Test(arguments: [
        (131_072, false), (131_073, true), (400_000, true), (100, false),
    ])
    func fileOverTheSizeLimitIsAnError(size: Int, tooLarge: Bool) throws {
        let file = #"{"applinks":{"apps":[],"details":[{"appID":"ABQ7KM3X2P.com.exemplo.app","paths":["/buy/*"]}]}}"#
        let padded = file + String(repeating: " ", count: max(0, size - file.utf8.count))
        #expect(padded.utf8.count == max(size, file.utf8.count))
        let findings = DocumentValidator.validate(json: Array(padded.utf8)).findings
        #expect(findings.map(\.id) == (tooLarge ? ["size.too-large"] : []))
        if tooLarge {
            let finding = try #require(findings.first)
            #expect(finding.severity == .error)
            #expect(finding.pointer == "")
            #expect(finding.message.contains("The file is \(size) bytes, \(size - 131_072) over Apple's limit of 131072 bytes"), "\(finding.message)")
        }
    }

    @Test func anOversizedFileIsStillCheckedForEverythingElse() {
        let file = #"{"applinks":{"details":[{"appID":"bad"}]}}"# + String(repeating: "\n", count: 140_000)
        let found = DocumentValidator.validate(json: Array(file.utf8)).findings.map(\.id)
        #expect(found.first == "size.too-large")
        #expect(found.contains("schema.app-id-format"))
    }

    @Test func emptyAndWhitespaceDocumentsAreSyntaxErrors() {
        #expect(ids("") == ["json.syntax"])
        #expect(ids(" \n\t ") == ["json.syntax"])
    }

    @Test func everyEmittedIDIsARegisteredRule() {
        let documents = [
            #"{"applink":{},"x":1}"#, #"{"applinks":{"details":{"ABQ7KM3X2P.com.a":{"paths":["NOT/x"]}}}}"#,
            #"{"applinks":{"substitutionVariables":{"a$":["$(b)"]},"details":[{"appIDs":[1],"components":[{"/":"/$(nope)","exclude":"true"}]}]}}"#,
        ]
        let registered = Set(DocumentValidator.rules.map(\.id))
        for document in documents {
            for id in ids(document) { #expect(registered.contains(id), "\(id) is emitted but not registered") }
        }
    }
}
