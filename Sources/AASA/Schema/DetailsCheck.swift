/// `applinks` and its `details` entries: shape, legacy and modern formats, value types (AASA-AL-001…006).
/// Inside `components`, `defaults` and `substitutionVariables` is the component checks' business.
public enum DetailsCheck: SchemaCheck {
    public static let detailsMissing = Rule("schema.details-missing", .error,
        meaning: "\"applinks\" has no \"details\", or \"details\" is neither an array nor an object, so no link opens the app.",
        fix: "Add \"details\": [{\"appIDs\": [\"<TeamID>.com.yourcompany.app\"], \"components\": [{\"/\": \"/*\"}]}] to applinks.")
    public static let detailsDictionary = Rule("schema.details-dictionary", .warning,
        meaning: "\"details\" is the oldest form, an object keyed by app ID; Apple documents only the array form today.",
        fix: "Rewrite \"details\" as an array of entries, each with \"appID\" (or \"appIDs\") and its patterns.")
    public static let legacyApps = Rule("schema.legacy-apps", .warning,
        meaning: "Legacy \"paths\" are used but \"applinks.apps\" is missing or not []; Apple's legacy format requires \"apps\": [].",
        fix: "Add \"apps\": [] to applinks (leave it empty), or move to \"components\" (iOS 13+).")
    public static let noAppID = Rule("schema.no-app-id", .error,
        meaning: "A details entry has neither \"appID\" nor \"appIDs\", or its \"appIDs\" is empty, so it matches no app.",
        fix: "Give the entry \"appIDs\": [\"<TeamID>.<bundle ID>\"].")
    public static let mixedFormats = Rule("schema.mixed-formats", .warning,
        meaning: "One details entry has both \"paths\" and \"components\"; iOS 13 and later ignore \"paths\" there, and Apple calls mixing the formats unpredictable.",
        fix: "Use \"components\" only, unless iOS 12 and older must be supported; then keep both lists describing the same URLs.")
    public static let componentsOnly = Rule("schema.components-only", .info,
        meaning: "Entries use only \"components\", which iOS 12 and older do not read; those links work on iOS 13 and later only.",
        fix: "Nothing, unless iOS 12 or older must be supported; then add equivalent legacy \"paths\".")
    public static let detailsEmpty = Rule("schema.details-empty", .warning,
        meaning: "\"applinks.details\" is an empty array: the file gives no app any link on this domain, so every URL stays in the browser.",
        fix: "If an app claims applinks for this domain, add its entry: \"details\": [{\"appIDs\": [\"<TeamID>.<bundle ID>\"], \"components\": [{\"/\": \"/*\"}]}]; otherwise remove \"applinks\".")
    public static let appIDAndAppIDs = Rule("schema.app-id-and-app-ids", .info,
        meaning: "A details entry has both \"appID\" and \"appIDs\", naming the same app: iOS 12 and earlier read only \"appID\" (with \"paths\"), iOS 13 and later read \"appIDs\"; a way to serve both.",
        fix: "Nothing, while both name the same app; drop \"appID\" (and \"paths\") once iOS 12 need not be supported.")
    public static let appIDNotInAppIDs = Rule("schema.app-id-not-in-app-ids", .warning,
        meaning: "A details entry has both \"appID\" and \"appIDs\", and \"appIDs\" does not list the \"appID\" app: iOS 12 and earlier read only \"appID\", iOS 13 and later \"appIDs\", so the entry sends links to different apps by iOS version (Apple does not document whether iOS 13 and later also read \"appID\").",
        fix: "List the \"appID\" app in \"appIDs\" as well, or correct whichever of the two is wrong.")
    public static let repeatedInAppIDs = Rule("schema.app-ids-repeat", .warning,
        meaning: "The same app ID appears twice in one \"appIDs\" array; the repeat adds nothing, and is often a copy where another app was meant.",
        fix: "Remove the repeat, or replace it with the app ID that was meant.")
    public static let appIDsWithPaths = Rule("schema.app-ids-with-paths", .warning,
        meaning: "A details entry names its apps only in \"appIDs\" (iOS 13 and later) but has legacy \"paths\"; iOS 12 and earlier, the systems that need \"paths\", read the app from \"appID\", so on them these paths open no app.",
        fix: "For iOS 12 and earlier, add \"appID\": \"<TeamID>.<bundle ID>\" (one app per entry); if they need not be supported, use \"components\" and drop \"paths\".")
    /// `schema.type` and `schema.unknown-key` are shared rules, declared once in `SchemaRules`.
    public static let rules = [detailsMissing, detailsEmpty, detailsDictionary, legacyApps, noAppID, appIDAndAppIDs, appIDNotInAppIDs,
                               repeatedInAppIDs, appIDsWithPaths, mixedFormats, componentsOnly]

