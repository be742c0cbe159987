/// Apple's universal-link matching over one parsed document: which URLs open which app, and which
/// rule decides. Patterns are compiled once, in `init`; `decide` then costs one parse of the URL and a
/// walk over the rules, first match wins. Pure and `Sendable`. See docs/matching.md for the semantics.
///
/// ```swift
/// let matcher = URLMatcher(document, host: "example.com")
/// let result = try matcher.decide("https://example.com/buy/42", appID: "ABCDE12345.com.example.app")
/// ```
public struct URLMatcher: Sendable {
    /// The host the document was served from; nil means "any host" (a local file).
    public let host: String?
    /// Every app ID with an `applinks.details` entry, in document order.
    public let appIDs: [String]
    /// The app IDs of `appIDs` that no app can have (an App Store ID where the Team ID belongs, no Team ID, see
    /// `AppIDCheck.unusableReason`), each with why: their rules are compiled, but a URL they match opens nothing.
    public let unusableAppIDs: [String: String]
    /// The compiled details entries, in the order Apple tries them.
    let entries: [CompiledEntry]
    /// For each app ID, the entries that list it, in order.
    let entriesByApp: [String: [Int]]
    /// Which spellings of a URL (see `Spelling`) the rules look at; only those are built per URL.
    let spellings: [Bool]

    /// Compiles every rule of `document`. `host` (case-insensitive, trailing dot ignored) restricts the
    /// matcher to URLs on that host, as the file governs only its own host; nil or empty accepts any host.
    public init(_ document: AASADocument, host: String? = nil) {
        let trimmedHost = host.map { GlobPattern.folded($0.hasSuffix(".") ? String($0.dropLast()) : $0) }
        self.host = trimmedHost?.isEmpty == true ? nil : trimmedHost
        let compiler = RuleCompiler(document)
        entries = compiler.entries
        var order: [String] = []
        var byApp: [String: [Int]] = [:]
        for (position, entry) in entries.enumerated() {
            for app in entry.appIDs {
                if byApp[app] == nil { order.append(app) }
                byApp[app, default: []].append(position)
            }
        }
        appIDs = order
        entriesByApp = byApp
        var unusable: [String: String] = [:]
        for app in order { unusable[app] = AppIDCheck.unusableReason(app) }
        unusableAppIDs = unusable
        var needed = [Bool](repeating: false, count: Spelling.count)
        for entry in entries { for rule in entry.rules { needed[rule.spelling.rawValue] = true } }
        spellings = needed
    }

    /// Convenience: parses `json` (strict JSON) and compiles it; nil when it is not a JSON object.
    public init?(json: [UInt8], host: String? = nil) {
        guard let parsed = try? JSONParser.parse(json), let document = AASADocument(json: parsed) else { return nil }
        self.init(document, host: host)
    }

    /// The decision for `url` (an http(s) URL, or a path starting with `/`), for `appID` when given.
    public func decide(_ url: String, appID: String? = nil) throws(MatchURL.ParseError) -> MatchResult {
        decide(try MatchURL.parse(url), text: url, appID: appID)
    }

