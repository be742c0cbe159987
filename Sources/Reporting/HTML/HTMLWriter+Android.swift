import AASA
import Audit
import Foundation

// A domain's Android part: assetlinks.json (checked like an Apple location) and the Android expectations.
extension HTMLWriter {
    mutating func androidSection(_ android: AndroidResult, of domain: DomainResult) {
        raw("<h3>Android App Links ")
        badge(android.verdict)
        raw("</h3>\n<p>")
        raw(androidVerdictMeaning(android.verdict))
        raw(" Android's verifier reads <code>")
        text(AssetLinksFile.path)
        raw("</code> on each host of the app's verified intent filters; it counts in this domain's verdict.</p>\n")
        // Causes first: what the server serves, then the expectations checked against it.
        raw("<div class=\"locations\">\n")
        locationBlock(android.location, of: domain, findings: android.location.findings, alsoShared: 0, sameBodyAs: nil)
        raw("</div>\n")
        // Google's view (--google-dal) comes last, under its own heading: it is about Google's cache.
        let own = android.findings.filter { $0.check != GoogleDALCheck.id }
        let google = android.findings.filter { $0.check == GoogleDALCheck.id }
        if !own.isEmpty {
            raw("<h4>Android expectations</h4>\n")
            findings(own)
        }
        if !google.isEmpty {
            raw("<h4>Google's Digital Asset Links API</h4>\n")
            findings(google)
        }
    }

    func androidVerdictMeaning(_ verdict: Verdict) -> String {
        switch verdict {
        case .pass: return "The file is served and read as Android's verifier requires, and the Android expectations hold."
        case .warn: return "Android can read the file, but something needs attention."
        case .fail: return "The file or an Android expectation is broken: Android App Links do not verify for the apps concerned on this domain."
        }
    }
}
