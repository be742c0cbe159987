/// Pattern mistakes that parse fine but do not do what their author meant (PAT-001, 002, 004), and the
/// OS versions the document's newer features need (PAT-005).
public enum PatternLintCheck: SchemaCheck {
    public static let patternNot = Rule("schema.pattern-not", .warning,
        meaning: "A legacy \"paths\" entry looks like an exclusion but is not written exactly \"NOT \" + pattern, so it is an ordinary pattern that matches (almost) nothing and excludes nothing.",
        fix: "Write the exclusion as \"NOT /path/*\": uppercase NOT, one space, then the pattern.")
    public static let patternQueryInPath = Rule("schema.pattern-query-in-path", .warning,
        meaning: "A path pattern contains query (\"?name=\") or fragment (\"#\") syntax; in a path pattern \"?\" matches any one character and \"#\" never occurs in a path, so the pattern does not match the URLs it was written for.",
        fix: "Match the query with the \"?\" component key and the fragment with \"#\" (components need iOS 13 or later).")
    public static let excludeStarQuery = Rule("schema.exclude-star-query", .warning,
        meaning: "An \"exclude\": true component requires a query item to match \"*\"; a missing item counts as empty and \"*\" matches empty, so it also blocks URLs that lack the item.",
        fix: "Use \"?*\" (one or more characters) so only URLs that carry the item are blocked.")
    public static let needsIOS = Rule("schema.needs-ios", .info,
        meaning: "The document uses a feature that only newer iOS and macOS versions read; older systems ignore it or reject the entry.",
        fix: "Nothing to fix if the app supports only these versions; otherwise older devices will not see the behaviour this feature sets up.")

    public static let leadingDelimiter = Rule("schema.pattern-leading-delimiter", .warning,
        meaning: "A \"?\" or \"#\" pattern starts with its own delimiter; the query and fragment are compared without their leading \"?\" or \"#\", so in \"?\": \"?id=1\" the first \"?\" is the one-character wildcard (it matches \"xid=1\", never \"id=1\"), and \"#\": \"#top\" needs a \"#\" inside the fragment, which a URL writes as %23; the rule does not match the URLs it was written for.",
        fix: "Drop the leading delimiter: \"?\": \"id=1\" (or \"?\": {\"id\": \"1\"}), \"#\": \"top\".")

    public static let componentNot = Rule("schema.component-not", .warning,
        meaning: "A components \"/\" pattern starts with the legacy \"NOT \" (or another way of writing not); only legacy \"paths\" read \"NOT \" as an exclusion. In a component it is part of a literal path pattern, which no URL path (always starting with \"/\") matches, so the rule excludes nothing and opens nothing.",
        fix: "Write the exclusion as a component with \"exclude\": true, such as {\"/\": \"/admin/*\", \"exclude\": true}, placed before the rules it must take precedence over.")

    public static let rules = [patternNot, componentNot, patternQueryInPath, leadingDelimiter, excludeStarQuery, needsIOS]

