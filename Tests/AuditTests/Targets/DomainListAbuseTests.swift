import Audit
import Foundation
import Testing

/// `domains.txt` written to attack: path tricks, lines that are only whitespace or only a comment,
/// CRLF. What is accepted is always a plain host name, never something usable as a path.
@Suite struct DomainListAbuseTests {
    static let pathTricks = [
        "../etc/passwd", "..", ".", "./example.com", "example.com/../../etc", "../../../../tmp/x.test",
        "/etc/passwd", "~/.ssh/id_rsa", "..\\..\\windows.test", "a.test\\..\\b", "%2e%2e%2fetc.test", "example.com%00.txt",
        "\u{FF0E}\u{FF0E}/etc.test", "xn--.test",
    ]

    @Test(arguments: pathTricks)
    func pathTricksNeverBecomeAPathLikeName(line: String) {
        let list = DomainList.parse(Data((line + "\n").utf8), file: "domains.txt")
        for entry in list.entries {
            let ascii = entry.name.ascii
            #expect(!ascii.contains("/") && !ascii.contains("\\") && !ascii.contains("..") && !ascii.hasPrefix("."), "\(ascii)")
            #expect(ascii.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D || $0 == 0x2E })
        }
        #expect(list.entries.count + list.problems.count == 1)
    }

    @Test func urlsWithPathsKeepOnlyTheHost() {
        let list = DomainList.parse(Data("https://example.com/../../etc/passwd\n".utf8), file: "domains.txt")
        #expect(list.entries.map(\.name.ascii) == ["example.com"])
    }

    @Test func whitespaceAndCommentOnlyLinesAreSkippedSilently() {
        let text = "   \n\t\t\n \t # only a comment\n#\n# example.com\n\u{0B}\nreal.test\r\n \r\n"
        let list = DomainList.parse(Data(text.utf8), file: "domains.txt")
        #expect(list.entries.map(\.name.ascii) == ["real.test"])
        #expect(list.entries.map(\.line) == [7])
        // A vertical tab is a control character, so that line is the one problem.
        #expect(list.problems.map(\.line) == [6])
    }

    @Test func crlfEverywhere() {
        let list = DomainList.parse(Data("# list\r\na.test\r\n\r\n  b.test  # note\r\nc.test".utf8), file: "domains.txt")
        #expect(list.entries.map(\.name.ascii) == ["a.test", "b.test", "c.test"])
        #expect(list.problems.isEmpty)
        #expect(list.entries.allSatisfy { !$0.text.contains("\r") })
    }

    @Test func terminalEscapesInALineAreAProblemNotADomain() {
        let list = DomainList.parse(Data("\u{1B}]52;c;cHduZWQ=\u{07}.test\n\u{1B}[2Jclear.test\n".utf8), file: "domains.txt")
        #expect(list.entries.isEmpty)
        #expect(list.problems.count == 2)
        #expect(list.problems.allSatisfy { $0.reason.hasPrefix("not text") })
    }
}
