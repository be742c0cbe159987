/// App IDs wherever they appear: `<Team ID>.<bundle ID>` (AASA-ID-001), and each app in one details
/// entry only (AASA-ID-002). Types are the shape checks' business; only strings are read here.
public enum AppIDCheck: SchemaCheck {
    public static let format = Rule("schema.app-id-format", .error,
        meaning: "An app ID is not <10-character Team ID>.<bundle ID>; it matches no real app, so that app gets nothing from this file.",
        fix: "Use the app's application-identifier: its 10-character Team ID (upper case, from the developer account), a dot, and the bundle ID.")
    public static let duplicate = Rule("schema.duplicate-app-id", .warning,
        meaning: "The same app ID appears in more than one details entry; Apple documents only that entries are read in order, so the first entry takes precedence.",
        fix: "Merge the entries for this app ID into one, with its patterns in the order they should be tried.")

    public static let storeIDPrefix = Rule("schema.app-id-store-id", .error,
        meaning: "An app ID's prefix is ten digits, the form of an App Store ID (the number in the app's apps.apple.com address), not of a Team ID; the device compares the app ID with the app's application-identifier, which begins with its Team ID, so the app gets nothing from this file: its links do not open it.",
        fix: "Replace the digits with the app's Team ID (developer account › Membership, or the prefix of the app's application-identifier entitlement), keeping the bundle ID.")

    public static let placeholder = Rule("schema.app-id-placeholder", .warning,
        meaning: "An app ID is a documentation or template example, not an app's. Its Team ID is ABCDE12345, the Team ID of the examples in Apple's \"Supporting associated domains\" (developer.apple.com/documentation/xcode/supporting-associated-domains: ABCDE12345.com.example.app) and the applinks reference (developer.apple.com/documentation/bundleresources/applinks), or ABCED12345, the Team ID of the App Clip in the same example file, or one character ten times (XXXXXXXXXX, 0000000000), the blank of templates: no team has such a Team ID, so no app has the app ID and the entry opens no app. Or its bundle ID is under com.example, the namespace of those examples and the default organisation of `flutter create` (docs.flutter.dev/reference/create-new-app): example.com is reserved for documentation (RFC 2606, www.iana.org/help/example-domains), so no organisation's bundle IDs are under it, and the entry is most likely the example left in. The file is valid; only the real app's ID makes it work for that app.",
        fix: "Replace the app ID with the app's application-identifier: its real Team ID (developer account › Membership) and bundle ID.")

    /// The Team IDs `placeholder` names besides one character ten times (`isRepeatedCharacter`): the
    /// Team ID of Apple's documentation examples and the App Clip's of its example file.
    public static let placeholderTeamIDs: [String: String] = [
        "ABCDE12345": "the example Team ID of Apple's documentation",
        "ABCED12345": "the Team ID of the App Clip in Apple's example file",
    ]

    /// The bundle ID namespace `placeholder` names: documentation's (example.com is reserved, RFC 2606).
    public static let placeholderBundleNamespace = "com.example"

    public static let rules = [format, storeIDPrefix, placeholder, duplicate]

    /// One app ID string and where it is.
    struct Occurrence {
        var appID: String
        var pointer: String
    }

    public static func findings(in document: AASADocument) -> [Finding] {
        var findings: [Finding] = []
        for occurrence in appIDs(in: document) {
            let problems = formatProblems(occurrence.appID)
            // Before the App Store ID check: 0000000000 is a template's blank, not an App Store ID.
            if problems.isEmpty, let finding = placeholderFinding(occurrence) {
                findings.append(finding)
                continue
            }
            if problems.isEmpty, let storeID = appStoreIDPrefix(of: occurrence.appID) {
                findings.append(storeIDFinding(occurrence, storeID: storeID))
                continue
            }
            guard !problems.isEmpty else { continue }
            findings.append(format.finding(
                "App ID \(occurrence.appID.jsonQuoted) is not <Team ID>.<bundle ID>: " + problems.joined(separator: "; ")
                    + ". \(consequence(of: occurrence))",
                pointer: occurrence.pointer))
        }
        findings += duplicateFindings(in: document)
        return findings
    }

