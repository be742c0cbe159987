import AASA
import Foundation
import Testing

/// The validator as a whole: bytes in, JSON findings first, then the schema checks'.
@Suite struct DocumentValidatorTests {
    func ids(_ text: String) -> [String] {
        DocumentValidator.validate(json: Array(text.utf8)).findings.map(\.id)
    }

    @Test func aCleanLegacyFileHasNoFindings() {
        #expect(ids(#"{"applinks":{"apps":[],"details":[{"appID":"ABCDE12345.com.example.app","paths":["/buy/*","NOT /help/*"]}]}}"#) == [])
    }

    @Test func aCleanModernFileOnlyNotesTheIOSVersion() {
        #expect(ids(#"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/buy/*"}]}]}}"#)
                == ["schema.components-only"])
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
        #expect(validation.findings.map(\.id) == ["json.syntax"])
        let message = try #require(validation.findings.first?.message)
        #expect(message.contains("deep") || message.contains("nest"), "\(message.prefix(200))")
    }

    @Test func emptyAndWhitespaceDocumentsAreSyntaxErrors() {
        #expect(ids("") == ["json.syntax"])
        #expect(ids(" \n\t ") == ["json.syntax"])
    }

    @Test func everyEmittedIDIsARegisteredRule() {
        let documents = [
            #"{"applink":{},"x":1}"#, #"{"applinks":{"details":{"ABCDE12345.com.a":{"paths":["NOT/x"]}}}}"#,
            #"{"applinks":{"substitutionVariables":{"a$":["$(b)"]},"details":[{"appIDs":[1],"components":[{"/":"/$(nope)","exclude":"true"}]}]}}"#,
        ]
        let registered = Set(DocumentValidator.rules.map(\.id))
        for document in documents {
            for id in ids(document) { #expect(registered.contains(id), "\(id) is emitted but not registered") }
        }
    }
}
