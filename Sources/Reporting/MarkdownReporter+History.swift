import Audit
import Foundation

// What the history adds, in report.md.
extension MarkdownReporter {
    static func history(_ history: ReportHistory, to out: inout String) {
        out += "\n## History\n\n\(HistoryPhrases.source(history))\n\n"
        let limit = maxChangesListed
        for streak in history.failingSince.prefix(limit) {
            out += "- **\(name(streak.domain, unicode: nil))**: \(HistoryPhrases.failing(streak))\n"
        }
        more(history.failingSince.count, shown: limit, "failing domain", to: &out)
        for domain in history.fixed.prefix(limit) {
            out += "- **\(name(domain.domain, unicode: nil))**: \(HistoryPhrases.fixed(domain))\n"
        }
        more(history.fixed.count, shown: limit, "fixed domain", to: &out)
        for domain in history.flapping.prefix(limit) {
            out += "- **Flapping:** \(name(domain.domain, unicode: nil)): \(HistoryPhrases.flapping(domain))\n"
        }
        more(history.flapping.count, shown: limit, "flapping domain", to: &out)
        // Judged by the history (`ExpiringCertificate.expiry`): an expired one is never "expiring".
        for (title, list) in [("Certificates expired", history.expiredCertificates),
                              (HistoryPhrases.expiringTitle(history), history.soonExpiringCertificates)] where !list.isEmpty {
            out += "\n### \(title)\n\n"
            for certificate in list.prefix(limit) {
                out += "- \(name(certificate.domain, unicode: nil)): \(MarkdownEscaping.escape(HistoryPhrases.expiring(certificate)))\n"
            }
            more(list.count, shown: limit, "certificate", to: &out)
        }
        if let last = history.trend.last, history.trend.count > 1 {
            let first = history.trend[0]
            out += "\nTrend over the last \(Formatting.plural(history.trend.count, "run")) of the list: "
            out += "\(first.fail) fail, \(first.warn) warn, \(first.pass) pass on \(HistoryPhrases.moment(first.generatedAt)); "
            out += "\(last.fail) fail, \(last.warn) warn, \(last.pass) pass on \(HistoryPhrases.moment(last.generatedAt)).\n"
        }
    }
}