    /// The keys Apple defines in `applinks`.
    static let applinksKeys = ["apps", "details", "defaults", "substitutionVariables"]
    /// The keys Apple defines in a details entry.
    static let entryKeys = ["appID", "appIDs", "paths", "components", "defaults"]

    public static func findings(in document: AASADocument) -> [Finding] {
        // A missing applinks, or one that is not an object, is ServiceKeysCheck's finding.
        guard let applinks = document.applinks else { return [] }
        var findings = applinksKeyFindings(applinks, root: document.root)
        findings += detailsShapeFindings(applinks)

        var firstPaths: String?
        var componentsOnlyEntries: [String] = []
        var entriesWithPatterns = 0
        for (index, entry) in document.detailsEntries.enumerated() {
            guard let object = entry.object else {
                findings.append(SchemaRules.type.finding(
                    "Details entry \(entry.dictionaryKey.map(\.jsonQuoted) ?? String(index)) is \(entry.value.typeWithArticle), not an object.",
                    fix: "Make each details entry an object: {\"appIDs\": [...], \"components\": [...]}.",
                    pointer: entry.pointer))
                continue
            }
            findings += entryFindings(object, entry: entry, root: document.root)
            let hasPaths = object["paths"] != nil
            let hasComponents = object["components"] != nil
            if hasPaths && firstPaths == nil { firstPaths = JSONPointer.appending(entry.pointer, "paths") }
            if hasPaths || hasComponents { entriesWithPatterns += 1 }
            if hasComponents && !hasPaths { componentsOnlyEntries.append(entry.pointer) }
        }

        findings += legacyAppsFindings(applinks, firstPaths: firstPaths)
        if let first = componentsOnlyEntries.first {
            let all = componentsOnlyEntries.count == entriesWithPatterns
            let which = all
                ? "Every details entry uses only \"components\""
                : "\(componentsOnlyEntries.count) of \(entriesWithPatterns) details entries \(Counted.verb(componentsOnlyEntries.count, "uses", "use")) only \"components\" (the first at \(first))"
            findings.append(componentsOnly.finding(
                "\(which); iOS 12 and older do not read \"components\" (one field report has iOS 12 rejecting such an entry), so these links work on iOS 13 and later only.",
                pointer: all ? "/applinks/details" : first))
        }
        return findings
    }

    /// Unknown keys in `applinks`, and the types of its known keys other than `details`.
    private static func applinksKeyFindings(_ applinks: JSONObject, root: JSONObject) -> [Finding] {
        var findings: [Finding] = []
        for key in applinks.uniqueKeys {
            let pointer = JSONPointer.appending("/applinks", key)
            guard let value = applinks[key] else { continue }
            switch key {
            case "details":
                continue
            case "apps":
                if value.arrayValue == nil {
                    findings.append(SchemaRules.type.finding(
                        "\"applinks.apps\" is \(value.typeWithArticle), not an array.",
                        fix: "Write \"apps\": [] (the legacy format requires it empty).",
                        pointer: pointer))
                }
            case "defaults", "substitutionVariables":
                if value.objectValue == nil {
                    findings.append(SchemaRules.type.finding(
                        "\"applinks.\(key)\" is \(value.typeWithArticle), not an object.",
                        fix: key == "defaults"
                            ? "Make \"defaults\" an object such as {\"caseSensitive\": false}."
                            : "Make \"substitutionVariables\" an object mapping names to arrays of strings, e.g. {\"food\": [\"burrito\", \"pizza\"]}.",
                        pointer: pointer))
                }
            default:
                let message: String
                let fix: String
                if let misplaced = SchemaRules.misplacedService(key, in: "\"applinks\"", atTopLevel: root[key] != nil) {
                    (message, fix) = misplaced
                } else if entryKeys.contains(key) {
                    message = "\"applinks\" has the key \(key.jsonQuoted), which belongs inside a details entry; Apple ignores it here."
                    fix = "Move \(key.jsonQuoted) into the details entry it belongs to."
                } else if let near = EditDistance.nearMiss(of: key, among: applinksKeys) {
                    message = "\"applinks\" has the key \(key.jsonQuoted), which Apple does not define; did you mean \(near.jsonQuoted)?"
                    fix = "Rename \(key.jsonQuoted) to \(near.jsonQuoted)."
                } else {
                    message = "\"applinks\" has the key \(key.jsonQuoted), which Apple does not define; it is ignored."
                    fix = "Remove \(key.jsonQuoted); applinks holds only apps, details, defaults and substitutionVariables."
                }
                findings.append((SchemaRules.unknownKey.finding(message, fix: fix, pointer: pointer)))
            }
        }
        return findings
    }

