import AASA
import Audit
import Foundation

/// A report whose every string is hostile, as a crafted report.json (a `--baseline`, a shard given
/// to `merge`) can be: domain names, finding ids, location paths, messages, fixes, input errors,
/// unfinished domains, the tool's name. The tool's own reports never hold such ids or paths, but a
/// file it reads may.
public enum HostileReport {
    /// Markdown, HTML and terminal attacks in one string, ending with a would-be heading and table row.
    public static let payload = HostileContent.script + HostileContent.image
        + "[x](javascript:alert(1)) ![i](https://evil.example/i.png) <https://evil.example> &lt;b&gt; **bold** | cell | "
        + "`code` ``x`` ]]> <![CDATA[ \u{0}\u{1}\u{8}\u{B}\u{C}\u{FFFE}\u{FFFF} \u{202E}rtl\u{202C}"
        + HostileContent.escapes + "\n# INJECTED heading\n| INJECTED | row |\r\n"

    /// A finding id made to break a code span: backticks, then markup.
    public static let id = "x` <img src=x onerror=\"document.body.appendChild(document.createElement('pwned'))\"> [y](javascript:alert(1)) ``"

    /// A domain name carrying `payload`.
    public static func domain(_ n: Int) -> String { "d\(n)\(payload).test" }

    public static func finding(_ severity: Severity = .error) -> Finding {
        Finding(id: id, severity: severity, message: payload, fix: payload, pointer: "/" + payload)
    }

    public static func location() -> LocationResult {
        LocationResult(path: "/.well-known/" + payload, url: "https://" + payload, verdict: .fail, httpStatus: 500,
                       contentType: payload, headers: [HeaderField(name: payload, value: payload)],
                       bytes: BodySize(transferred: 1, decoded: 1, limit: 131_072), redirect: nil, tls: nil,
                       timings: TransferTimings(), error: nil, body: payload, findings: [finding(), finding(.warning)])
    }

    public static func result(_ n: Int) -> DomainResult {
        DomainResult(domain: domain(n), unicodeDomain: domain(n) + "ü", verdict: .fail, usedLocation: "/.well-known/" + payload,
                     findings: [finding()], locations: [location()])
    }

    /// A report of two hostile domains (fewer than ten, so the console lists every finding) with
    /// hostile input errors, unfinished domains and tool; `shard` for `merge`.
    public static func report(shard: Shard? = nil, first: Int = 1) -> AuditReport {
        var report = AuditReport(tool: ToolInfo(name: payload, version: payload), generatedAt: Date(timeIntervalSince1970: 1_800_000_000),
                                 inputErrors: [InputProblem(file: payload, line: 3, text: payload, reason: payload)],
                                 domains: [result(first), result(first + 1)], notAudited: [domain(first + 90), domain(first + 91)])
        report.shard = shard
        return report
    }

    /// Changes whose every list holds a hostile entry.
    public static func changes() -> ReportChanges {
        let verdict = VerdictChange(domain: domain(1), unicodeDomain: domain(1), from: .pass, to: .fail, reason: finding())
        let found = FindingChange(domain: domain(1), location: "/" + payload, id: id, severity: .error, message: payload)
        return ReportChanges(baselineGeneratedAt: Date(timeIntervalSince1970: 1_799_000_000), baselinePath: payload,
                             newlyFailing: [verdict], recovered: [verdict], otherVerdictChanges: [verdict],
                             findingsAppeared: [found], findingsGone: [found],
                             certificates: [CertificateChange(domain: domain(1), kind: .expired, daysLeftBefore: 3, daysLeft: -1, notAfter: nil)],
                             domainsAdded: [domain(1)], domainsRemoved: [domain(3)])
    }

    /// The report as report.json, written the way the tool writes it (ISO 8601 dates).
    public static func json(_ report: AuditReport) throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(report)
    }
}
