import Foundation
import Testing
@testable import Audit

@Suite struct ExitPolicyTests {
    static func report(_ verdicts: [Verdict], problems: [InputProblem] = []) -> AuditReport {
        AuditReport(tool: ToolInfo(name: "aasa-audit", version: "0.1.0"), generatedAt: Date(timeIntervalSince1970: 1_800_000_000),
                    inputErrors: problems,
                    domains: verdicts.enumerated().map { DomainResult(domain: "d\($0.offset).example", verdict: $0.element, usedLocation: nil,
                                                                      findings: [], locations: []) })
    }

    static let problem = InputProblem(file: "domains.txt", line: 2, text: "not a domain", reason: "contains a space")

    @Test func statusesAreTheDocumentedNumbers() {
        #expect(Audit.ExitStatus.success.rawValue == 0)
        #expect(Audit.ExitStatus.domainFailed.rawValue == 1)
        #expect(Audit.ExitStatus.usageOrInputError.rawValue == 2)
        #expect(Audit.ExitStatus.interrupted.rawValue == 130)
        #expect(Audit.ExitStatus.terminated.rawValue == 143)
    }

    @Test func errorsAlwaysFailWarningsOnlyWhenStrict() {
        let lenient = ExitPolicy(), strict = ExitPolicy(strict: true)
        #expect(lenient.fails(.error) && strict.fails(.error))
        #expect(!lenient.fails(.warning) && strict.fails(.warning))
        #expect(!lenient.fails(.info) && !strict.fails(.info))
    }

    @Test(arguments: [
        ([Verdict](), false, Audit.ExitStatus.success),
        ([.pass, .pass], false, .success),
        ([.pass, .warn], false, .success),
        ([.pass, .warn], true, .domainFailed),
        ([.pass, .fail], false, .domainFailed),
        ([.fail, .warn], true, .domainFailed),
        ([.pass], true, .success),
    ])
    func reportStatus(verdicts: [Verdict], strict: Bool, expected: Audit.ExitStatus) {
        #expect(ExitPolicy(strict: strict).status(for: Self.report(verdicts)) == expected)
    }

    @Test func skippedLinesOfTheListWinOverVerdicts() {
        #expect(ExitPolicy().status(for: Self.report([.pass], problems: [Self.problem])) == .usageOrInputError)
        #expect(ExitPolicy(strict: true).status(for: Self.report([.fail], problems: [Self.problem])) == .usageOrInputError)
    }

    @Test func signalsMapToTheShellsNumbers() {
        #expect(ExitPolicy.status(forSignal: ExitPolicy.sigint) == .interrupted)
        #expect(ExitPolicy.status(forSignal: ExitPolicy.sigterm) == .terminated)
        #expect(ExitPolicy.status(forSignal: SIGTERM) == .terminated, "the constant is the platform's SIGTERM")
        #expect(ExitPolicy.status(forSignal: SIGINT) == .interrupted)
    }
}