    /// `details` missing, of the wrong type, or in the oldest dictionary form.
    private static func detailsShapeFindings(_ applinks: JSONObject) -> [Finding] {
        let pointer = "/applinks/details"
        guard let details = applinks["details"] else {
            return [detailsMissing.finding(
                "\"applinks\" has no \"details\", so no link opens the app.", pointer: "/applinks")]
        }
        switch details {
        case .array(let items):
            guard items.isEmpty else { return [] }
            return [detailsEmpty.finding(
                "\"applinks.details\" is an empty array, so this file gives no app any link on this domain: every URL stays in the browser.",
                pointer: pointer)]
        case .object(let dictionary):
            let example = dictionary.keys.first.map { " (e.g. \($0.jsonQuoted))" } ?? ""
            return [detailsDictionary.finding(
                "\"applinks.details\" is an object keyed by app ID\(example), the oldest format; Apple documents only an array of entries.",
                fix: "Rewrite it as \"details\": [{\"appID\": \"<app ID>\", \"paths\": [...]}, ...], one entry per key.",
                pointer: pointer)]
        default:
            return [detailsMissing.finding(
                "\"applinks.details\" is \(details.typeWithArticle), not an array of entries.",
                fix: "Make \"details\" an array of entries: [{\"appIDs\": [\"<TeamID>.com.yourcompany.app\"], \"components\": [{\"/\": \"/*\"}]}].",
                pointer: pointer)]
        }
    }

