import Audit

// The apps named with --entitlements, on the console after the summary: one line per app, then one
// per entry that does not work.
extension ConsoleSummary {
    /// The lines for `apps` (empty when there are none), sanitised.
    public static func appLines(_ apps: [AppResult]) -> [String] {
        var lines: [String] = []
        for app in apps {
            lines.append(TerminalText.sanitize("App \(app.appID) (\(app.source)): \(AppPhrases.summary(app))"))
            for finding in app.findings { lines.append(TerminalText.sanitize("  \(finding.severity.rawValue) \(finding.id): \(finding.message)")) }
            for entry in app.entries where !entry.works {
                lines.append(TerminalText.sanitize("  \(entry.entry) (file of \(entry.fileHost)) \(entry.findingID): \(entry.reason)"))
            }
        }
        return lines
    }

    /// `--quiet`'s line for each app whose own findings fail the run (`ExitPolicy.failingApps`): the
    /// app and the first finding that fails it, so a run that exits 1 always says why.
    public static func quietAppLines(_ apps: [AppResult], policy: ExitPolicy, program: String) -> [String] {
        apps.compactMap { app in
            guard let finding = app.findings.first(where: { policy.fails($0.severity) }) else { return nil }
            return TerminalText.sanitize("\(program): FAIL app \(app.appID) (\(app.source)): \(finding.id): \(finding.message)")
        }
    }
}
