import Audit
import Foundation

// What the history adds: the trend chart, failing since, fixed, flapping, expiring certificates.
extension HTMLWriter {
    mutating func historySection(_ history: ReportHistory) {
        raw("<section class=\"box history\" id=\"history\">\n<h2>History</h2>\n<p class=\"meta\">")
        text(HistoryPhrases.source(history))
        raw("</p>\n")
        if history.trend.count > 1 { trendChart(history.trend) }
        let limit = HTMLReporter.maxChangesListed
        var linked = Set(history.failingSince.prefix(limit).map(\.domain))
        linked.formUnion(history.fixed.prefix(limit).map(\.domain))
        linked.formUnion(history.flapping.prefix(limit).map(\.domain))
        linked.formUnion(history.expiredCertificates.prefix(limit).map(\.domain))
        linked.formUnion(history.soonExpiringCertificates.prefix(limit).map(\.domain))
        let anchors = linkTargets(for: linked, unicode: true)
        if !history.failingSince.isEmpty || !history.fixed.isEmpty || !history.flapping.isEmpty {
            raw("<ul class=\"changes\">\n")
            // One list item per domain: its badge, its name linked to its section, what the history says.
            func items<Item>(_ list: [Item], badge: String, _ verdict: String, _ noun: String,
                             domain: (Item) -> String, phrase: (Item) -> String) {
                for item in list.prefix(limit) {
                    raw("<li><span class=\"badge \(verdict)\">\(badge)</span> ")
                    link(domain(item), unicode: nil, anchors: anchors)
                    raw(": ")
                    text(phrase(item))
                    raw("</li>\n")
                }
                more(list.count, noun)
            }
            items(history.failingSince, badge: "failing", "fail", "failing domain", domain: \.domain, phrase: HistoryPhrases.failing)
            items(history.fixed, badge: "fixed", "pass", "fixed domain", domain: \.domain, phrase: HistoryPhrases.fixed)
            items(history.flapping, badge: "flapping", "warn", "flapping domain", domain: \.domain, phrase: HistoryPhrases.flapping)
            raw("</ul>\n")
        }
        // Judged by the history (`ExpiringCertificate.expiry`): an expired one is never "expiring".
        for (title, list) in [("Certificates expired", history.expiredCertificates),
                              (HistoryPhrases.expiringTitle(history), history.soonExpiringCertificates)] where !list.isEmpty {
            raw("<h3>")
            text(title)
            raw("</h3>\n<table>\n")
            raw("<thead><tr><th>Domain</th><th>Expires</th><th>Days left</th><th>Issuer</th></tr></thead>\n<tbody>\n")
            for certificate in list.prefix(limit) {
                raw("<tr><td>")
                link(certificate.domain, unicode: nil, anchors: anchors)
                raw("</td><td>\(HistoryPhrases.day(certificate.notAfter))</td><td")
                raw(certificate.expiry == .expired ? " class=\"bad\">" : ">")
                text(Formatting.daysLeftText(certificate.daysLeft))
                raw("</td><td>")
                text(certificate.issuer ?? "")
                raw("</td></tr>\n")
            }
            raw("</tbody>\n</table>\n")
            if list.count > limit {
                raw("<p>… and \(Formatting.plural(list.count - limit, "more certificate"))</p>\n")
            }
        }
        raw("</section>\n")
    }