    public static func findings(in document: AASADocument) -> [Finding] {
        var findings: [Finding] = []
        for (pointer, path) in legacyPaths(in: document) {
            if let corrected = correctedExclusion(path) {
                findings.append(patternNot.finding(
                    "Legacy path \"\(path)\" looks like an exclusion, but only exactly \"NOT \" (uppercase, one space) + pattern excludes; as written it is an ordinary pattern that excludes nothing.",
                    fix: "Write \"\(corrected)\".",
                    pointer: pointer))
            }
            let pattern = path.hasPrefix("NOT ") ? String(path.dropFirst(4)) : path
            if let split = querySyntax(in: pattern) {
                findings.append(patternQueryInPath.finding(
                    "Legacy path \"\(path)\" contains \(split.culprit); legacy paths are compared with the URL path only (query and fragment are ignored), and there \"?\" matches any one character and \"#\" never occurs, so this pattern never matches the URLs it was written for.",
                    fix: "Use components (iOS 13 or later) instead: \(split.component(exclude: path.hasPrefix("NOT "))).",
                    pointer: pointer))
            }
        }
        for (pointer, component) in ComponentsCheck.components(in: document) {
            if let pattern = component["/"]?.stringValue, let meant = componentExclusion(pattern) {
                let keep = component["exclude"]?.boolValue == true ? " (its \"exclude\": true already makes it an exclusion)" : ""
                findings.append(componentNot.finding(
                    "Path pattern \(pattern.jsonQuoted) starts like a legacy \"NOT \" exclusion, but in components \"NOT \" is not a negation: it is part of a literal path pattern that no URL path matches (a path starts with \"/\"), so this rule excludes nothing and opens nothing\(keep).",
                    fix: "Write {\"/\": \(meant.jsonQuoted), \"exclude\": true} and place it before the rules it must take precedence over.",
                    pointer: JSONPointer.appending(pointer, "/")))
            }
            if let pattern = component["/"]?.stringValue, let split = querySyntax(in: pattern) {
                findings.append(patternQueryInPath.finding(
                    "Path pattern \"\(pattern)\" contains \(split.culprit); in \"/\" a \"?\" matches any one character and \"#\" never occurs in a path, so this pattern never matches the URLs it was written for.",
                    fix: "Split it into component keys: \(split.component(exclude: component["exclude"]?.boolValue == true)).",
                    pointer: JSONPointer.appending(pointer, "/")))
            }
            findings += leadingDelimiterFindings(component, pointer: pointer)
            if component["exclude"]?.boolValue == true, let query = component["?"]?.objectValue {
                for (name, value) in ComponentsCheck.effectiveMembers(of: query) where value.stringValue == "*" {
                    findings.append(excludeStarQuery.finding(
                        "This exclusion's query item \"\(name)\": \"*\" also matches URLs that have no \"\(name)\" item (a missing item counts as empty), so it blocks those URLs too.",
                        fix: "Write \"\(name)\": \"?*\" to block only URLs that carry \"\(name)\".",
                        pointer: JSONPointer.appending(JSONPointer.appending(pointer, "?"), name)))
                }
            }
        }
        return findings + featureFindings(in: document)
    }

    // MARK: Query and fragment patterns that start with their delimiter

