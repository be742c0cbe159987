import Audit

// With --entitlements and --apk: the link hosts one platform's apps claim and the other's do not.
extension HTMLWriter {
    mutating func appLinkHostsSection(_ comparison: AppLinkHostComparison) {
        raw("<section id=\"app-link-hosts\">\n<h2>Link hosts of the iOS and Android apps</h2>\n<p>")
        text(comparison.summary)
        raw("</p>\n")
        if !comparison.agrees {
            raw("<div class=\"scroll\"><table>\n<thead><tr><th>Claimed by the iOS apps only</th><th>Claimed by the Android apps only</th></tr></thead>\n<tbody>\n")
            for row in 0..<max(comparison.appleOnly.count, comparison.androidOnly.count) {
                raw("<tr><td>")
                if row < comparison.appleOnly.count { raw("<code>"); text(comparison.appleOnly[row]); raw("</code>") }
                raw("</td><td>")
                if row < comparison.androidOnly.count { raw("<code>"); text(comparison.androidOnly[row]); raw("</code>") }
                raw("</td></tr>\n")
            }
            raw("</tbody>\n</table></div>\n")
        }
        raw("</section>\n")
    }
}
