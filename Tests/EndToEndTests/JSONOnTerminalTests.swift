import Foundation
import Testing
import TestSupport

/// `--json` output goes to a terminal as often as to `jq`: quoted file content (an app ID with a C1
/// CSI or a bidirectional override) reaches it as `\u` escapes, and the JSON still parses.
@Suite struct JSONOnTerminalTests {
    @Test func validateJSONCarriesNoTerminalControl() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let file = folder.appendingPathComponent("aasa.json")
        try #"{"applinks": {"details": [{"appIDs": ["X\u009b2J\u202eevil\u007f"], "components": [{"/": "/*"}]}]}}"#
            .write(to: file, atomically: true, encoding: .utf8)
        let outcome = try AuditBinary.run(["validate", "--json", file.path], in: folder)
        let bad = outcome.stdout.unicodeScalars.filter { v in
            (v.value < 0x20 && v.value != 0x0A) || (0x7F...0x9F).contains(v.value) || (0x202A...0x202E).contains(v.value)
        }
        #expect(bad.isEmpty, "\(bad.map { String($0.value, radix: 16) })")
        #expect(outcome.stdout.contains("\\u009b"), "quoted, as an escape: \(outcome.stdout)")
        #expect(throws: Never.self) { try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) }
    }
}
