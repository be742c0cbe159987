import Audit

/// The sentences the reporters share about the apps named with `--entitlements`.
enum AppPhrases {
    /// "1 entry", "3 entries".
    static func entries(_ count: Int) -> String { count == 1 ? "1 entry" : "\(count) entries" }

    /// "3 of 4 entries work; 1 entry could not be read; ..." for one app.
    static func summary(_ app: AppResult) -> String {
        var text = "\(app.entries.filter(\.works).count) of \(entries(app.entries.count)) work"
        if app.skippedEntries > 0 { text += "; \(entries(app.skippedEntries)) could not be read (see the input errors)" }
        if let missing = app.notAudited { text += "; \(entries(missing)) not checked (the run was stopped)" }
        return text + "."
    }

    /// The note on `?mode=` entries.
    static let modeNote = "Entries with ?mode= work only on devices in developer mode (Associated Domains Development) or under MDM; "
        + "those devices fetch the file straight from the site, not from Apple's CDN."
}
