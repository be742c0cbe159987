import AASA
import Audit

// The Android part of a domain's test suite: one test case per check of assetlinks.json, and one
// for the Android expectations. They count (fail the suite) like the location Apple uses.
extension JUnitReporter {
    static func androidCases(_ android: AndroidResult) -> [Case] {
        let location = android.location
        var byCheck = Array(repeating: [Finding](), count: locationChecks.count)
        var other: [Finding] = []
        for finding in location.findings {
            if let at = finding.check.flatMap({ locationChecks.firstIndex(of: $0) }) {
                byCheck[at].append(finding)
            } else {
                other.append(finding)
            }
        }
        var cases: [Case] = []
        for (at, check) in locationChecks.enumerated() {
            let needsResponse = ![NetworkCheck.id, CertificateCheck.id].contains(check)
            let skipped = needsResponse && location.httpStatus == nil && byCheck[at].isEmpty ? "no HTTP response" : nil
            cases.append(Case(name: "Android \(location.path): \(check)", findings: byCheck[at], skipped: skipped,
                              time: check == NetworkCheck.id ? location.timings.totalMs / 1000 : 0))
        }
        if !other.isEmpty { cases.append(Case(name: "Android \(location.path): other", findings: other)) }
        // The included lists' findings, then the expectations' (checked against the file and those lists).
        // Google's view (--google-dal) is a case of its own: it is about Google's cache, not the expectations.
        let included = android.findings.filter { $0.check == AssetLinksIncludeCheck.id }
        let google = android.findings.filter { $0.check == GoogleDALCheck.id }
        let expectations = android.findings.filter { $0.check != AssetLinksIncludeCheck.id && $0.check != GoogleDALCheck.id }
        if !included.isEmpty { cases.append(Case(name: "Android included lists", findings: included)) }
        if !expectations.isEmpty { cases.append(Case(name: "Android expectations", findings: expectations)) }
        if !google.isEmpty { cases.append(Case(name: "Android: Google's Digital Asset Links API", findings: google)) }
        return cases
    }
}