    /// One details entry (an object): its keys, app IDs, `paths` type and format mixing.
    private static func entryFindings(_ object: JSONObject, entry: AASADocument.DetailsEntry, root: JSONObject) -> [Finding] {
        var findings: [Finding] = []
        var misspelledAppID: String?
        for key in object.uniqueKeys where !entryKeys.contains(key) {
            let pointer = JSONPointer.appending(entry.pointer, key)
            if let misplaced = SchemaRules.misplacedService(key, in: "a details entry", atTopLevel: root[key] != nil) {
                findings.append(SchemaRules.unknownKey.finding(misplaced.message.prefix(1).uppercased() + misplaced.message.dropFirst(),
                                                               fix: misplaced.fix, pointer: pointer))
            } else if let near = EditDistance.nearMiss(of: key, among: entryKeys) {
                if near == "appID" || near == "appIDs" { misspelledAppID = key }
                findings.append((SchemaRules.unknownKey.finding(
                    "Details entry key \(key.jsonQuoted) is not one Apple defines, so it is ignored; did you mean \(near.jsonQuoted)?",
                    fix: "Rename \(key.jsonQuoted) to \(near.jsonQuoted) (keys are case-sensitive).",
                    pointer: pointer)))
            } else {
                findings.append((SchemaRules.unknownKey.finding(
                    "Details entry key \(key.jsonQuoted) is not one Apple defines; it is ignored.",
                    fix: "Remove \(key.jsonQuoted); an entry holds appID or appIDs, components, paths and defaults.",
                    pointer: pointer)))
            }
        }

        // In the dictionary form the key is the app ID, so appID and appIDs are not needed.
        let appID = object["appID"]
        let appIDs = object["appIDs"]
        if entry.dictionaryKey == nil && appID == nil && appIDs == nil {
            let because = misspelledAppID.map { " (\($0.jsonQuoted) is not \"appID\" or \"appIDs\": keys are case-sensitive)" } ?? ""
            findings.append(noAppID.finding(
                "Details entry has neither \"appID\" nor \"appIDs\"\(because), so it matches no app.",
                fix: misspelledAppID.map { "Rename \($0.jsonQuoted) to \"appIDs\" with an array value, or to \"appID\" with a string." }
                    ?? "Add \"appIDs\": [\"<TeamID>.<bundle ID>\"] to the entry.",
                pointer: entry.pointer))
        }
        if let appID, appID.stringValue == nil {
            let fix = appID.arrayValue.map { _ in "Rename \"appID\" to \"appIDs\" to list several app IDs, or give \"appID\" one string." }
                ?? "Make \"appID\" one app ID string such as \"<TeamID>.com.yourcompany.app\"."
            findings.append(SchemaRules.type.finding(
                "\"appID\" is \(appID.typeWithArticle), not a string.", fix: fix,
                pointer: JSONPointer.appending(entry.pointer, "appID")))
        }
        if let appIDs {
            let pointer = JSONPointer.appending(entry.pointer, "appIDs")
            if let elements = appIDs.arrayValue {
                if elements.isEmpty {
                    let also = appID?.stringValue.map { " Apple does not document which of \"appID\" (\($0.jsonQuoted)) and \"appIDs\" wins, so the entry may match no app." }
                        ?? " The entry matches no app."
                    findings.append(noAppID.finding(
                        "\"appIDs\" is an empty array.\(also)",
                        fix: "List the app IDs: \"appIDs\": [\"<TeamID>.<bundle ID>\"], or remove the entry.",
                        pointer: pointer))
                }
                findings += stringElementFindings(elements, key: "appIDs", pointer: pointer)
            } else {
                let fix = appIDs.stringValue.map { "Wrap the app ID in an array: \"appIDs\": [\($0.jsonQuoted)]." }
                    ?? "Make \"appIDs\" an array of app ID strings."
                findings.append(SchemaRules.type.finding(
                    "\"appIDs\" is \(appIDs.typeWithArticle), not an array of strings.", fix: fix, pointer: pointer))
            }
        }

        findings += appIDKeyFindings(object, entry: entry)

        if let paths = object["paths"] {
            let pointer = JSONPointer.appending(entry.pointer, "paths")
            if let elements = paths.arrayValue {
                findings += stringElementFindings(elements, key: "paths", pointer: pointer)
            } else {
                findings.append(SchemaRules.type.finding(
                    "\"paths\" is \(paths.typeWithArticle), not an array of strings.",
                    fix: paths.stringValue.map { "Wrap the pattern in an array: \"paths\": [\($0.jsonQuoted)]." }
                        ?? "Make \"paths\" an array of pattern strings such as [\"/products/*\"].",
                    pointer: pointer))
            }
            if object["components"] != nil {
                findings.append(mixedFormats.finding(
                    "This entry has both \"paths\" and \"components\"; iOS 13 and later ignore its \"paths\", iOS 12 and older its \"components\", and Apple calls mixing them unpredictable.",
                    pointer: pointer))
            }
        }
        return findings
    }

