import AASA
import Foundation

extension ReportChanges {
    /// `baseline` with only what `between` compares: domains, verdicts, errors and warnings (without
    /// their fixes), the used location and certificates. The evidence (served bodies, headers,
    /// redirect chains, the connections' TLS facts, the CDN's and the crawler's details, info
    /// findings, fix texts and technical details) is dropped, since a baseline is held for the whole of a run: at 5,000
    /// domains the evidence is tens of MB that would count towards the run's peak memory.
    public static func essentials(of baseline: AuditReport) -> AuditReport {
        var report = baseline
        report.domains = report.domains.map(essentials(of:))
        return report
    }

    /// One domain of a baseline with only what `between` compares (see `essentials(of:)` of a report):
    /// a baseline read one domain at a time keeps this of each.
    public static func essentials(of domain: DomainResult) -> DomainResult {
        func compared(_ findings: [Finding]) -> [Finding] {
            findings.compactMap { finding in
                guard finding.severity != .info else { return nil }
                var finding = finding
                finding.fix = nil
                finding.detail = nil
                return finding
            }
        }
        var domain = domain
        domain.findings = compared(domain.findings)
        domain.cdn = nil
        domain.crawler = nil
        for location in domain.locations.indices {
            domain.locations[location].body = nil
            domain.locations[location].headers = []
            domain.locations[location].redirect = nil
            // The certificate compared is the domain's (`certificate`); the connection's facts, the
            // URL and the body's hash are most of what a location holds besides (2 KB of 2.6 per
            // domain of a 100,000-domain baseline).
            domain.locations[location].tls = nil
            domain.locations[location].url = ""
            domain.locations[location].contentType = nil
            domain.locations[location].bodySHA256 = nil
            domain.locations[location].connectedAddress = nil
            domain.locations[location].findings = compared(domain.locations[location].findings)
        }
        if var android = domain.android {
            android.location.body = nil
            android.location.headers = []
            android.location.redirect = nil
            android.location.findings = compared(android.location.findings)
            android.findings = compared(android.findings)
            domain.android = android
        }
        return domain
    }

    /// A baseline read in two parts: `shell`, the report without its domains, and `domains`, its
    /// domains (essentials, in file order). The days left of certificates that lack them are counted
    /// from the baseline's start, as reading the report whole does.
    public static func baseline(shell: AuditReport, domains: [DomainResult]) -> AuditReport {
        var report = shell
        report.domains = domains.map { var domain = $0; domain.countDaysLeft(from: shell.generatedAt); return domain }
        return report
    }
}