    /// The prefix of `appID` when it is ten digits, the form of an App Store ID: `1593741764` in
    /// `1593741764.com.yourcompany.app`. Apple documents a Team ID only as ten letters and digits, so such a
    /// prefix is not malformed, but it is what a page's App Store link gives, and each one in the real corpus
    /// is the app's App Store ID (DaKanji: App Store ID 1593741764, Team ID SQ93NR4ZDX).
    public static func appStoreIDPrefix(of appID: String) -> String? {
        guard let (team, _) = teamAndBundle(appID), team.unicodeScalars.allSatisfy(isDigit) else { return nil }
        return String(team)
    }

    /// The Team ID of `appID` when it is a placeholder: one of `placeholderTeamIDs`, or one character
    /// ten times (XXXXXXXXXX), which no team is given.
    public static func placeholderTeamID(of appID: String) -> String? {
        guard let (team, _) = teamAndBundle(appID) else { return nil }
        let text = String(team)
        return placeholderTeamIDs[text] != nil || isRepeatedCharacter(team.unicodeScalars) ? text : nil
    }

    /// The bundle ID of `appID` when it is `com.example` or under it (any case: bundle IDs are
    /// registered case-insensitively), the namespace of documentation examples.
    public static func placeholderBundleID(of appID: String) -> String? {
        guard let (_, bundle) = teamAndBundle(appID) else { return nil }
        let lowered = bundle.lowercased()
        return lowered == placeholderBundleNamespace || lowered.hasPrefix(placeholderBundleNamespace + ".") ? String(bundle) : nil
    }

    /// The ten scalars before a dot at the eleventh and what follows it (not empty): where a Team ID
    /// and a bundle ID would be. Read in place: every app ID of every file goes through it three times.
    static func teamAndBundle(_ appID: String) -> (team: Substring, bundle: Substring)? {
        let scalars = appID.unicodeScalars
        var dot = scalars.startIndex
        for _ in 0..<10 {
            guard dot != scalars.endIndex else { return nil }
            dot = scalars.index(after: dot)
        }
        guard dot != scalars.endIndex, scalars[dot] == ".", scalars.index(after: dot) != scalars.endIndex else { return nil }
        return (Substring(scalars[..<dot]), Substring(scalars[scalars.index(after: dot)...]))
    }

    /// True when every character of `team` is the same one.
    static func isRepeatedCharacter(_ team: Substring.UnicodeScalarView) -> Bool {
        guard let first = team.first else { return false }
        return team.allSatisfy { $0 == first }
    }

    /// The placeholder warning of a well-formed app ID: its Team ID first (no app has it at all),
    /// else its bundle ID under com.example.
    private static func placeholderFinding(_ occurrence: Occurrence) -> Finding? {
        let appID = occurrence.appID
        if let team = placeholderTeamID(of: appID) {
            let what = placeholderTeamIDs[team] ?? "one character ten times, a template's blank"
            return placeholder.finding(
                "App ID \(appID.jsonQuoted) has the Team ID \(team), a placeholder (\(what)), not a team's; no real app has this app ID, so its entry opens no app.",
                fix: "Put the app's real Team ID in place of \(team) (developer account › Membership, or the prefix of its application-identifier entitlement)"
                    + (placeholderBundleID(of: appID).map { ", and its real bundle ID in place of \($0)" } ?? "") + ".",
                pointer: occurrence.pointer)
        }
        if let bundle = placeholderBundleID(of: appID) {
            return placeholder.finding(
                "App ID \(appID.jsonQuoted) has the bundle ID \(bundle), under com.example: the namespace of documentation examples and templates (example.com is reserved for documentation), not an organisation's. It is most likely the example left in; the entry opens only an app with exactly this bundle ID.",
                fix: "Put the app's real bundle ID (its PRODUCT_BUNDLE_IDENTIFIER) in place of \(bundle).",
                pointer: occurrence.pointer)
        }
        return nil
    }