    /// The decision for an already parsed URL; `text` is echoed in the result.
    public func decide(_ url: MatchURL, text: String, appID: String? = nil) -> MatchResult {
        if let host, let urlHost = url.host, urlHost != host {
            return MatchResult(url: text, decision: .noMatch, appID: appID,
                               reason: "the URL's host \(urlHost) is not \(host), the host this file governs")
        }
        if entries.isEmpty {
            return MatchResult(url: text, decision: .noMatch, appID: appID, reason: "the file has no applinks details")
        }
        let views = self.views(of: url)
        var outcomes = [EntryOutcome?](repeating: nil, count: entries.count)
        func outcome(_ position: Int) -> EntryOutcome {
            if let known = outcomes[position] { return known }
            let computed = entries[position].evaluate(views)
            outcomes[position] = computed
            return computed
        }
        /// The first entry of `app` whose rules decide, with its decision.
        func decision(for app: String) -> (MatchDecision, MatchRule?) {
            for position in entriesByApp[app] ?? [] {
                let result = outcome(position)
                if let rule = result.rule { return (result.exclude ? .exclude : .match, entries[position].reference(rule)) }
            }
            return (.noMatch, nil)
        }
        var winners: [String] = []
        var firstMatch: MatchRule?
        var firstExclude: MatchRule?
        // A rule that admits the URL for an app ID no app can have opens nothing; the first such one is
        // named when nothing else decides, so the answer says why rather than just "no rule matches".
        var unusableMatch: (app: String, rule: MatchRule?)?
        for app in appIDs {
            let (verdict, rule) = decision(for: app)
            if verdict == .match {
                if unusableAppIDs[app] != nil {
                    if unusableMatch == nil { unusableMatch = (app, rule) }
                    continue
                }
                winners.append(app)
                if firstMatch == nil { firstMatch = rule }
            } else if verdict == .exclude, firstExclude == nil {
                firstExclude = rule
            }
        }
        if let appID {
            let (verdict, rule) = decision(for: appID)
            if verdict == .match, let why = unusableAppIDs[appID] {
                return MatchResult(url: text, decision: .noMatch, appIDs: winners, appID: appID,
                                   reason: Self.unusableReason(why, appID: appID, rule: rule))
            }
            let reason = entriesByApp[appID] == nil ? "\(appID) has no applinks details entry in this file" : nil
            return MatchResult(url: text, decision: verdict, rule: rule, appIDs: winners, appID: appID, reason: reason)
        }
        if let firstMatch { return MatchResult(url: text, decision: .match, rule: firstMatch, appIDs: winners) }
        if let firstExclude { return MatchResult(url: text, decision: .exclude, rule: firstExclude, appIDs: winners) }
        if let unusableMatch, let why = unusableAppIDs[unusableMatch.app] {
            return MatchResult(url: text, decision: .noMatch, appIDs: winners, reason: Self.unusableReason(why, appID: unusableMatch.app, rule: unusableMatch.rule))
        }
        return MatchResult(url: text, decision: .noMatch, appIDs: winners)
    }
}

extension URLMatcher {
    /// Why a rule's match opens nothing: the rule, then the app ID's defect (`AppIDCheck.unusableReason`).
    static func unusableReason(_ why: String, appID: String, rule: MatchRule?) -> String {
        let matched = rule.map { "\($0) matches, but " } ?? ""
        let id = AppIDCheck.unusableRuleID(appID) ?? AppIDCheck.format.id
        return "\(matched)\(why): links for that app do not work (\(id))"
    }

    /// The URL's spellings the rules use; the others stay empty, building them would be wasted work.
    func views(of url: MatchURL) -> [URLView] {
        Spelling.allCases.map { spelling in
            spellings[spelling.rawValue] ? URLView(url, decoded: spelling.decoded, folded: spelling.folded) : URLView.empty
        }
    }
}

/// One way of spelling a URL's parts for comparison: `percentEncoded` false compares the decoded URL,
/// `caseSensitive` false the case-folded one.
enum Spelling: Int, CaseIterable, Sendable {
    case asWritten = 0, folded, decoded, decodedFolded

    static let count = 4
    var decoded: Bool { self == .decoded || self == .decodedFolded }
    var folded: Bool { self == .folded || self == .decodedFolded }
    init(decoded: Bool, folded: Bool) { self = Spelling(rawValue: (decoded ? 2 : 0) + (folded ? 1 : 0))! }
}

/// What one details entry says about a URL: the first rule that applies, if any.
struct EntryOutcome: Sendable {
    var rule: Int?
    var exclude: Bool
}

/// A details entry, compiled. A class, like `CompiledRule`, so deciding a URL copies no arrays.
final class CompiledEntry: Sendable {
    let details: Int
    let pointer: String
    let appIDs: [String]
    let kind: MatchRule.Kind
    let rules: [CompiledRule]
    /// Per spelling, the rules by the fixed text their path must start with: only the rules whose
    /// fixed start is a prefix of the URL's path need a look. (An index, not a change of order: the
    /// candidates are still tried in document order, so the first match still wins.)
    let prefixIndex: [PrefixIndex]

    init(details: Int, pointer: String, appIDs: [String], kind: MatchRule.Kind, rules: [CompiledRule]) {
        self.details = details
        self.pointer = pointer
        self.appIDs = appIDs
        self.kind = kind
        self.rules = rules
        var index = [PrefixIndex](repeating: PrefixIndex(), count: Spelling.count)
        for (position, rule) in rules.enumerated() where !rule.never {
            index[rule.spelling.rawValue].insert(rule.path.requiredPrefix, rule: position)
        }
        prefixIndex = index
    }

