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

    // MARK: --fail-on new

    static func domain(_ name: String, _ verdict: Verdict, errors: [String] = [], warnings: [String] = []) -> DomainResult {
        let findings = errors.map { Finding(id: $0, severity: .error, message: "\($0) happened", fix: nil) }
            + warnings.map { Finding(id: $0, severity: .warning, message: "\($0) happened", fix: nil) }
        return DomainResult(domain: name, verdict: verdict, usedLocation: nil, findings: findings, locations: [])
    }

    static func run(_ domains: [DomainResult], at seconds: Double) -> AuditReport {
        AuditReport(tool: ToolInfo(name: "aasa-audit", version: "0.1.0"), generatedAt: Date(timeIntervalSince1970: seconds), domains: domains)
    }

    /// `now` compared with `then`, as the audit does when there is a baseline.
    static func compared(_ then: [DomainResult], _ now: [DomainResult]) -> AuditReport {
        let baseline = run(then, at: 1_800_000_000)
        var current = run(now, at: 1_800_086_400)
        current.changes = ReportChanges.between(baseline: baseline, current: current, baselinePath: "reports/latest/report.json",
                                                expiryWarningDays: 30)
        return current
    }

    static let new = ExitPolicy(failOn: .new)

    @Test func newFailOnlyCountsWhatIsNewSinceTheBaseline() {
        let then = [Self.domain("a.example", .fail, errors: ["http.not-found"]), Self.domain("b.example", .pass),
                    Self.domain("c.example", .fail, errors: ["tls.expired"]), Self.domain("d.example", .fail, errors: ["network.dns"])]
        let now = [Self.domain("a.example", .fail, errors: ["http.not-found"]),            // same failure: not new
                   Self.domain("b.example", .fail, errors: ["redirect.present"]),          // newly failing
                   Self.domain("c.example", .fail, errors: ["tls.expired", "json.invalid"]), // a new error
                   Self.domain("d.example", .pass),                                          // recovered
                   Self.domain("e.example", .fail, errors: ["network.dns"])]                 // not in the baseline
        let report = Self.compared(then, now)
        #expect(Self.new.failingDomains(in: report).map(\.domain) == ["b.example", "c.example", "e.example"])
        #expect(Self.new.status(for: report) == .domainFailed)
        #expect(ExitPolicy().failingDomains(in: report).map(\.domain) == ["a.example", "b.example", "c.example", "e.example"])
    }

    @Test func theSameFailuresTwiceAreNotNew() {
        let broken = [Self.domain("a.example", .fail, errors: ["http.not-found"]), Self.domain("b.example", .warn, warnings: ["cdn.stale"])]
        let report = Self.compared(broken, broken)
        #expect(Self.new.failingDomains(in: report).isEmpty)
        #expect(Self.new.status(for: report) == .success)
        #expect(ExitPolicy().status(for: report) == .domainFailed, "--fail-on any still fails")
    }

    @Test func aFailureThatChangesItsErrorIsNew() {
        let report = Self.compared([Self.domain("a.example", .fail, errors: ["http.not-found"])],
                                   [Self.domain("a.example", .fail, errors: ["tls.expired"])])
        #expect(Self.new.status(for: report) == .domainFailed)
    }

    @Test func newWarningsCountOnlyWithStrict() {
        let then = [Self.domain("a.example", .pass), Self.domain("b.example", .warn, warnings: ["cdn.stale"])]
        let now = [Self.domain("a.example", .warn, warnings: ["content-type.unexpected"]),
                   Self.domain("b.example", .warn, warnings: ["cdn.stale", "http.root-only"])]
        let report = Self.compared(then, now)
        #expect(Self.new.status(for: report) == .success)
        let strictNew = ExitPolicy(strict: true, failOn: .new)
        #expect(strictNew.failingDomains(in: report).map(\.domain) == ["a.example", "b.example"])
        // Strict: a warning domain that was failing already (a warning then) and gets no new finding is not new.
        let same = Self.compared(then, then)
        #expect(strictNew.status(for: same) == .success)
        // Strict: fail -> warn with a warning it already had failed the run before too: not new.
        let eased = Self.compared([Self.domain("a.example", .fail, errors: ["http.not-found"], warnings: ["cdn.stale"])],
                                  [Self.domain("a.example", .warn, warnings: ["cdn.stale"])])
        #expect(strictNew.failingDomains(in: eased).isEmpty)
        #expect(ExitPolicy(strict: true).status(for: eased) == .domainFailed)
    }

    @Test func withoutABaselineNewActsAsAny() {
        let report = Self.run([Self.domain("a.example", .fail, errors: ["http.not-found"])], at: 1_800_000_000)
        #expect(report.changes == nil)
        #expect(Self.new.failingDomains(in: report).map(\.domain) == ["a.example"])
        #expect(Self.new.status(for: report) == .domainFailed)
    }

    @Test func inputErrorsStillExitTwoWithNew() {
        var report = Self.compared([], [])
        report.inputErrors = [Self.problem]
        #expect(Self.new.status(for: report) == .usageOrInputError)
    }

    @Test func omittedInputErrorsCount() {
        var report = Self.report([.pass])
        report.inputErrorsOmitted = 3
        #expect(report.inputErrorCount == 3)
        #expect(ExitPolicy().status(for: report) == .usageOrInputError)
    }

    @Test func signalsMapToTheShellsNumbers() {
        #expect(ExitPolicy.status(forSignal: ExitPolicy.sigint) == .interrupted)
        #expect(ExitPolicy.status(forSignal: ExitPolicy.sigterm) == .terminated)
        #expect(ExitPolicy.status(forSignal: SIGTERM) == .terminated, "the constant is the platform's SIGTERM")
        #expect(ExitPolicy.status(forSignal: SIGINT) == .interrupted)
    }
}

