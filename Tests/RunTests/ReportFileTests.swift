import Audit
import Foundation
import Reporting
import TestSupport
import Testing
@testable import Run

@Suite struct ReportFileTests {
    static func write(_ text: String, named name: String = "report.json") throws -> String {
        let url = try AuditBinary.temporaryDirectory().appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    @Test func refusesWhatIsNotARegularFile() throws {
        #expect(ReportFile.load("/nonexistent/report.json") == .failure(.unreadable("no such file")))
        let folder = try AuditBinary.temporaryDirectory().path
        #expect(ReportFile.load(folder) == .failure(.unreadable("it is a folder; name its report.json")))
        #expect(ReportFile.load("/dev/zero") == .failure(.unreadable("it is not a regular file (a pipe, socket or device)")))
        let big = try Self.write(String(repeating: " ", count: 100))
        guard case .failure(let refusal) = ReportFile.read(big, maxBytes: 10) else {
            Issue.record("a file over the limit must be refused")
            return
        }
        #expect(refusal.reason == "it is 100 bytes, more than the 0 MB a report may have")
    }

    @Test func saysWhatIsWrongAndWhere() throws {
        #expect(ReportFile.load(try Self.write("not json")) == .failure(.notAReport("not valid JSON")))
        guard case .failure(.notAReport(let detail)) = ReportFile.load(try Self.write("{\"tool\": 3}")) else {
            Issue.record("a wrong type must be refused")
            return
        }
        #expect(detail.hasPrefix("unexpected value at .tool") || detail.hasPrefix("missing "), "\(detail)")
        #expect(ReportFile.LoadError.notAReport("not valid JSON").description == "it is not an aasa-audit report.json (not valid JSON)")
    }

    @Test func readsAReportBack() throws {
        let report = AuditReport(tool: ToolInfo(name: "aasa-audit", version: "0.1.0"), generatedAt: Date(timeIntervalSince1970: 1_800_000_000),
                                 domains: [])
        let path = try Self.write(String(decoding: try JSONReporter.render(report), as: UTF8.self))
        #expect(ReportFile.load(path) == .success(report))
    }

    @Test func baselineChoice() {
        let store = ReportStore(root: "r")
        #expect(BaselineReport.Choice(file: nil, noBaseline: false, output: .store(store)) == .latest(store))
        #expect(BaselineReport.Choice(file: nil, noBaseline: false, output: .folder("o")) == .none)
        #expect(BaselineReport.Choice(file: "b.json", noBaseline: false, output: .folder("o")) == .file("b.json"))
        #expect(BaselineReport.Choice(file: nil, noBaseline: true, output: .store(store)) == .none)
        #expect(BaselineReport.load(.none) == nil)
        #expect(BaselineReport.load(.latest(ReportStore(root: "/nonexistent"))) == nil, "no latest: nothing to compare with, no warning")
    }

    @Test func aBaselineThatCannotBeReadIsAProblemNamingIt() throws {
        let path = try Self.write("[]")
        guard case .failure(let problem)? = BaselineReport.load(.file(path)) else {
            Issue.record("an array is not a report")
            return
        }
        #expect(problem.description.hasPrefix("cannot use the baseline \(path): it is not an aasa-audit report.json ("))
        #expect(problem.description.hasSuffix("; the reports will not say what changed"))
    }

    @Test func theDefaultBaselineIsWhatLatestPointsTo() throws {
        let store = ReportStore(root: try AuditBinary.temporaryDirectory().appendingPathComponent("reports").path)
        let report = AuditReport(tool: ToolInfo(name: "aasa-audit", version: "0.1.0"), generatedAt: Date(timeIntervalSince1970: 1_800_000_000),
                                 domains: [DomainResult(domain: "a.example", verdict: .pass, usedLocation: nil, findings: [], locations: [])])
        let written = try ReportOutput(destination: .store(store), formats: [.json]).write(report)
        guard case .success(let baseline)? = BaselineReport.load(.latest(store)) else {
            Issue.record("the latest report is the baseline")
            return
        }
        #expect(baseline.path == "\(store.root)/\(written.directory.lastPathComponent)/report.json")
        #expect(baseline.report.generatedAt == report.generatedAt)
    }
}