    /// The first rule that matches, among the candidates the index gives for the URL's path: they are
    /// marked in a bit set on the stack and tried in rule order.
    func evaluate(_ views: [URLView]) -> EntryOutcome {
        let words = (rules.count + 63) / 64
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: max(words, 1)) { mask in
            for word in 0..<words { mask[word] = 0 }
            for spelling in 0..<Spelling.count where !prefixIndex[spelling].isEmpty {
                prefixIndex[spelling].mark(views[spelling].path, in: mask)
            }
            for word in 0..<words {
                var bits = mask[word]
                while bits != 0 {
                    let index = word * 64 + bits.trailingZeroBitCount
                    bits &= bits - 1
                    let rule = rules[index]
                    if rule.matches(views[rule.spelling.rawValue]) { return EntryOutcome(rule: index, exclude: rule.exclude) }
                }
            }
            return EntryOutcome(rule: nil, exclude: false)
        }
    }

    /// The first rule that matches, trying every rule in order without the index: the reference the
    /// index is tested against.
    func evaluateWithoutIndex(_ views: [URLView]) -> EntryOutcome {
        for index in rules.indices where rules[index].matches(views[rules[index].spelling.rawValue]) {
            return EntryOutcome(rule: index, exclude: rules[index].exclude)
        }
        return EntryOutcome(rule: nil, exclude: false)
    }

    func reference(_ index: Int) -> MatchRule {
        let rule = rules[index]
        return MatchRule(details: details, kind: kind, index: rule.index, pointer: rule.pointer, text: rule.text)
    }
}

/// A path pattern with Apple's edge rules: leading and trailing slashes trimmed, and a trailing `/*`
/// that also matches the path without it (`/buy/*` matches `/buy`).
struct CompiledPath: Sendable {
    var pattern: GlobPattern
    var withoutTail: GlobPattern
    var hasTail: Bool

    /// Compiles `text` with `compile` (which decides how variables and case are handled).
    init(_ text: String, compile: (String) -> GlobPattern) {
        let trimmed = CompiledPath.trimmed(text)
        pattern = compile(trimmed)
        hasTail = trimmed.hasSuffix("/*")
        withoutTail = hasTail ? compile(CompiledPath.trimmed(String(trimmed.dropLast(2)))) : pattern
    }

    /// Matches every path (a rule without "/").
    static let any = CompiledPath("*") { GlobPattern($0) }

    /// The fixed text every matching path starts with (empty when a wildcard or variable comes first).
    /// With the optional tail, the shorter form's: `/buy/*` matches `buy` as well as `buy/…`.
    var requiredPrefix: [UInt8] {
        hasTail ? withoutTail.literalPrefix : pattern.literalPrefix
    }

    static func trimmed(_ text: String) -> String {
        var slice = Substring(text)
        while slice.first == "/" { slice = slice.dropFirst() }
        while slice.last == "/" { slice = slice.dropLast() }
        return String(slice)
    }

    func matches(_ path: [UInt8]) -> Bool {
        path.withUnsafeBufferPointer { buffer in
            pattern.matches(buffer) || (hasTail && withoutTail.matches(buffer))
        }
    }
}

/// A query rule: absent (anything), a whole-query pattern, or named items.
struct CompiledQuery: Sendable {
    enum Kind: Sendable { case any, never, whole, items }

    var kind: Kind
    var whole = GlobPattern("*")
    var names: [[UInt8]] = []
    var patterns: [GlobPattern] = []

    static let any = CompiledQuery(kind: .any)
    static let never = CompiledQuery(kind: .never)

    func matches(_ view: URLView) -> Bool {
        switch kind {
        case .any: return true
        case .never: return false
        case .whole: return whole.matches(view.query)
        case .items:
            for index in names.indices {
                var seen = false
                for item in view.items.indices where view.items[item].name == names[index] {
                    seen = true
                    // Every occurrence of a repeated name must match (WWDC19).
                    if !patterns[index].matches(view.items[item].value) { return false }
                }
                // A missing item counts as empty.
                if !seen, !patterns[index].matches([]) { return false }
            }
            return true
        }
    }
}

/// One rule: a component, or a legacy path.
/// A class, not a struct: walking the rules per URL then costs no copy of each rule's patterns
/// (copying a struct of arrays retains and releases every array, for every rule and every URL).
final class CompiledRule: Sendable {
    let index: Int
    let pointer: String
    let text: String
    let exclude: Bool
    let spelling: Spelling
    /// A rule with a value of the wrong type never matches.
    let never: Bool
    /// `CompiledPath.any` when the rule has no "/".
    let path: CompiledPath
    let query: CompiledQuery
    /// Nil when the rule has no "#".
    let fragment: GlobPattern?

