import Audit
import Foundation

// What the history adds, on the terminal: a few lines, names counted past `shownChanges`.
extension ConsoleSummary {
    static func history(_ history: ReportHistory) -> String {
        var out = ""
        func line<T>(_ title: String, _ list: [T], _ text: (T) -> String) {
            guard !list.isEmpty else { return }
            var names = list.prefix(shownChanges).map(text).joined(separator: ", ")
            if list.count > shownChanges { names += " and \(list.count - shownChanges) more" }
            out += wrap("\(title): \(TerminalText.sanitize(names))", indent: "", hanging: "  ")
        }
        line("Failing", history.failingSince) { "\($0.domain) since \(HistoryPhrases.day($0.since)) (\(Formatting.plural($0.runs, "run")))" }
        line("Fixed", history.fixed) { "\($0.domain) after \(Formatting.plural($0.afterRuns, "run"))" }
        line("Flapping", history.flapping) { "\($0.domain) (\($0.changes) changes in \($0.verdicts.count) runs)" }
        // Judged by the history (`ExpiringCertificate.expiry`): an expired one is never "expiring".
        line("Certificates expired", history.expiredCertificates) { "\($0.domain) \(HistoryPhrases.day($0.notAfter))" }
        line(HistoryPhrases.expiringTitle(history), history.soonExpiringCertificates) {
            "\($0.domain) \(HistoryPhrases.day($0.notAfter))"
        }
        return out
    }
}
