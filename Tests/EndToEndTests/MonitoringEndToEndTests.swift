import Foundation
import Testing
import TestSupport

/// docs/monitoring.md: `--prom-file` written where node_exporter reads it, and the example alerting
/// rules, checked and run by Prometheus' own promtool.
@Suite struct MonitoringEndToEndTests {
    static let docs = PublishedFormatChecks.reportSchema.deletingLastPathComponent()
    static let rules = docs.appendingPathComponent("aasa-audit.rules.yml")

    static func promtool() throws -> String {
        guard let path = ShellCommand.which("promtool") else {
            throw HarnessError.missingProgram("promtool (Debian package prometheus; scripts/install-deps.sh --test)")
        }
        return path
    }

    @Test func theExampleRulesAreValidAndInTheGuide() throws {
        let outcome = try ShellCommand.run(try Self.promtool(), ["check", "rules", Self.rules.path], checked: false)
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains("SUCCESS: 4 rules found"), "\(outcome.stdout)")
        let guide = try String(contentsOf: Self.docs.appendingPathComponent("monitoring.md"), encoding: .utf8)
        #expect(guide.contains(try String(contentsOf: Self.rules, encoding: .utf8)), "docs/monitoring.md shows docs/aasa-audit.rules.yml as it is")
    }

    /// Each rule fires when it should, and not before: promtool's rule unit tests over made-up series
    /// (time starts at 0 in them: a run at 0, a certificate expiring at 20 days, a domain newly failing).
    @Test func theExampleRulesFireWhenTheyShould() throws {
        let folder = try AuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let test = """
            rule_files:
              - \(Self.rules.path)
            evaluation_interval: 1h
            tests:
              - interval: 1h
                input_series:
                  - series: 'aasa_audit_run_start_timestamp_seconds{instance="n1",job="node"}'
                    values: '0x50'
                  - series: 'aasa_audit_certificate_expiry_timestamp_seconds{domain="soon.example",instance="n1",job="node"}'
                    values: '1728000x200'
                  - series: 'aasa_audit_domain_newly_failing{domain="broken.example",instance="n1",job="node"}'
                    values: '1x50'
                  - series: 'aasa_audit_domain_newly_failing{domain="fine.example",instance="n1",job="node"}'
                    values: '0x50'
                alert_rule_test:
                  - eval_time: 1h
                    alertname: AASAAuditNotRun
                    exp_alerts: []
                  - eval_time: 37h
                    alertname: AASAAuditNotRun
                    exp_alerts:
                      - exp_labels: {severity: warning, instance: n1, job: node}
                        exp_annotations:
                          summary: "aasa-audit has not run for 36 hours"
                          description: "The last run started 1d 13h 0m 0s ago."
                  - eval_time: 1h
                    alertname: AASACertificateExpiringSoon
                    exp_alerts: []
                  - eval_time: 7d
                    alertname: AASACertificateExpiringSoon
                    exp_alerts:
                      - exp_labels: {severity: warning, domain: soon.example, instance: n1, job: node}
                        exp_annotations:
                          summary: "The TLS certificate of soon.example expires within 14 days"
                          description: "Apple's CDN and devices refuse the file once it has expired: renew it."
                  - eval_time: 1h
                    alertname: AASADomainNewlyFailing
                    exp_alerts:
                      - exp_labels: {severity: critical, domain: broken.example, instance: n1, job: node}
                        exp_annotations:
                          summary: "broken.example fails the AASA audit since the last run"
                          description: "See the run's report.html for the finding that decides it."
              - interval: 1h
                input_series: []
                alert_rule_test:
                  - eval_time: 37h
                    alertname: AASAAuditMetricsAbsent
                    exp_alerts:
                      - exp_labels: {severity: warning}
                        exp_annotations:
                          summary: "No aasa-audit metrics for 36 hours"
            """
        let file = folder.appendingPathComponent("rules.test.yml")
        try test.write(to: file, atomically: true, encoding: .utf8)
        let outcome = try ShellCommand.run(try Self.promtool(), ["test", "rules", file.path], checked: false)
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
    }

    @Test func promFileIsTheReportsMetricsWrittenWhereNamed() throws {
        let sites = try LocalSites.shared.get()
        let folder = try AuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("textfile"), withIntermediateDirectories: true)
        let common = ["--cacert", sites.certificateAuthority.certificatePath, "--no-cdn"] + sites.connectToArguments
        let outcome = try AuditBinary.run(common + ["--out", "out", "--format", "json,prom", "--prom-file", "textfile/aasa-audit.prom",
                                                    "good.test", "notfound.test"], in: folder)
        #expect(outcome.status == 1, "\(outcome.stderr)")
        let named = folder.appendingPathComponent("textfile/aasa-audit.prom")
        try PublishedFormatChecks.checkMetrics(at: named)
        #expect(try Data(contentsOf: named) == Data(contentsOf: folder.appendingPathComponent("out/report.prom")))
        let metrics = try String(contentsOf: named, encoding: .utf8)
        #expect(metrics.contains("\naasa_audit_run_exit_status 1\n"))
        #expect(metrics.contains("\naasa_audit_domain_verdict{domain=\"notfound.test\",verdict=\"fail\"} 1\n"))
        #expect(metrics.contains("\naasa_audit_certificate_remaining_seconds{domain=\"good.test\"} "))
        // Nothing under a temporary name is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("textfile").path) == ["aasa-audit.prom"])
        _ = try AuditBinary.readReport(at: folder.appendingPathComponent("out/report.json"))
    }

    @Test(arguments: ["symlink", "folder", "pipe"])
    func promFileRefusesWhatIsNotARegularFile(kind: String) throws {
        let sites = try LocalSites.shared.get()
        let folder = try AuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("precious.txt")
        try "precious".write(to: target, atomically: true, encoding: .utf8)
        let path = folder.appendingPathComponent("aasa-audit.prom").path
        switch kind {
        case "symlink": try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target.path)
        case "folder": try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        default: #expect(mkfifo(path, 0o644) == 0)
        }
        let outcome = try AuditBinary.run(["--cacert", sites.certificateAuthority.certificatePath, "--no-cdn"] + sites.connectToArguments
                                          + ["--out", "out", "--prom-file", "aasa-audit.prom", "good.test"], in: folder)
        #expect(outcome.status == 2, "\(outcome.stderr)")
        let expected = ["symlink": "it is a symbolic link", "folder": "it is a folder", "pipe": "it is a pipe"][kind] ?? ""
        #expect(outcome.stderr.contains("aasa-audit.prom: \(expected)"), "\(outcome.stderr)")
        // Refused before anything was fetched or written.
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path))
        #expect(try String(contentsOf: target, encoding: .utf8) == "precious")
    }
}