    init(index: Int, pointer: String, text: String, exclude: Bool, spelling: Spelling, never: Bool,
         path: CompiledPath, query: CompiledQuery, fragment: GlobPattern?) {
        self.index = index
        self.pointer = pointer
        self.text = text
        self.exclude = exclude
        self.spelling = spelling
        self.never = never
        self.path = path
        self.query = query
        self.fragment = fragment
    }

    func matches(_ view: URLView) -> Bool {
        if never { return false }
        if !path.matches(view.path) { return false }
        if !query.matches(view) { return false }
        if fragment != nil, !fragment!.matches(view.fragment) { return false }
        return true
    }
}

/// Turns a document into compiled entries.
struct RuleCompiler {
    var entries: [CompiledEntry] = []
    /// Each variable's values, compiled once for the whole document.
    let variableChoices = VariableChoices()

    init(_ document: AASADocument) {
        guard let applinks = document.applinks else { return }
        let variables = Self.variables(applinks["substitutionVariables"]?.objectValue)
        let lookup: (String) -> [String]? = { variables[$0] ?? PredefinedVariables.values(of: $0) }
        let choices = variableChoices
        let domainDefaults = applinks["defaults"]?.objectValue
        var details = document.detailsEntries
        // The oldest form is a dictionary; its order is undefined, so it is evaluated sorted by app ID.
        if details.first?.dictionaryKey != nil { details.sort { ($0.dictionaryKey ?? "") < ($1.dictionaryKey ?? "") } }
        for (position, entry) in details.enumerated() {
            guard let object = entry.object else { continue }
            var apps: [String] = []
            if let list = object["appIDs"]?.arrayValue { apps += list.compactMap(\.stringValue) }
            if let single = object["appID"]?.stringValue, !apps.contains(single) { apps.append(single) }
            if let key = entry.dictionaryKey, !apps.contains(key) { apps.append(key) }
            guard !apps.isEmpty else { continue }
            // iOS 13+ ignores `paths` when `components` is present.
            if let components = object["components"]?.arrayValue {
                let entryDefaults = object["defaults"]?.objectValue
                let base = entry.pointer + "/components"
                let rules = components.enumerated().map { index, value in
                    Self.component(value, index: index, pointer: base + "/\(index)", lookup: lookup, choices: choices,
                                   defaults: [entryDefaults, domainDefaults])
                }
                entries.append(CompiledEntry(details: position, pointer: entry.pointer, appIDs: apps, kind: .component, rules: rules))
            } else if let paths = object["paths"]?.arrayValue {
                let base = entry.pointer + "/paths"
                let rules = paths.enumerated().map { index, value in Self.legacyPath(value, index: index, pointer: base + "/\(index)") }
                entries.append(CompiledEntry(details: position, pointer: entry.pointer, appIDs: apps, kind: .path, rules: rules))
            }
        }
    }

