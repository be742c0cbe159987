import AASA
import Foundation

extension ReportChanges {
    /// `baseline` with only what `between` compares: domains, verdicts, errors and warnings (without
    /// their fixes), the used location and certificates. The evidence (served bodies, headers,
    /// redirect chains, the CDN's and the crawler's details, info findings, fix texts) is dropped, since a baseline is held for the whole of a run: at 5,000
    /// domains the evidence is tens of MB that would count towards the run's peak memory.
    public static func essentials(of baseline: AuditReport) -> AuditReport {
        var report = baseline
        func compared(_ findings: [Finding]) -> [Finding] {
            findings.compactMap { finding in
                guard finding.severity != .info else { return nil }
                var finding = finding
                finding.fix = nil
                return finding
            }
        }
        for index in report.domains.indices {
            report.domains[index].findings = compared(report.domains[index].findings)
            report.domains[index].cdn = nil
            report.domains[index].crawler = nil
            for location in report.domains[index].locations.indices {
                report.domains[index].locations[location].body = nil
                report.domains[index].locations[location].headers = []
                report.domains[index].locations[location].redirect = nil
                report.domains[index].locations[location].findings = compared(report.domains[index].locations[location].findings)
            }
            if var android = report.domains[index].android {
                android.location.body = nil
                android.location.headers = []
                android.location.redirect = nil
                android.location.findings = compared(android.location.findings)
                android.findings = compared(android.findings)
                report.domains[index].android = android
            }
        }
        return report
    }
}
