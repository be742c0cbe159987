import Audit
import Foundation
import Testing

private func parse(_ text: String) -> DomainList {
    DomainList.parse(Data(text.utf8), file: "domains.txt")
}

@Suite struct DomainExpectationsTests {
    @Test func tokensAfterTheDomainAreExpectations() {
        let list = parse("example.com  app=ABQ7KM3X2P.com.exemplo.app  opens=/buy/42?x=1#top  stays=/help/website/faq  webcredentials=ABQ7KM3X2P.com.exemplo.app\tappclip=ABQ7KM3X2P.com.exemplo.app.Clip # note\n")
        #expect(list.problems.isEmpty)
        let expectations = list.entries.first?.expectations
        #expect(expectations == DomainExpectations(apps: ["ABQ7KM3X2P.com.exemplo.app"], opens: ["/buy/42?x=1#top"], stays: ["/help/website/faq"],
                                                   webcredentials: ["ABQ7KM3X2P.com.exemplo.app"], appclips: ["ABQ7KM3X2P.com.exemplo.app.Clip"]))
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
        ("example.com app=ABQ7KM3X2P", "is not an app ID"),
        ("example.com apps=ABQ7KM3X2P.com.x", "unknown key \"apps\"; did you mean app=?"),
        ("example.com stays=", "stays= needs a value"),
        ("example.com app=A.b extra", "not KEY=VALUE"),
    ])
    func malformedTokensAreProblemsWithLineAndReason(line: String, reason: String) {
        let list = parse("good.example\n" + line + "\n")
        // The token is skipped alone: the domain is still audited.
        #expect(list.entries.map(\.name.ascii) == ["good.example", "example.com"])
        #expect(list.problems.count == 1)
        #expect(list.problems.first?.line == 2)
        #expect(list.problems.first?.reason.contains(reason) == true, "\(list.problems.first?.reason ?? "")")
    }

    @Test func aBadTokenIsSkippedAndTheOtherExpectationsKept() throws {
        let list = parse("example.com app=ABQ7KM3X2P.com.exemplo.app stays=acc/x opens=/buy/1 webcredentials=nodot\n")
        let entry = try #require(list.entries.first)
        #expect(entry.name.ascii == "example.com")
        #expect(entry.expectations == DomainExpectations(apps: ["ABQ7KM3X2P.com.exemplo.app"], opens: ["/buy/1"]))
        #expect(list.problems.count == 2)
        #expect(list.problems.allSatisfy { $0.line == 1 && $0.file == "domains.txt" })
        #expect(list.problems[0].reason.hasPrefix("expectation \"stays=acc/x\": stays= takes a path"))
        #expect(list.problems[0].reason.contains("e.g. stays=/buy/42"), "says how to fix it")
        #expect(list.problems[0].reason.hasSuffix("example.com is still audited with its other expectations"))
        #expect(list.problems[1].reason.hasPrefix("expectation \"webcredentials=nodot\""))
    }

    @Test func aBadDomainWithTokensIsOneProblem() {
        let list = parse("bad_name.example opens=/a stays=nope\n")
        #expect(list.entries.isEmpty)
        #expect(list.problems.count == 1)
        #expect(list.problems.first?.reason.contains("underscore") == true)
    }

    @Test func throwingParseStillThrowsTheFirstBadToken() {
        #expect(throws: ExpectationSyntaxError.self) { try DomainExpectations.parse(["opens=/a", "stays=x"]) }
        let (parsed, errors) = DomainExpectations.parseSkippingErrors(["opens=/a", "stays=x", "bogus"])
        #expect(parsed == DomainExpectations(opens: ["/a"]))
        #expect(errors.map(\.token) == ["stays=x", "bogus"])
    }

    /// Issue 19: 500,000 expectation lines for one domain took 220 s (a linear search per token).
    /// Counts only: a quadratic merge would not finish (hang detection, not a timed test).
    @Test func halfAMillionExpectationLinesForOneDomainAreCountedExactly() throws {
        var text = ""
        text.reserveCapacity(500_000 * 24)
        for index in 0..<500_000 {
            // Every second line repeats an earlier token, which must be kept once.
            text += "example.com opens=/p/\(index / 2)\n"
        }
        let list = parse(text)
        #expect(list.entries.count == 1)
        let expectations = try #require(list.entries.first?.expectations)
        #expect(expectations.opens.count == 250_000)
        #expect(expectations.opens.first == "/p/0" && expectations.opens.last == "/p/249999")
        #expect(list.duplicateCount == 0, "a repeat that adds expectations is a continuation")
        #expect(list.problems.isEmpty)
    }

    /// Issue 19: 2,000,000 bad lines took 2.1 GB. Only the first problems are kept, the rest counted.
    @Test func badLinesAreKeptUpToTheLimitAndCounted() {
        var text = ""
        for index in 0..<100_000 { text += "bad_\(index).example stays=x\n" }
        text += "good.example stays=nope opens=/a\n"
        let list = parse(text)
        #expect(list.problems.count == DomainList.maximumKeptProblems)
        #expect(list.problemsOmitted == 100_001 - DomainList.maximumKeptProblems)
        #expect(list.problemCount == 100_001)
        #expect(list.problems.last?.line == DomainList.maximumKeptProblems)
        #expect(list.entries.map(\.name.ascii) == ["good.example"], "a good domain after the limit is still audited")
        #expect(list.entries.first?.expectations == DomainExpectations(opens: ["/a"]))
    }

    @Test func combiningKeepsTheLimit() {
        let many = DomainList(problems: Array(repeating: InputProblem(file: "a", line: 1, text: "x", reason: "y"), count: 800), problemsOmitted: 5)
        let combined = DomainList.combining([many, many])
        #expect(combined.problems.count == DomainList.maximumKeptProblems)
        #expect(combined.problemCount == 1610)
    }

    @Test func wordsWithoutEqualsStillReadAsSeveralDomains() {
        let list = parse("example.com www.example.com\n")
        #expect(list.problems.count == 1)
        #expect(list.problems.first?.reason.contains("=") == false)
    }
}