    /// Stacked bars, fail at the bottom, then warn, then pass, one per run of the list, oldest left.
    /// Drawn inline with its own colours and a hatch for warn, so it reads in print and in grey too.
    mutating func trendChart(_ trend: [RunTally]) {
        let width = 640.0, height = 220.0, left = 44.0, right = 8.0, top = 12.0, bottom = 52.0
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        let highest = max(trend.map { $0.pass.addingClamped($0.warn).addingClamped($0.fail) }.max() ?? 1, 1)
        let slot = plotWidth / Double(trend.count)
        let bar = max(slot * 0.7, 2)
        func y(_ count: Int) -> Double { top + plotHeight - plotHeight * Double(count) / Double(highest) }
        func n(_ value: Double) -> String { String(format: "%.1f", value) }
        guard let first = trend.first, let last = trend.last else { return }
        let label = "Pass, warn and fail per run over the last \(trend.count) runs of the domain list, from "
            + "\(HistoryPhrases.moment(first.generatedAt)) to \(HistoryPhrases.moment(last.generatedAt)); "
            + "last run: \(last.fail) fail, \(last.warn) warn, \(last.pass) pass."
        raw("<figure class=\"trend\">\n<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" ")
        raw("width=\"100%\" style=\"max-width:\(Int(width))px\" role=\"img\" aria-label=\"")
        text(label)
        raw("\" font-family=\"sans-serif\" font-size=\"11\">\n<title>")
        text(label)
        raw("</title>\n<defs><pattern id=\"trend-warn\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">")
        raw("<rect width=\"6\" height=\"6\" fill=\"#f2c14e\"/><rect width=\"2\" height=\"6\" fill=\"#8a6d00\"/></pattern></defs>\n")
        // Axis and the gridline of the highest count.
        raw("<line x1=\"\(n(left))\" y1=\"\(n(top))\" x2=\"\(n(left))\" y2=\"\(n(top + plotHeight))\" stroke=\"#555\"/>\n")
        raw("<line x1=\"\(n(left))\" y1=\"\(n(top + plotHeight))\" x2=\"\(n(width - right))\" y2=\"\(n(top + plotHeight))\" stroke=\"#555\"/>\n")
        raw("<line x1=\"\(n(left))\" y1=\"\(n(top))\" x2=\"\(n(width - right))\" y2=\"\(n(top))\" stroke=\"#ccc\" stroke-dasharray=\"3 3\"/>\n")
        raw("<text x=\"\(n(left - 4))\" y=\"\(n(top + 4))\" text-anchor=\"end\" fill=\"#222\">\(highest)</text>\n")
        raw("<text x=\"\(n(left - 4))\" y=\"\(n(top + plotHeight + 4))\" text-anchor=\"end\" fill=\"#222\">0</text>\n")
        for (index, run) in trend.enumerated() {
            let x = left + slot * Double(index) + (slot - bar) / 2
            raw("<g\(run.complete ? "" : " opacity=\"0.55\"")><title>\(HistoryPhrases.day(run.generatedAt)) \(String(Formatting.utc(run.generatedAt).dropFirst(11).prefix(5))) UTC: ")
            raw("\(run.fail) fail, \(run.warn) warn, \(run.pass) pass\(run.complete ? "" : " (interrupted)")</title>")
            var base = 0
            for (count, fill) in [(run.fail, "#b3261e"), (run.warn, "url(#trend-warn)"), (run.pass, "#7cc47f")] where count > 0 {
                let upper = y(base.addingClamped(count)), lower = y(base)
                raw("<rect x=\"\(n(x))\" y=\"\(n(upper))\" width=\"\(n(bar))\" height=\"\(n(max(lower - upper, 0.5)))\" fill=\"\(fill)\" stroke=\"#333\" stroke-width=\"0.4\"/>")
                base = base.addingClamped(count)
            }
            raw("</g>\n")
        }
        raw("<text x=\"\(n(left))\" y=\"\(n(top + plotHeight + 16))\" fill=\"#222\">\(HistoryPhrases.day(first.generatedAt))</text>\n")
        raw("<text x=\"\(n(width - right))\" y=\"\(n(top + plotHeight + 16))\" text-anchor=\"end\" fill=\"#222\">\(HistoryPhrases.day(last.generatedAt))</text>\n")
        // Legend.
        let legendY = height - 14
        for (index, (name, fill)) in [("fail", "#b3261e"), ("warn", "url(#trend-warn)"), ("pass", "#7cc47f")].enumerated() {
            let x = left + Double(index) * 80
            raw("<rect x=\"\(n(x))\" y=\"\(n(legendY - 9))\" width=\"12\" height=\"12\" fill=\"\(fill)\" stroke=\"#333\" stroke-width=\"0.4\"/>")
            raw("<text x=\"\(n(x + 17))\" y=\"\(n(legendY + 1))\" fill=\"#222\">\(name)</text>\n")
        }
        raw("</svg>\n<figcaption class=\"meta\">")
        text(label)
        raw("</figcaption>\n</figure>\n")
    }
}
