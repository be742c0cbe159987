import Audit
import Foundation
import Testing

/// Every input the `domains` fuzz target (Fuzz/DomainListTarget.swift) ever crashed on, kept in
/// Fuzz/Inputs and replayed with the same promises: what is accepted is a plain lower-case ASCII
/// host whose Unicode form carries no control character.
@Suite struct DomainListFuzzRegressionTests {
    static let inputs: [URL] = {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Inputs")
        return ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }()

    @Test func inputsArePresent() {
        #expect(!Self.inputs.isEmpty)
    }

    @Test(arguments: inputs)
    func acceptedNamesAreSafe(input: URL) throws {
        let list = DomainList.parse(try Data(contentsOf: input), file: "domains.txt")
        for entry in list.entries {
            #expect(entry.name.ascii.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D || $0 == 0x2E },
                    "\(entry.name.ascii.debugDescription)")
            #expect(entry.name.unicode.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F && !(0x80..<0xA0).contains($0.value) },
                    "\(entry.name.unicode.debugDescription)")
        }
    }

    /// The first find: `xn--amp` is valid Punycode for U+0080 U+0086 U+008B, C1 controls that a
    /// terminal may act on; such a label is rejected (IDNA2008 disallows them), naming the first one.
    @Test func punycodeDecodingToControlsIsRejected() {
        #expect(throws: DomainNameError.disallowedCharacter(0x80, label: "xn--amp")) { try DomainName.parse("xn--amp.example") }
        let list = DomainList.parse(Data("xn--amp.example\nexample.com\n".utf8), file: "domains.txt")
        #expect(list.entries.map(\.name.ascii) == ["example.com"])
        #expect(list.problems.map(\.line) == [1])
    }

    /// The second: NFKC maps U+02DA RING ABOVE to a space and a combining ring, which once slipped
    /// through the per-Character check and put a space into the ASCII (fetched) form. The reason names
    /// the character typed, not the space it maps to.
    @Test func compatibilityMappingToASpaceIsRejected() {
        do {
            let name = try DomainName.parse("b\u{FC}cher\u{2DA}xample.test").name
            Issue.record("accepted as \(name.ascii.debugDescription)")
        } catch {
            #expect(error == .disallowedCharacter(0x2DA, label: "b\u{FC}cher\u{2DA}xample"))
            #expect(error.description.contains("U+02DA"), "\(error.description)")
        }
    }
}
