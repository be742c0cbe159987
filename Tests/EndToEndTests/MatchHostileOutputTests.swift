import AASA
import Foundation
import Testing
import TestSupport

/// `aasa-audit match` on a hostile file: app IDs and rule texts with terminal controls (C0 as JSON
/// escapes, C1 and bidirectional overrides as they are). Neither the line for people nor the JSON
/// lines carry a character a terminal acts on; the JSON still reads back to the same values.
@Suite struct MatchHostileOutputTests {
    static let appID = "ABQ7KM3X2P.com.\u{9B}2J\u{1B}]0;title\u{07}\u{202E}evil\u{7F}"
    static let file = """
        {"applinks": {"details": [{"appIDs": ["ABQ7KM3X2P.com.\\u009b2J\\u001b]0;title\\u0007\\u202eevil\\u007f"],
          "components": [{"/": "/*", "comment": "\\u009b31m<script>\\u001b[2J"}]}]}}
        """

    static func terminalControls(_ text: String) -> [String] {
        text.unicodeScalars.filter { scalar in
            let v = scalar.value
            return (v < 0x20 && v != 0x0A) || (0x7F..<0xA0).contains(v) || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
        }.map { String($0.value, radix: 16) }
    }

    @Test(arguments: [false, true])
    func noTerminalControlReachesStdout(json: Bool) throws {
        let url = try AuditBinary.temporaryDirectory().appendingPathComponent("aasa.json")
        try Self.file.write(to: url, atomically: true, encoding: .utf8)
        let outcome = try AuditBinary.run(["match", "--file", url.path, "--host", "example.com"] + (json ? ["--json"] : [])
                                          + ["/x", "https://example.com/y"])
        #expect(outcome.status == 0 || outcome.status == 1, "\(outcome.stderr)")
        #expect(Self.terminalControls(outcome.stdout).isEmpty, "stdout: \(Self.terminalControls(outcome.stdout))")
        #expect(Self.terminalControls(outcome.stderr).isEmpty, "stderr: \(Self.terminalControls(outcome.stderr))")
        if json {
            let results = try outcome.stdout.split(separator: "\n").map { try JSONDecoder().decode(MatchResult.self, from: Data($0.utf8)) }
            #expect(results.count == 2)
            #expect(results.first?.appIDs == [Self.appID], "escaped, not lost")
        } else {
            #expect(outcome.stdout.contains("evil"))
        }
    }
}
