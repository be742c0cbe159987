import AASA
import Foundation
import Testing
import TestSupport

/// `aasa-audit match` with internationalised hosts and unreadable files.
@Suite struct MatchCommandHostTests {
    static let file = #"{"applinks":{"details":[{"appIDs":["ABQ7KM3X2P.com.exemplo.app"],"components":[{"/":"/buy/*"}]}]}}"#

    func write(_ text: String) throws -> String {
        let url = try AuditBinary.temporaryDirectory().appendingPathComponent("aasa.json")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    @Test(arguments: [("bücher.example", "https://xn--bcher-kva.example/buy/1"),
                      ("xn--bcher-kva.example", "https://bücher.example/buy/1"),
                      ("BÜCHER.example", "https://Bücher.example./buy/1")])
    func unicodeAndPunycodeSpellingsAreOneHost(host: String, url: String) throws {
        let outcome = try AuditBinary.run(["match", "--host", host, "--file", try write(Self.file), url])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains("opens ABQ7KM3X2P.com.exemplo.app"))
    }

    @Test func otherHostStillNeverMatches() throws {
        let outcome = try AuditBinary.run(["match", "--host", "bücher.example", "--file", try write(Self.file), "https://buecher.example/buy/1"])
        #expect(outcome.status == 1)
        #expect(outcome.stdout.contains("is not xn--bcher-kva.example"))
    }

    @Test func directoryIsNamedAsSuch() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let outcome = try AuditBinary.run(["match", "--file", folder.path, "/buy/1"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("it is a folder, not a file"), "\(outcome.stderr)")
    }
}
