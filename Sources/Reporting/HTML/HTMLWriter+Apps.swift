import Audit
import Foundation

// The apps named with --entitlements: for each, its entries, the host whose file each needs, and
// whether the service works there, in words a non-engineer can follow.
extension HTMLWriter {
    mutating func appsSection(_ apps: [AppResult]) {
        raw("<section id=\"apps\">\n<h2>Apps</h2>\n")
        raw("<p>Each app's Associated Domains entitlement lists the domains it claims. An entry works only when the ")
        raw("file of the domain Apple reads for it lists the app for that service.</p>\n")
        let anchors = linkTargets(for: Set(apps.flatMap { $0.entries.map(\.fileHost) }))
        for app in apps {
            raw("<h3>")
            text(app.appID)
            raw(" ")
            badge(app.works ? .pass : .fail)
            raw("</h3>\n<p class=\"meta\">Entitlements read from <code>")
            text(app.source)
            raw("</code> (")
            text(app.kind)
            raw("); app ID from ")
            text(app.appIDSource)
            raw(".</p>\n")
            let working = app.entries.filter(\.works).count
            raw("<p>\(working) of \(AppPhrases.entries(app.entries.count)) work")
            if app.skippedEntries > 0 {
                raw("; \(AppPhrases.entries(app.skippedEntries)) could not be read (see the input errors above)")
            }
            if let missing = app.notAudited {
                raw("; \(AppPhrases.entries(missing)) not checked (the run was stopped)")
            }
            if let development = AppPhrases.development(app) {
                raw("; ")
                text(development)
            }
            raw(".</p>\n")
            if !app.findings.isEmpty { findings(app.findings) }
            guard !app.entries.isEmpty else { continue }
            raw("<div class=\"scroll\"><table>\n<thead><tr><th>Entry</th><th>File read</th><th>Works</th><th>Why</th></tr></thead>\n<tbody>\n")
            for entry in app.entries {
                raw("<tr><td><code>")
                text(entry.entry)
                raw("</code><br><span class=\"meta\">")
                text(entry.resolution)
                raw("</span></td><td>")
                if let anchor = anchors[entry.fileHost] { raw("<a href=\"#\(anchor)\">") }
                text(entry.fileHost)
                if anchors[entry.fileHost] != nil { raw("</a>") }
                if let location = entry.location {
                    raw("<br><code class=\"nowrap\">")
                    text(location)
                    raw("</code>")
                }
                raw("</td><td>")
                badge(entry.works ? .pass : .fail)
                raw("</td><td>")
                text(entry.reason)
                raw("</td></tr>\n")
            }
            raw("</tbody>\n</table></div>\n")
            if app.entries.contains(where: { $0.mode != nil }) {
                raw("<p class=\"meta\">Entries with <code>?mode=</code> work only on devices in developer mode (Associated Domains ")
                raw("Development) or under MDM; those devices fetch the file straight from the site, not from Apple's CDN.</p>\n")
            }
        }
        raw("</section>\n")
    }
}