    /// Which of `appID` and `appIDs` each iOS version reads: iOS 12 and earlier know only `appID` (with
    /// `paths`; Apple's archived guide), iOS 13 and later `appIDs` (with `components`; applinks.Details,
    /// WWDC19). Reports both keys in one entry, repeats within `appIDs`, and `appIDs` beside legacy `paths`.
    private static func appIDKeyFindings(_ object: JSONObject, entry: AASADocument.DetailsEntry) -> [Finding] {
        guard entry.dictionaryKey == nil, let list = object["appIDs"]?.arrayValue else { return [] }
        var findings: [Finding] = []
        let listPointer = JSONPointer.appending(entry.pointer, "appIDs")
        let ids = list.compactMap(\.stringValue)
        var seen: [String: Int] = [:]
        for (index, value) in list.enumerated() {
            guard let id = value.stringValue else { continue }
            if let first = seen[id] {
                findings.append(repeatedInAppIDs.finding(
                    "\(id.jsonQuoted) is listed again in \"appIDs\" (first as item \(first)); the repeat adds nothing.",
                    fix: "Remove item \(index), or replace it with the app ID that was meant.",
                    pointer: JSONPointer.appending(listPointer, index)))
            } else {
                seen[id] = index
            }
        }
        let single = object["appID"]?.stringValue
        if let single, !ids.isEmpty {
            let pointer = JSONPointer.appending(entry.pointer, "appID")
            if ids.contains(single) {
                findings.append(appIDAndAppIDs.finding(
                    "This entry has \"appID\" \(single.jsonQuoted) and \"appIDs\", which lists it too: iOS 12 and earlier read only \"appID\" (with \"paths\"), iOS 13 and later read \"appIDs\", so every version sees \(single.jsonQuoted).",
                    pointer: pointer))
            } else {
                let listed = ids.map(\.jsonQuoted).joined(separator: ", ")
                findings.append(appIDNotInAppIDs.finding(
                    "This entry has \"appID\" \(single.jsonQuoted), which its \"appIDs\" (\(listed)) does not list: iOS 12 and earlier read only \"appID\", so their links go to \(single.jsonQuoted); iOS 13 and later read \"appIDs\", so theirs go to \(listed) (Apple does not document whether they also read \"appID\").",
                    fix: "Add \(single.jsonQuoted) to \"appIDs\", or correct \"appID\" to the app it was meant to be.",
                    pointer: pointer))
            }
        }
        if single == nil, !ids.isEmpty, object["paths"]?.arrayValue != nil {
            let pointer = JSONPointer.appending(entry.pointer, "paths")
            let message = object["components"] != nil
                ? "This entry names its apps only in \"appIDs\" and has both \"components\" and legacy \"paths\": iOS 13 and later use \"components\" and ignore \"paths\", and iOS 12 and earlier, which read \"paths\", look for the app in \"appID\", which this entry lacks; so these \"paths\" apply on no system."
                : "This entry names its apps only in \"appIDs\" but matches with legacy \"paths\": iOS 13 and later read both, but iOS 12 and earlier, which need \"paths\", look for the app in \"appID\", which this entry lacks; so on iOS 12 and earlier these links open no app."
            findings.append(appIDsWithPaths.finding(message, pointer: pointer))
        }
        return findings
    }

    /// `schema.type` for each element of `key`'s array that is not a string.
    private static func stringElementFindings(_ elements: [JSONValue], key: String, pointer: String) -> [Finding] {
        elements.enumerated().compactMap { index, element in
            guard element.stringValue == nil else { return nil }
            return SchemaRules.type.finding(
                "Item \(index) of \(key.jsonQuoted) is \(element.typeWithArticle), not a string.",
                fix: "Make every item of \(key.jsonQuoted) a string.",
                pointer: JSONPointer.appending(pointer, index))
        }
    }

    /// Legacy `paths` need `"apps": []` in applinks (Apple's legacy format). A non-array `apps` is a type finding.
    private static func legacyAppsFindings(_ applinks: JSONObject, firstPaths: String?) -> [Finding] {
        guard let firstPaths else { return [] }
        guard let apps = applinks["apps"] else {
            return [legacyApps.finding(
                "Details entries use legacy \"paths\" (first at \(firstPaths)) but \"applinks\" has no \"apps\"; the legacy format (iOS 12 and older) requires \"apps\": [].",
                pointer: "/applinks")]
        }
        guard let elements = apps.arrayValue, !elements.isEmpty else { return [] }
        return [legacyApps.finding(
            "\"applinks.apps\" has \(elements.count) item\(elements.count == 1 ? "" : "s") but must be empty ([]) in the legacy format that \"paths\" (first at \(firstPaths)) belongs to; app IDs go in details entries.",
            fix: "Set \"apps\": [] and name the apps in each details entry's \"appID\" or \"appIDs\".",
            pointer: "/applinks/apps")]
    }
}