    /// `"?": "?id=1"` and `"#": "#top"`. A `"?"` pattern starting `"?*"` or `"??"`, or that is `"?"` alone, is a
    /// deliberate wildcard (one or more characters, exactly two, exactly one) and is left alone.
    static func leadingDelimiterFindings(_ component: JSONObject, pointer: String) -> [Finding] {
        var findings: [Finding] = []
        let blocks = component["exclude"]?.boolValue == true
        if let query = component["?"]?.stringValue, query.hasPrefix("?") {
            let rest = query.dropFirst()
            if let next = rest.first, next != "?", next != "*" {
                let example = "x" + rest
                findings.append(leadingDelimiter.finding(
                    "Query pattern \(query.jsonQuoted) starts with \"?\", but the query is compared without its leading \"?\", so that first \"?\" is the one-character wildcard: this rule matches only a query of one character followed by \(String(rest).jsonQuoted) (such as ?\(example)), never ?\(rest).",
                    fix: "Write \"?\": \(String(rest).jsonQuoted)\(rest.contains("=") ? ", or name the items: \"?\": {…}" : "").",
                    pointer: JSONPointer.appending(pointer, "?")))
            }
        }
        if let fragment = component["#"]?.stringValue, fragment.hasPrefix("#") {
            let rest = String(fragment.dropFirst())
            findings.append(leadingDelimiter.finding(
                "Fragment pattern \(fragment.jsonQuoted) starts with \"#\", but the fragment is compared without its leading \"#\" and a \"#\" inside a fragment is written %23, so this rule never \(blocks ? "blocks" : "matches") …#\(rest): compared percent-encoded (\"percentEncoded\": true, the default) it matches no URL, and decoded (false) only fragments starting with %23 (…#%23\(rest)).",
                fix: "Write \"#\": \(rest.jsonQuoted).",
                pointer: JSONPointer.appending(pointer, "#")))
        }
        return findings
    }

    // MARK: Legacy paths

    /// Every string in a details entry's legacy `paths`, with its pointer.
    static func legacyPaths(in document: AASADocument) -> [(pointer: String, path: String)] {
        var result: [(pointer: String, path: String)] = []
        for entry in document.detailsEntries {
            guard let paths = entry.object?["paths"]?.arrayValue else { continue }
            let base = JSONPointer.appending(entry.pointer, "paths")
            for (index, item) in paths.enumerated() {
                if let path = item.stringValue { result.append((JSONPointer.appending(base, index), path)) }
            }
        }
        return result
    }

    /// The exclusion `path` was probably meant to be (`"NOT /x"`), or nil when it is a correct
    /// exclusion or no exclusion at all. Only exactly "NOT " + pattern excludes (Apple's archive guide).
    static func correctedExclusion(_ path: String) -> String? {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        if path.hasPrefix("NOT "), let next = path.dropFirst(4).first, !isSpace(next) { return nil }
        let text = path.drop(while: isSpace)
        let rest: Substring
        if text.first == "!" {
            rest = text.dropFirst()
        } else if text.prefix(3).lowercased() == "not" {
            rest = text.dropFirst(3)
            // "notes/*" is a path; "not /x", "NOT/x" and "Not*" are botched exclusions.
            guard let first = rest.first, first == "/" || first == "*" || isSpace(first) else { return nil }
        } else {
            return nil
        }
        let pattern = rest.drop(while: isSpace)
        return pattern.isEmpty ? nil : "NOT " + pattern
    }

    /// The pattern a components `"/"` written as a legacy exclusion (`"NOT /admin/*"`, `"not /x"`,
    /// `"!/x"`) was meant to exclude, or nil when it does not start like one.
    static func componentExclusion(_ pattern: String) -> String? {
        if pattern.hasPrefix("NOT ") {
            let rest = pattern.dropFirst(4).drop { $0 == " " || $0 == "\t" }
            return rest.isEmpty ? nil : String(rest)
        }
        return correctedExclusion(pattern).map { String($0.dropFirst(4)) }
    }

    // MARK: Query and fragment syntax in paths

    /// A path pattern split where query or fragment syntax starts.
    struct QuerySyntax {
        var path: String
        var query: String?
        var fragment: String?

        /// What the pattern contains, for messages.
        var culprit: String {
            switch (query, fragment) {
            case (let query?, let fragment?): return "query syntax \"?\(query)\" and a fragment \"#\(fragment)\""
            case (let query?, nil): return "query syntax \"?\(query)\""
            default: return "a fragment \"#\(fragment ?? "")\""
            }
        }

        /// The component object the author probably meant, as JSON text.
        func component(exclude: Bool) -> String {
            var parts: [String] = []
            if !path.isEmpty { parts.append("\"/\": \(quoted(path))") }
            if let query {
                let items = query.split(separator: "&", omittingEmptySubsequences: true)
                let pairs = items.map { $0.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false) }
                if !pairs.isEmpty, pairs.allSatisfy({ $0.count == 2 && !$0[0].isEmpty }) {
                    let members = pairs.map { "\(quoted(String($0[0]))): \(quoted($0[1].isEmpty ? "*" : String($0[1])))" }
                    parts.append("\"?\": { \(members.joined(separator: ", ")) }")
                } else {
                    parts.append("\"?\": \(quoted(query))")
                }
            }
            if let fragment { parts.append("\"#\": \(quoted(fragment.isEmpty ? "*" : fragment))") }
            if exclude { parts.append("\"exclude\": true") }
            return "{ " + parts.joined(separator: ", ") + " }"
        }

        private func quoted(_ text: String) -> String {
            var output: [UInt8] = []
            JSONValue.writeString(text, to: &output)
            return String(decoding: output, as: UTF8.self)
        }
    }

    /// Where `pattern` uses query or fragment syntax: any `#`, or `?` followed by `name=`. Other `?`s
    /// are left alone: `?` is a legitimate one-character wildcard in paths (`/201?/*`).
    static func querySyntax(in pattern: String) -> QuerySyntax? {
        var beforeFragment = Substring(pattern)
        var fragment: String?
        if let hash = pattern.firstIndex(of: "#") {
            beforeFragment = pattern[..<hash]
            fragment = String(pattern[pattern.index(after: hash)...])
        }
        var query: String?
        var path = String(beforeFragment)
        var index = beforeFragment.startIndex
        while let mark = beforeFragment[index...].firstIndex(of: "?") {
            let after = beforeFragment[beforeFragment.index(after: mark)...]
            let name = after.prefix(while: { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." || $0 == "[" || $0 == "]" })
            if !name.isEmpty, after.dropFirst(name.count).first == "=" {
                path = String(beforeFragment[..<mark])
                query = String(after)
                break
            }
            index = beforeFragment.index(after: mark)
        }
        guard query != nil || fragment != nil else { return nil }
        return QuerySyntax(path: path, query: query, fragment: fragment)
    }

    // MARK: Features that need newer systems

    /// A feature Apple added after the first universal links, with the systems that read it.
    /// (`components` itself is reported once, by `schema.components-only`.)
    private enum Feature: CaseIterable {
        case caseInsensitive, substitutionVariables, defaults, percentDecoded

        var name: String {
            switch self {
            case .caseInsensitive: return "\"caseSensitive\": false"
            case .substitutionVariables: return "\"substitutionVariables\""
            case .defaults: return "\"defaults\""
            case .percentDecoded: return "\"percentEncoded\": false"
            }
        }

        var systems: String {
            switch self {
            case .caseInsensitive: return "iOS 13.5 and macOS 10.15.5"
            case .substitutionVariables: return "iOS 13.5 and macOS 10.15.6"
            case .defaults, .percentDecoded: return "iOS 14 and macOS 11"
            }
        }

        var olderBehaviour: String {
            switch self {
            case .caseInsensitive: return "older systems match case-sensitively"
            case .substitutionVariables: return "older systems do not expand $(…) variables"
            case .defaults: return "older systems ignore these defaults"
            case .percentDecoded: return "older systems compare against the percent-encoded URL"
            }
        }
    }

    /// One info finding per feature, pointing at its first use in document order.
    private static func featureFindings(in document: AASADocument) -> [Finding] {
        var firstUse: [Feature: String] = [:]
        func use(_ feature: Feature, _ pointer: String) {
            if firstUse[feature] == nil { firstUse[feature] = pointer }
        }
        func settings(_ object: JSONObject, _ pointer: String) {
            if object["caseSensitive"]?.boolValue == false { use(.caseInsensitive, JSONPointer.appending(pointer, "caseSensitive")) }
            if object["percentEncoded"]?.boolValue == false { use(.percentDecoded, JSONPointer.appending(pointer, "percentEncoded")) }
        }
        func defaults(_ value: JSONValue, _ pointer: String) {
            use(.defaults, pointer)
            if let object = value.objectValue { settings(object, pointer) }
        }
        guard let applinks = document.applinks else { return [] }
        let entries = document.detailsEntries
        for (key, value) in ComponentsCheck.effectiveMembers(of: applinks) {
            switch key {
            case "substitutionVariables": use(.substitutionVariables, "/applinks/substitutionVariables")
            case "defaults": defaults(value, "/applinks/defaults")
            case "details":
                for entry in entries {
                    guard let object = entry.object else { continue }
                    for (entryKey, entryValue) in ComponentsCheck.effectiveMembers(of: object) {
                        let pointer = JSONPointer.appending(entry.pointer, entryKey)
                        if entryKey == "defaults" { defaults(entryValue, pointer) }
                        guard entryKey == "components" else { continue }
                        for (index, item) in (entryValue.arrayValue ?? []).enumerated() {
                            if let component = item.objectValue { settings(component, JSONPointer.appending(pointer, index)) }
                        }
                    }
                }
            default: break
            }
        }
        return Feature.allCases.compactMap { feature in
            firstUse[feature].map { pointer in
                needsIOS.finding(
                    "This file uses \(feature.name), which needs \(feature.systems) or later; \(feature.olderBehaviour).",
                    pointer: pointer)
            }
        }
    }
}
