import Audit

// The apps named with --entitlements, in report.md.
extension MarkdownReporter {
    /// With --entitlements and --apk: the link hosts one platform's apps claim and the other's do not.
    static func appLinkHosts(_ comparison: AppLinkHostComparison, to out: inout String) {
        out += "\n## Link hosts of the iOS and Android apps\n\n\(MarkdownEscaping.escape(comparison.summary))\n"
        guard !comparison.agrees else { return }
        out += "\n| Claimed by the iOS apps only | Claimed by the Android apps only |\n|---|---|\n"
        for row in 0..<max(comparison.appleOnly.count, comparison.androidOnly.count) {
            let apple = row < comparison.appleOnly.count ? MarkdownEscaping.code(comparison.appleOnly[row]) : ""
            let android = row < comparison.androidOnly.count ? MarkdownEscaping.code(comparison.androidOnly[row]) : ""
            out += "| \(apple) | \(android) |\n"
        }
    }

    static func apps(_ apps: [AppResult], to out: inout String) {
        out += "\n## Apps\n\n"
        out += "Each app's Associated Domains entitlement lists the domains it claims; an entry works only when the file "
        out += "Apple reads for it lists the app for that service.\n"
        for app in apps {
            out += "\n### \(MarkdownEscaping.code(app.appID)): \(app.works ? "✔ works" : "✖ fails")\n\n"
            out += "Read from \(MarkdownEscaping.code(app.source)) (\(MarkdownEscaping.escape(app.kind))); app ID from "
            out += "\(MarkdownEscaping.escape(app.appIDSource)). \(MarkdownEscaping.escape(AppPhrases.summary(app)))\n"
            for finding in app.findings {
                out += "\n- **\(finding.severity.rawValue)** \(MarkdownEscaping.code(finding.id)) \(MarkdownEscaping.escape(finding.message))"
                if let fix = finding.fix { out += " Fix: \(MarkdownEscaping.escape(fix))" }
                out += "\n"
            }
            guard !app.entries.isEmpty else { continue }
            out += "\n| Entry | File read | Works | Why |\n|---|---|---|---|\n"
            for entry in app.entries {
                out += "| \(MarkdownEscaping.code(entry.entry)) | \(MarkdownEscaping.escape(entry.fileHost))"
                if let location = entry.location { out += " \(MarkdownEscaping.code(location))" }
                out += " | \(entry.works ? "✔" : "✖") | \(MarkdownEscaping.escape(entry.resolution)). \(MarkdownEscaping.escape(entry.reason)) |\n"
            }
            if app.entries.contains(where: { $0.mode != nil }) { out += "\n\(MarkdownEscaping.escape(AppPhrases.modeNote))\n" }
        }
    }
}