/// `--fail-on expiring` and lists of words: the one expiry judgement (`CertificateExpiry`) against
/// the threshold the report records decides which certificates fail the run.
@Suite struct FailOnExpiringTests {
    /// A domain of `verdict` whose judged certificate has `daysLeft` (nil: unknown).
    static func domain(_ name: String, _ verdict: Verdict, daysLeft: Int?) -> (DomainResult, Int?) {
        (DomainResult(domain: name, verdict: verdict, usedLocation: nil, findings: [], locations: []), daysLeft)
    }

    /// The report judges its domains when made; the certificates are set after, as judged.
    static func report(_ domains: [(DomainResult, Int?)], warningDays: Int = 30) -> AuditReport {
        var report = AuditReport(tool: ToolInfo(name: "aasa-audit", version: "0.1.0"), generatedAt: Date(timeIntervalSince1970: 1_800_000_000),
                                 domains: domains.map(\.0))
        for (index, (_, daysLeft)) in domains.enumerated() {
            report.domains[index].certificate = JudgedCertificate(location: "/.well-known/apple-app-site-association", notAfter: nil,
                                                                  daysLeft: daysLeft)
        }
        report.expiryWarningDays = warningDays
        return report
    }

    @Test(arguments: [
        // (certificate days left, the report's threshold, --fail-on, status)
        (4, 30, FailOnList.expiring, Audit.ExitStatus.domainFailed),
        (4, 30, .any, .success),
        (4, 3, .expiring, .success),
        (60, 30, .expiring, .success),
        (30, 30, .expiring, .success),
        (29, 30, .expiring, .domainFailed),
        (-1, 30, .expiring, .domainFailed),
        (4, 30, FailOnList([.new, .expiring]), .domainFailed),
        (4, 30, FailOnList([.any, .expiring]), .domainFailed),
    ] as [(Int, Int, FailOnList, Audit.ExitStatus)])
    func aCertificateNearItsEnd(daysLeft: Int, warningDays: Int, failOn: FailOnList, expected: Audit.ExitStatus) {
        let report = Self.report([Self.domain("a.example", .warn, daysLeft: daysLeft), Self.domain("b.example", .pass, daysLeft: 200)],
                                 warningDays: warningDays)
        let policy = ExitPolicy(failOn: failOn)
        #expect(policy.status(for: report) == expected)
        #expect(policy.status(for: StreamedReport(report)) == expected, "the streamed report decides the same")
        #expect(policy.expiringPositions(in: StreamedReport(report)) == (expected == .domainFailed ? [0] : []))
    }

    @Test func expiringAloneLeavesFailingDomainsOutAndAnUnknownEndIsNotClose() {
        let report = Self.report([Self.domain("a.example", .fail, daysLeft: 200), Self.domain("b.example", .fail, daysLeft: nil)])
        #expect(ExitPolicy(failOn: .expiring).status(for: report) == .success)
        #expect(ExitPolicy(failOn: .expiring).failingDomains(in: report).isEmpty)
        #expect(ExitPolicy(failOn: FailOnList([.any, .expiring])).status(for: report) == .domainFailed)
        #expect(ExitPolicy(failOn: FailOnList([.expiring, .any])).failOn.description == "any,expiring", "in FailOn's order")
    }

    @Test(arguments: [
        ("any", Result<FailOnList, FailOnList.Refusal>.success(.any)),
        ("new", .success(.new)),
        ("expiring", .success(.expiring)),
        ("new,expiring", .success(FailOnList([.new, .expiring]))),
        ("expiring,new,expiring", .success(FailOnList([.new, .expiring]))),
        ("any,new", .failure(.anyWithNew)),
        ("new,soon", .failure(.unknownWord("soon"))),
        ("new,", .failure(.unknownWord(""))),
        ("", .failure(.unknownWord(""))),
    ])
    func parsing(text: String, expected: Result<FailOnList, FailOnList.Refusal>) {
        #expect(FailOnList.parse(text) == expected)
    }
}
