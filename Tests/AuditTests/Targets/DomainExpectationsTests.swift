import Audit
import Foundation
import Testing

private func parse(_ text: String) -> DomainList {
    DomainList.parse(Data(text.utf8), file: "domains.txt")
}

@Suite struct DomainExpectationsTests {
    @Test func tokensAfterTheDomainAreExpectations() {
        let list = parse("example.com  app=ABCDE12345.com.example.app  opens=/buy/42?x=1#top  stays=/help/website/faq  webcredentials=ABCDE12345.com.example.app\tappclip=ABCDE12345.com.example.app.Clip # note\n")
        #expect(list.problems.isEmpty)
        let expectations = list.entries.first?.expectations
        #expect(expectations == DomainExpectations(apps: ["ABCDE12345.com.example.app"], opens: ["/buy/42?x=1#top"], stays: ["/help/website/faq"],
                                                   webcredentials: ["ABCDE12345.com.example.app"], appclips: ["ABCDE12345.com.example.app.Clip"]))
        #expect(expectations?.count == 5)
    }

    @Test func repeatedDomainLinesAddUpAndAreNotDuplicates() {
        let list = parse("example.com opens=/a\nexample.com stays=/b\nexample.com opens=/a\nexample.com\n")
        #expect(list.entries.count == 1)
        #expect(list.entries.first?.expectations == DomainExpectations(opens: ["/a"], stays: ["/b"]))
        // Only the plain repeat (line 4) counts as a duplicate.
        #expect(list.duplicates.map(\.line) == [4])
    }

    @Test(arguments: [
        ("example.com opens=buy/1", "opens= takes a path"),
        ("example.com app=ABCDE12345", "is not an app ID"),
        ("example.com apps=ABCDE12345.com.x", "unknown key \"apps\"; did you mean app=?"),
        ("example.com stays=", "stays= needs a value"),
        ("example.com app=A.b extra", "not KEY=VALUE"),
    ])
    func malformedTokensAreProblemsWithLineAndReason(line: String, reason: String) {
        let list = parse("good.example\n" + line + "\n")
        #expect(list.entries.map(\.name.ascii) == ["good.example"])
        #expect(list.problems.count == 1)
        #expect(list.problems.first?.line == 2)
        #expect(list.problems.first?.reason.contains(reason) == true, "\(list.problems.first?.reason ?? "")")
    }

    @Test func wordsWithoutEqualsStillReadAsSeveralDomains() {
        let list = parse("example.com www.example.com\n")
        #expect(list.problems.count == 1)
        #expect(list.problems.first?.reason.contains("=") == false)
    }
}