    /// Why no app can have `appID`, in words for a finding or a match result, when the check knows it
    /// for certain enough to call it an error that the matcher honours: an App Store ID prefix, or a
    /// shape no application-identifier has (`hasNoTeamIDShape`; `schema.app-id-format` says no app has
    /// it, so `match` must not say a URL opens it).
    public static func unusableReason(_ appID: String) -> String? {
        if let storeID = appStoreIDPrefix(of: appID) {
            return "its prefix \(storeID) is an App Store ID, not a Team ID, so no app has the app ID \(appID.jsonQuoted)"
        }
        if hasNoTeamIDShape(appID) {
            return "\(appID.jsonQuoted) is not <Team ID>.<bundle ID> (no 10-character Team ID and a dot before a bundle ID), so no app has this app ID"
        }
        return nil
    }

    /// The id of the rule whose finding says why no app can have `appID`, when `unusableReason` gives one.
    public static func unusableRuleID(_ appID: String) -> String? {
        if appStoreIDPrefix(of: appID) != nil { return storeIDPrefix.id }
        return hasNoTeamIDShape(appID) ? format.id : nil
    }

    /// True when no app's application-identifier can equal `appID`: that is always a 10-character Team
    /// ID (which has no dot), a dot, and a non-empty bundle ID, so an app ID whose first dot is not its
    /// eleventh character, or with nothing after it, names no app (`com.partner.app2`, `ABC.com.x`).
    /// Lesser defects (a lower-case Team ID, whitespace) are errors too but are not assumed here.
    static func hasNoTeamIDShape(_ appID: String) -> Bool {
        let scalars = Array(appID.unicodeScalars)
        guard let dot = scalars.firstIndex(of: ".") else { return true }
        return dot != 10 || dot + 1 == scalars.count
    }

    /// What an app ID no app can have breaks, by where it is: the rest of the file still works.
    private static func consequence(of occurrence: Occurrence) -> String {
        if occurrence.pointer.hasPrefix("/applinks/") {
            return "No app has this app ID, so links for it do not work; the file's other app IDs are not affected by this one."
        }
        if occurrence.pointer.hasPrefix("/webcredentials/") {
            return "No app has this app ID, so no app gets shared passwords through it; the file's other app IDs are not affected by this one."
        }
        return "No app has this app ID, so it gets nothing from this service; the file's other app IDs are not affected by this one."
    }

    private static func storeIDFinding(_ occurrence: Occurrence, storeID: String) -> Finding {
        let bundle = String(occurrence.appID.dropFirst(11))
        let consequence: String
        if occurrence.pointer.hasPrefix("/applinks/") {
            consequence = "links for \(bundle) do not open it"
        } else if occurrence.pointer.hasPrefix("/webcredentials/") {
            consequence = "\(bundle) gets no shared passwords from this domain"
        } else {
            consequence = "\(bundle) gets nothing from this service"
        }
        return storeIDPrefix.finding(
            "App ID \(occurrence.appID.jsonQuoted) starts with \(storeID), ten digits: the form of an App Store ID (apps.apple.com/app/id\(storeID)), not of a Team ID. The device compares the app ID with the app's application-identifier, <Team ID>.<bundle ID>, so \(consequence).",
            fix: "Replace \(storeID) with the app's Team ID (developer account › Membership, or the prefix of its application-identifier entitlement): \"<TeamID>.\(bundle)\".",
            pointer: occurrence.pointer)
    }

