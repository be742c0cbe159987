import Audit

/// The sentences the reporters share about the apps named with `--entitlements`.
enum AppPhrases {
    /// "1 entry", "3 entries".
    static func entries(_ count: Int) -> String { count == 1 ? "1 entry" : "\(count) entries" }

    /// "3 of 4 entries work; 1 entry could not be read; ..." for one app.
    static func summary(_ app: AppResult) -> String {
        var text = "\(app.entries.filter(\.works).count) of \(entries(app.entries.count)) work" + (app.entries.count == 1 ? "s" : "")
        if app.skippedEntries > 0 { text += "; \(entries(app.skippedEntries)) could not be read (see the input errors)" }
        if let missing = app.notAudited { text += "; \(entries(missing)) not checked (the run was stopped)" }
        if let development = development(app) { text += "; " + development }
        return text + "."
    }

    /// "1 entry only development devices use (…) not checked: …" for the entries a release audit set
    /// apart; nil when there are none.
    static func development(_ app: AppResult) -> String? {
        guard let development = app.developmentEntries, !development.isEmpty else { return nil }
        let them = development.count == 1 ? "it" : "them"
        return "\(entries(development.count)) only development devices use (\(development.joined(separator: ", "))) "
            + "not checked: release devices ignore \(them), and --include-development checks \(them)"
    }

    /// "1 app fails on an error of its own …" when apps have errors of their own (their provisioning
    /// profile), which fail the run though no domain does; nil when none has.
    static func failingOnTheirOwn(_ apps: [AppResult]) -> String? {
        let count = apps.filter { $0.findings.contains { $0.severity == .error } }.count
        guard count > 0 else { return nil }
        return count == 1 ? "1 app fails on an error of its own (its embedded provisioning profile), whatever its domains do."
            : "\(count) apps fail on errors of their own (their embedded provisioning profiles), whatever their domains do."
    }

    /// The note on `?mode=` entries.
    static let modeNote = "Entries with ?mode= work only on devices in developer mode (Associated Domains Development) or under MDM; "
        + "those devices fetch the file straight from the site, not from Apple's CDN."
}