    /// Custom variables: each name's string values (other values are skipped). A custom variable
    /// with a predefined name replaces the predefined one.
    static func variables(_ object: JSONObject?) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for member in object?.members ?? [] {
            guard let values = member.value.arrayValue else { continue }
            result[member.key] = values.compactMap(\.stringValue)
        }
        return result
    }

    /// A setting (`caseSensitive`, `percentEncoded`): the component's, else the entry's defaults,
    /// else `applinks.defaults`, else true.
    static func setting(_ key: String, _ component: JSONObject, _ defaults: [JSONObject?]) -> Bool {
        if let value = component[key]?.boolValue { return value }
        for level in defaults { if let value = level?[key]?.boolValue { return value } }
        return true
    }

    static func component(_ value: JSONValue, index: Int, pointer: String, lookup: @escaping (String) -> [String]?,
                          choices: VariableChoices, defaults: [JSONObject?]) -> CompiledRule {
        func pattern(_ text: String, fold: Bool) -> GlobPattern {
            GlobPattern(text, compiled: choices, foldCase: fold, values: lookup)
        }
        guard let object = value.objectValue else {
            return CompiledRule(index: index, pointer: pointer, text: oneLine(value), exclude: false, spelling: .asWritten,
                                never: true, path: .any, query: .never, fragment: nil)
        }
        let fold = !setting("caseSensitive", object, defaults)
        let decoded = !setting("percentEncoded", object, defaults)
        var never = false
        var path = CompiledPath.any
        if let pathValue = object["/"] {
            if let text = pathValue.stringValue {
                path = CompiledPath(text) { pattern($0, fold: fold) }
            } else { never = true }
        }
        var fragment: GlobPattern?
        if let fragmentValue = object["#"] {
            if let text = fragmentValue.stringValue { fragment = pattern(text, fold: fold) } else { never = true }
        }
        var query = CompiledQuery.any
        if let queryValue = object["?"] {
            if let text = queryValue.stringValue {
                query = CompiledQuery(kind: .whole, whole: pattern(text, fold: fold))
            } else if let dictionary = queryValue.objectValue {
                let members = ComponentsCheck.effectiveMembers(of: dictionary)
                // swcutil ignores the whole dictionary when one of its values is not a string.
                if members.allSatisfy({ $0.value.stringValue != nil }) {
                    query = CompiledQuery(kind: .items,
                                          names: members.map { Array((fold ? GlobPattern.folded($0.key) : $0.key).utf8) },
                                          patterns: members.map { pattern($0.value.stringValue ?? "", fold: fold) })
                }
            } else {
                query = .never
            }
        }
        return CompiledRule(index: index, pointer: pointer, text: oneLine(value), exclude: object["exclude"]?.boolValue == true,
                            spelling: Spelling(decoded: decoded, folded: fold), never: never, path: path, query: query, fragment: fragment)
    }

    /// A legacy path: `"NOT "` + pattern excludes; always case-sensitive, compared with the path as written.
    static func legacyPath(_ value: JSONValue, index: Int, pointer: String) -> CompiledRule {
        guard let text = value.stringValue else {
            return CompiledRule(index: index, pointer: pointer, text: oneLine(value), exclude: false, spelling: .asWritten,
                                never: true, path: .any, query: .never, fragment: nil)
        }
        let exclude = text.hasPrefix("NOT ")
        let pattern = exclude ? String(text.dropFirst(4)) : text
        // Legacy paths predate substitution variables: "$(" is literal text there.
        let path = CompiledPath(pattern) { GlobPattern(literal: $0) }
        return CompiledRule(index: index, pointer: pointer, text: text, exclude: exclude, spelling: .asWritten,
                            never: false, path: path, query: .any, fragment: nil)
    }

    /// A JSON value on one line, for messages.
    static func oneLine(_ value: JSONValue) -> String {
        if let text = value.stringValue { return text }
        return value.formatted().split(separator: "\n").map { $0.drop(while: { $0 == " " }) }.joined(separator: " ")
    }
}

extension GlobPattern {
    /// A pattern with `*` and `?` but no variables: `$(` is ordinary text.
    init(literal text: String) {
        elements = GlobPattern.wildcardElements(text)
        choices = []
        var prefix: [UInt8] = []
        for element in elements {
            guard case .byte(let byte) = element else { break }
            prefix.append(byte)
        }
        literalPrefix = prefix
    }
}

/// Rule numbers by the fixed text their path must start with, as a trie over bytes: walking a path
/// through it finds every rule whose fixed start is a prefix of that path.
struct PrefixIndex: Sendable {
    private var children: [[(byte: UInt8, node: Int32)]] = [[]]
    private var rulesAt: [[Int]] = [[]]

    var isEmpty: Bool { rulesAt.count == 1 && rulesAt[0].isEmpty }

    mutating func insert(_ prefix: [UInt8], rule: Int) {
        var node = 0
        for byte in prefix {
            if let next = children[node].first(where: { $0.byte == byte }) {
                node = Int(next.node)
            } else {
                children.append([])
                rulesAt.append([])
                children[node].append((byte, Int32(children.count - 1)))
                node = children.count - 1
            }
        }
        rulesAt[node].append(rule)
    }

    /// Sets the bit of every rule whose fixed start is a prefix of `path`.
    func mark(_ path: [UInt8], in mask: UnsafeMutableBufferPointer<UInt64>) {
        var node = 0, position = 0
        while true {
            for rule in rulesAt[node] { mask[rule >> 6] |= 1 << UInt64(rule & 63) }
            guard position < path.count, let next = children[node].first(where: { $0.byte == path[position] }) else { return }
            node = Int(next.node)
            position += 1
        }
    }
}