    /// Every app ID string: details `appID`/`appIDs`, dictionary-form keys, and the app lists of the other services.
    static func appIDs(in document: AASADocument) -> [Occurrence] {
        var result: [Occurrence] = []
        for entry in document.detailsEntries {
            if let key = entry.dictionaryKey {
                result.append(Occurrence(appID: key, pointer: entry.pointer))
            } else if let object = entry.object {
                result += entryAppIDs(object, pointer: entry.pointer)
            }
        }
        for service in AppListCheck.services {
            guard let apps = document.root[service]?.objectValue?["apps"]?.arrayValue else { continue }
            let base = JSONPointer.appending(JSONPointer.appending("", service), "apps")
            for (index, app) in apps.enumerated() {
                if let appID = app.stringValue {
                    result.append(Occurrence(appID: appID, pointer: JSONPointer.appending(base, index)))
                }
            }
        }
        return result
    }

    /// The app ID strings of one array-form details entry, `appID` first.
    static func entryAppIDs(_ object: JSONObject, pointer: String) -> [Occurrence] {
        var result: [Occurrence] = []
        if let appID = object["appID"]?.stringValue {
            result.append(Occurrence(appID: appID, pointer: JSONPointer.appending(pointer, "appID")))
        }
        if let appIDs = object["appIDs"]?.arrayValue {
            let base = JSONPointer.appending(pointer, "appIDs")
            for (index, value) in appIDs.enumerated() {
                if let appID = value.stringValue {
                    result.append(Occurrence(appID: appID, pointer: JSONPointer.appending(base, index)))
                }
            }
        }
        return result
    }

    /// What is wrong with `appID`, specifically; empty when it matches `^[A-Z0-9]{10}\.[A-Za-z0-9.-]+$`.
    static func formatProblems(_ appID: String) -> [String] {
        let scalars = Array(appID.unicodeScalars)
        if let dot = scalars.firstIndex(of: "."), dot == 10,
           scalars[..<dot].allSatisfy({ isUpper($0) || isDigit($0) }),
           dot + 1 < scalars.count, scalars[(dot + 1)...].allSatisfy(isBundleCharacter) {
            return []
        }
        var problems: [String] = []
        let trimmed = String(String.UnicodeScalarView(scalars.drop(while: isSpace).reversed().drop(while: isSpace).reversed()))
        if trimmed.unicodeScalars.count != scalars.count {
            problems.append("it has leading or trailing whitespace")
        }
        if trimmed.unicodeScalars.contains(where: isSpace) {
            problems.append("it contains whitespace")
        }
        if trimmed.isEmpty { return problems.isEmpty ? ["it is empty"] : problems }
        if trimmed.contains("$(") || trimmed.contains("<") {
            problems.append("it looks like an unfilled placeholder or build variable")
        }
        guard let dot = trimmed.firstIndex(of: ".") else {
            let isTeamID = trimmed.count == 10 && trimmed.unicodeScalars.allSatisfy { isUpper($0) || isDigit($0) }
            problems.append(isTeamID
                ? "there is no dot and no bundle ID; \(trimmed.jsonQuoted) alone looks like a Team ID"
                : "there is no dot separating a Team ID from a bundle ID")
            return problems
        }
        let prefix = String(trimmed[..<dot])
        let bundle = String(trimmed[trimmed.index(after: dot)...])
        let prefixScalars = prefix.unicodeScalars
        if prefixScalars.count != 10 {
            var problem = "the prefix \(prefix.jsonQuoted) has \(prefixScalars.count) character\(prefixScalars.count == 1 ? "" : "s"), but a Team ID has 10"
            if !prefix.isEmpty && prefixScalars.allSatisfy(isLower) {
                problem += " (it looks like a bundle ID with the Team ID missing in front)"
            } else if prefixScalars.count >= 6 && prefixScalars.allSatisfy(isDigit) {
                problem += " (all digits: it looks like an App Store ID, not a Team ID)"
            }
            problems.append(problem)
        }
        // A lower-case word of another length is a bundle ID component, said above; otherwise case is its own problem.
        if prefixScalars.contains(where: isLower) && !(prefixScalars.count != 10 && prefixScalars.allSatisfy(isLower)) {
            problems.append("the prefix \(prefix.jsonQuoted) has lower-case letters, but Team IDs are upper case")
        }
        let badPrefix = invalidCharacters(in: prefix) { isUpper($0) || isLower($0) || isDigit($0) }
        if !badPrefix.isEmpty {
            problems.append("the prefix \(prefix.jsonQuoted) contains \(badPrefix), but a Team ID has only A–Z and 0–9")
        }
        if bundle.isEmpty {
            problems.append("nothing follows the dot, so the bundle ID is missing")
        } else {
            let badBundle = invalidCharacters(in: bundle, allowed: isBundleCharacter)
            if !badBundle.isEmpty {
                problems.append("the bundle ID \(bundle.jsonQuoted) contains \(badBundle), which a bundle ID may not (only letters A–Z and a–z, digits, hyphens and periods)")
            }
        }
        if problems.isEmpty { problems.append("it does not have the form <TeamID>.com.yourcompany.app") }
        return problems
    }

