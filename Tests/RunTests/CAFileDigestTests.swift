import Foundation
import Testing
@testable import Run

/// The digest a report gives for its `--cacert` file: lower-case hex of the file's SHA-256.
@Suite struct CAFileDigestTests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    ])
    func theFilesSHA256InLowerCaseHex(content: String, digest: String) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ca-digest-\(UUID().uuidString).pem").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(content.utf8).write(to: URL(fileURLWithPath: path))
        #expect(CAFileDigest.sha256(ofFileAt: path) == digest)
    }
}
