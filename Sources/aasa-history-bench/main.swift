import AASA
import Audit
import Foundation
import History

// Benchmark of the history database (`make bench-history`): generates a year of nightly runs of a
// list (RUNS runs × DOMAINS domains, through HistoryStore.record, as the audit records them), then
// times what a night adds (the report's insights and recording the run) and a domain's timeline.
// Usage: aasa-history-bench FILE [DOMAINS] [RUNS] [AUDIT_SECONDS]
// Exits 1 when the night's history work exceeds 5 % of AUDIT_SECONDS (the wall time of an audit of
// DOMAINS domains, from docs/scaling.md) or a timeline takes a second or more.

let arguments = Array(CommandLine.arguments.dropFirst())
guard let file = arguments.first else {
    FileHandle.standardError.write(Data("usage: aasa-history-bench FILE [DOMAINS] [RUNS] [AUDIT_SECONDS]\n".utf8))
    exit(2)
}
let domainCount = arguments.count > 1 ? Int(arguments[1]) ?? 5_000 : 5_000
let runCount = arguments.count > 2 ? Int(arguments[2]) ?? 365 : 365
let auditSeconds = arguments.count > 3 ? Double(arguments[3]) ?? 9.95 : 9.95
let day = 86_400.0
let firstNight = Date(timeIntervalSince1970: 1_764_554_400 - Double(runCount) * day)  // a year before 2025-12-01 02:00 UTC

/// A small deterministic generator (64-bit LCG), so every run writes the same history.
struct Generator {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    mutating func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }
}

var generator = Generator()
let issuers = ["R10", "R11", "E5", "DigiCert Global G2 TLS RSA SHA256 2020 CA1", "Sectigo RSA Domain Validation Secure Server CA"]
let wellKnown = AASAFile.wellKnownPath
/// Each domain's state: failing domains stay failing for a while, 2 % flap.
var failingUntil = [Int](repeating: -1, count: domainCount)

func night(_ index: Int) -> AuditReport {
    let at = firstNight.addingTimeInterval(Double(index) * day)
    var domains: [DomainResult] = []
    domains.reserveCapacity(domainCount)
    for d in 0..<domainCount {
        if failingUntil[d] < index && generator.next(1000) < 4 { failingUntil[d] = index + 1 + generator.next(20) }
        let flaps = d % 50 == 0
        let verdict: Verdict = failingUntil[d] >= index || (flaps && generator.next(3) == 0) ? .fail
            : d % 8 == 0 ? .warn : .pass
        let findings: [Finding] = verdict == .fail ? [Finding(id: "http.status", severity: .error, message: "404"),
                                                      Finding(id: "location.none", severity: .error, message: "none")]
            : verdict == .warn ? [Finding(id: "http.content-type", severity: .warning, message: "text/plain")] : []
        // Certificates renewed every 90 days, staggered.
        let renewal = Double((index + d) / 90 * 90 - d + 90)
        let certificate = ServerCertificate(subject: "CN=d\(d).example", issuer: issuers[d % issuers.count], subjectAltNames: [],
                                            notBefore: nil, notAfter: firstNight.addingTimeInterval(renewal * day))
        let location = LocationResult(path: wellKnown, url: "https://d\(d).example\(wellKnown)", verdict: verdict, httpStatus: 200,
                                      contentType: "application/json", headers: [], bytes: BodySize(), redirect: nil,
                                      tls: TLSConnection(version: "TLSv1.3", certificate: certificate),
                                      timings: TransferTimings(dnsMs: 1, connectMs: 2, tlsMs: 5, firstByteMs: 20, totalMs: 25),
                                      error: nil, body: nil, findings: findings)
        domains.append(DomainResult(domain: "d\(d).example", verdict: verdict, usedLocation: wellKnown, findings: [], locations: [location],
                                    cdn: CDNResult(url: "https://cdn/d\(d).example", httpStatus: 200, matchesOrigin: true, differences: [])))
    }
    return AuditReport(tool: ToolInfo(name: "aasa-audit", version: "bench"), generatedAt: at, domains: domains)
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

do {
    try? FileManager.default.removeItem(atPath: file)
    let store = try HistoryStore(path: file)
    print("generating \(runCount) runs × \(domainCount) domains in \(file) …")
    let generation = try seconds {
        for index in 0..<(runCount - 1) {
            try store.record(RunRecord(report: night(index), kind: .list, origin: .audit, listSource: "domains.txt", endedAt: nil))
        }
    }
    print(String(format: "generated in %.1f s", generation))

    // The last night as the audit does it: insights before the reports, the run recorded after.
    let tonight = RunRecord(report: night(runCount - 1), kind: .list, origin: .audit, listSource: "domains.txt", endedAt: Date())
    var history: ReportHistory?
    let insightTime = try seconds { history = try HistoryStore(path: file).insights(for: tonight) }
    let recordTime = try seconds { try HistoryStore(path: file).record(tonight) }
    let nightTime = insightTime + recordTime
    let share = nightTime / auditSeconds * 100
    print(String(format: "one night of %d domains: insights %.3f s + recording %.3f s = %.3f s, %.1f %% of an audit of %.2f s",
                 domainCount, insightTime, recordTime, nightTime, share, auditSeconds))
    if let history {
        print("  (\(history.failingSince.count) failing, \(history.fixed.count) fixed, \(history.flapping.count) flapping, "
              + "\(history.expiringCertificates.count) certificates expiring, trend of \(history.trend.count) runs)")
    }

    var timelineRuns = 0
    var worst = 0.0
    for name in ["d0.example", "d1234.example", "d\(domainCount - 1).example"] {
        let time = try seconds {
            let timeline = try HistoryStore(path: file).timeline(of: name)
            timelineRuns = timeline.runs.count
        }
        worst = max(worst, time)
        print(String(format: "timeline of %@: %d runs in %.3f s", name, timelineRuns, time))
    }
    let attributes = try FileManager.default.attributesOfItem(atPath: file)
    let size = (attributes[.size] as? NSNumber)?.doubleValue ?? 0
    print(String(format: "file: %.0f MB", size / 1_048_576))
    if share >= 5 || worst >= 1 {
        print("FAIL: the night's history work must stay under 5 % of the audit, a timeline under a second")
        exit(1)
    }
} catch {
    FileHandle.standardError.write(Data("aasa-history-bench: \(error)\n".utf8))
    exit(2)
}