    /// The distinct characters of `text` that `allowed` rejects, quoted, whitespace left out (reported on its own).
    private static func invalidCharacters(in text: String, allowed: (Unicode.Scalar) -> Bool) -> String {
        var seen: [Unicode.Scalar] = []
        for scalar in text.unicodeScalars where !allowed(scalar) && !isSpace(scalar) && !seen.contains(scalar) {
            seen.append(scalar)
        }
        return seen.map { scalar -> String in
            // Invisible and non-ASCII characters are named by code point so the reader can find them.
            if scalar.value < 0x21 || scalar.value > 0x7E {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            }
            return "\"\(Character(scalar))\""
        }.joined(separator: ", ")
    }

    private static func isUpper(_ scalar: Unicode.Scalar) -> Bool { ("A"..."Z").contains(scalar) }
    private static func isLower(_ scalar: Unicode.Scalar) -> Bool { ("a"..."z").contains(scalar) }
    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.isWhitespace }
    private static func isBundleCharacter(_ scalar: Unicode.Scalar) -> Bool {
        isUpper(scalar) || isLower(scalar) || isDigit(scalar) || scalar == "-" || scalar == "."
    }

    /// The same app ID in a later array-form details entry; the dictionary form's keys are unique unless repeated
    /// in the JSON, which the JSON checks report.
    static func duplicateFindings(in document: AASADocument) -> [Finding] {
        var findings: [Finding] = []
        var firstSeen: [String: (pointer: String, format: String?)] = [:]
        for entry in document.detailsEntries where entry.dictionaryKey == nil {
            guard let object = entry.object else { continue }
            let occurrences = entryAppIDs(object, pointer: entry.pointer)
            let format = patternFormat(of: object)
            var reported: Set<String> = []
            for occurrence in occurrences {
                guard let earlier = firstSeen[occurrence.appID], reported.insert(occurrence.appID).inserted else { continue }
                var message = "App ID \(occurrence.appID.jsonQuoted) is also in an earlier details entry (at \(earlier.pointer)); entries are read in order, so the earlier entry's patterns take precedence for this app."
                // One entry per format is a common way to serve iOS 12 and iOS 13+; Apple documents no such arrangement.
                if let format, let earlierFormat = earlier.format, format != earlierFormat {
                    message += " The earlier entry uses only \"\(earlierFormat)\" and this one only \"\(format)\", a split some sites use to serve iOS 12 and iOS 13+ separately; Apple does not document it, so test it on both."
                }
                findings.append(duplicate.finding(
                    message,
                    fix: "Merge this entry's patterns for \(occurrence.appID.jsonQuoted) into the earlier entry, in the order they should be tried.",
                    pointer: occurrence.pointer))
            }
            for occurrence in occurrences where firstSeen[occurrence.appID] == nil {
                firstSeen[occurrence.appID] = (occurrence.pointer, format)
            }
        }
        return findings
    }

    /// "paths" or "components" when the entry uses exactly one of the two pattern formats.
    private static func patternFormat(of object: JSONObject) -> String? {
        switch (object["paths"] != nil, object["components"] != nil) {
        case (true, false): return "paths"
        case (false, true): return "components"
        default: return nil
        }
    }
}
