import Foundation

extension ReportChanges {
    /// `baseline` with only what `between` compares: domains, verdicts, findings, the used location
    /// and certificates. The evidence (served bodies, headers, redirect chains, the CDN's and the
    /// crawler's details) is dropped, since a baseline is held for the whole of a run: at 5,000
    /// domains the evidence is tens of MB that would count towards the run's peak memory.
    public static func essentials(of baseline: AuditReport) -> AuditReport {
        var report = baseline
        for index in report.domains.indices {
            report.domains[index].cdn = nil
            report.domains[index].crawler = nil
            for location in report.domains[index].locations.indices {
                report.domains[index].locations[location].body = nil
                report.domains[index].locations[location].headers = []
                report.domains[index].locations[location].redirect = nil
            }
        }
        return report
    }
}
