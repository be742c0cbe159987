/// Rules that can never decide a URL because an earlier rule of the same details entry already decides
/// every URL they match (the first matching rule wins), and exclusions that block everything after
/// them. Conservative: reported only when provable from the patterns' text (an earlier `*`, an earlier
/// `prefix*` that covers the later pattern's fixed start, or the same pattern again), never by sampling.
public enum RuleReachabilityCheck: SchemaCheck {
    public static let unreachable = Rule("match.unreachable", .warning,
        meaning: "A rule can never apply: an earlier rule in the same details entry matches every URL it matches and does the opposite (opens what this rule excludes, or excludes what it opens), and the first matching rule wins.",
        fix: "Move the more specific rule before the general one (exclusions usually go first).")
    public static let redundant = Rule("match.redundant", .info,
        meaning: "A rule can never apply: an earlier rule in the same details entry matches every URL it matches and does the same, so it is harmless but has no effect.",
        fix: "Remove the rule, or narrow the earlier one if this rule was meant to be the only one for its URLs.")
    public static let excludeShadowsAll = Rule("match.exclude-shadows-all", .warning,
        meaning: "An exclusion matches every URL, so no rule after it ever applies: only the URLs that a rule before it opens still open the app, and none when no rule before it opens any.",
        fix: "Narrow the exclusion to the URLs that must stay in the browser (a path, a query item or a fragment), or remove it.")

    public static let rules = [unreachable, redundant, excludeShadowsAll]

    public static func findings(in document: AASADocument) -> [Finding] {
        guard let applinks = document.applinks else { return [] }
        let domainDefaults = applinks["defaults"]?.objectValue
        var findings: [Finding] = []
        for entry in document.detailsEntries {
            guard let object = entry.object else { continue }
            if let components = object["components"]?.arrayValue {
                let entryDefaults = object["defaults"]?.objectValue
                let rules = components.enumerated().map { index, value in
                    Shape(component: value, defaults: [entryDefaults, domainDefaults], index: index,
                          pointer: JSONPointer.appending(JSONPointer.appending(entry.pointer, "components"), index))
                }
                findings += check(rules, noun: "component")
            } else if let paths = object["paths"]?.arrayValue {
                let rules = paths.enumerated().map { index, value in
                    Shape(path: value, index: index, pointer: JSONPointer.appending(JSONPointer.appending(entry.pointer, "paths"), index))
                }
                findings += check(rules, noun: "path")
            }
        }
        return findings
    }

    /// Earlier rules kept as candidates for covering later ones. A later rule is compared only with
    /// earlier rules that could cover it: those of the same path text, and the broad ones (`prefix*`)
    /// whose prefix begins its path (or whose `prefix/` is its whole path), found by looking the path's
    /// beginnings up, not by trying every broad rule; rules with no path, and broad rules whose prefix
    /// is longer than `maxIndexedPrefix` characters, are tried in turn. Each list is bounded, and so is
    /// the number of comparisons a rule makes, so a file with thousands of rules costs a linear number
    /// of comparisons and a hostile file cannot make the check, or the audit around it, slow. The check
    /// stays conservative: past the bounds it may miss a finding, never invent one.
    static let maxBroadCandidates = 64
    static let maxSamePathCandidates = 16
    static let maxIndexedPrefix = 128
    static let maxComparisons = 128

    private static func check(_ rules: [Shape?], noun: String) -> [Finding] {
        struct PathKey: Hashable {
            var path: String?
            var caseSensitive: Bool
            var percentEncoded: Bool
            /// `path` compared as `rule` compares paths.
            init(_ path: String?, as rule: Shape) {
                self.path = path
                caseSensitive = rule.caseSensitive
                percentEncoded = rule.percentEncoded
            }
        }
        var findings: [Finding] = []
        let present = rules.compactMap { $0 }
        // Candidates are positions in `present`, compared in place: a `Shape` copied out of a list for
        // each comparison retained and released its every string, and trying each of 64 broad rules
        // for each later rule was most of an audit's CPU on a file of 570 `prefix*` rules.
        var samePath: [PathKey: [Int]] = [:]
        var byPrefix: [PathKey: [Int]] = [:]
        var byTail: [PathKey: [Int]] = [:]
        /// The lengths, in characters, of the prefixes in `byPrefix`: only those beginnings are looked up.
        var prefixLengths = [Bool](repeating: false, count: maxIndexedPrefix + 1)
        var unindexed: [Int] = []
        func add(_ position: Int, to list: inout [Int], bound: Int) {
            if list.count < bound { list.append(position) }
        }
        func remember(_ position: Int) {
            let rule = present[position]
            func key(_ path: String?) -> PathKey { PathKey(path, as: rule) }
            add(position, to: &samePath[key(rule.path), default: []], bound: maxSamePathCandidates)
            guard rule.isBroad else { return }
            guard rule.path != nil, let prefix = rule.facts.broadPrefix, prefix.count <= maxIndexedPrefix else {
                add(position, to: &unindexed, bound: maxBroadCandidates)
                return
            }
            add(position, to: &byPrefix[key(prefix), default: []], bound: maxSamePathCandidates)
            prefixLengths[prefix.count] = true
            if let tail = rule.facts.broadTail { add(position, to: &byTail[key(tail), default: []], bound: maxSamePathCandidates) }
        }
        /// The earliest unreported earlier rule that covers `rule`, if any.
        func coverer(of rule: Shape) -> Shape? {
            func key(_ path: String?) -> PathKey { PathKey(path, as: rule) }
            var best: Int?
            var comparisons = 0
            func consider(_ candidates: [Int]?) {
                for candidate in candidates ?? [] {
                    guard comparisons < maxComparisons else { return }
                    comparisons += 1
                    if candidate < (best ?? Int.max) && present[candidate].covers(rule) { best = candidate }
                }
            }
            consider(samePath[key(rule.path)])
            // A broad rule covers this one only if its prefix begins every form of this path, the
            // first among them (or, for an exact path, if the path is the broad rule's `prefix/`).
            if rule.path != nil, let first = rule.facts.forms.first {
                let fixed = first.fixed
                var end = fixed.startIndex
                var length = 0
                while length <= maxIndexedPrefix {
                    if prefixLengths[length] { consider(byPrefix[key(String(fixed[..<end]))]) }
                    guard end < fixed.endIndex else { break }
                    end = fixed.index(after: end)
                    length += 1
                }
                if first.exact { consider(byTail[key(fixed)]) }
            }
            consider(unindexed)
            return best.map { present[$0] }
        }
        // The covering rule's text is rendered once, not once per rule it covers: one rule with a
        // 90 KB comment before 3,000 rules it covers took 7.6 s rendering the same text again.
        var texts: [Int: String] = [:]
        func unreachableFinding(_ rule: Shape, by earlier: Shape, noun: String, every: Bool) -> Finding {
            let text = texts[earlier.index] ?? earlier.text
            texts[earlier.index] = text
            return Self.unreachableFinding(rule, by: earlier, earlierText: text, noun: noun, every: every)
        }
        var openers = 0
        for (position, rule) in present.enumerated() {
            if let earlier = coverer(of: rule) {
                findings.append(unreachableFinding(rule, by: earlier, noun: noun, every: earlier.isUniversal))
                continue
            }
            if rule.isUniversal {
                // Every later rule is covered: by an earlier rule when one covers it, else by this one.
                var shadowed = 0
                let openersBefore = openers
                for later in present[(position + 1)...] {
                    if let earlier = coverer(of: later) {
                        findings.append(unreachableFinding(later, by: earlier, noun: noun, every: earlier.isUniversal))
                    } else if rule.exclude {
                        shadowed += 1
                    } else {
                        findings.append(unreachableFinding(later, by: rule, noun: noun, every: true))
                    }
                }
                if shadowed > 0 {
                    findings.append(excludeShadowsAll.finding(
                        shadowsAllMessage(noun: noun, index: rule.index, text: rule.text, shadowed: shadowed, openersBefore: openersBefore),
                        pointer: rule.pointer))
                }
                break
            }
            // A rule no earlier rule covers that opens: the URLs it matches still open the app after a universal exclusion.
            if !rule.exclude { openers += 1 }
            remember(position)
        }
        return findings
    }

    /// The message of `match.exclude-shadows-all`: `shadowed` rules after the exclusion that no earlier
    /// rule decides, `openersBefore` rules before it that open URLs (then only those URLs open the app).
    static func shadowsAllMessage(noun: String, index: Int, text: String, shadowed: Int, openersBefore: Int) -> String {
        let after = shadowed == 0 ? "no rule after it ever applies"
            : shadowed == 1 ? "the rule after it never applies" : "the \(shadowed) rules after it never apply"
        let opens = openersBefore == 0 ? ", and no link of this entry opens the app"
            : openersBefore == 1 ? "; only URLs matched by the opening rule before it still open the app"
            : "; only URLs matched by the \(openersBefore) opening rules before it still open the app"
        return "\(noun.capitalized) \(index) \(text) excludes every URL, so \(after)\(opens)."
    }

    private static func unreachableFinding(_ rule: Shape, by earlier: Shape, earlierText: String, noun: String, every: Bool) -> Finding {
        let what = every ? "matches every URL" : "matches every URL this one matches"
        let verb = earlier.exclude ? "excludes" : "opens"
        let message = "\(noun.capitalized) \(rule.index) \(rule.text) never applies: \(noun) \(earlier.index) \(earlierText) comes first and \(what) (it \(verb) them), and the first matching rule wins"
        if earlier.exclude == rule.exclude {
            return redundant.finding(message + "; both do the same, so this is harmless.",
                                     fix: "Remove \(noun) \(rule.index).", pointer: rule.pointer)
        }
        let effect = rule.exclude ? "the URLs it excludes open the app anyway" : "the URLs it should open stay in the browser"
        return unreachable.finding(message + "; \(effect).",
                                   fix: "Move \(noun) \(rule.index) before \(noun) \(earlier.index) so it takes precedence.", pointer: rule.pointer)
    }

    /// What the check needs to know about one rule.
    struct Shape {
        var index: Int
        var pointer: String
        /// The rule as written: the component, or the legacy path string.
        var written: JSONValue
        /// The rule as written, cut to a readable length for messages (see `Excerpt`). Worked out only
        /// for the rules a finding names: rendering every rule of a large file costs more than the check.
        var text: String {
            if case .string(let path) = written { return "\"\(Excerpt.of(path))\"" }
            return Excerpt.of(RuleCompiler.oneLine(written))
        }
        var exclude: Bool
        /// The path pattern with leading and trailing slashes trimmed (folded when case-insensitive); nil = any path.
        var path: String?
        /// The query and fragment values as written; nil = anything.
        var query: JSONValue?
        var fragment: JSONValue?
        var queryIsUniversal: Bool
        var fragmentIsUniversal: Bool
        var caseSensitive: Bool
        var percentEncoded: Bool
        /// What `covers` needs of the path, worked out once per rule (not once per pair of rules: a file
        /// with thousands of rules compares each with up to `maxBroadCandidates` + `maxSamePathCandidates`).
        var facts = PathFacts(nil)

        /// A component; nil when it never matches (a value of the wrong type), so it covers nothing and
        /// being unreachable does not matter.
        init?(component value: JSONValue, defaults: [JSONObject?], index: Int, pointer: String) {
            guard let object = value.objectValue else { return nil }
            self.index = index
            self.pointer = pointer
            written = value
            exclude = object["exclude"]?.boolValue == true
            caseSensitive = RuleCompiler.setting("caseSensitive", object, defaults)
            percentEncoded = RuleCompiler.setting("percentEncoded", object, defaults)
            if let pathValue = object["/"] {
                guard let text = pathValue.stringValue else { return nil }
                let trimmed = CompiledPath.trimmed(text)
                // Folding would merge variable names ($(Food), $(food)); such paths are compared as written.
                path = caseSensitive || ASCIISearch.contains("$(", in: trimmed) ? trimmed : GlobPattern.folded(trimmed)
            }
            query = object["?"]
            fragment = object["#"]
            if let fragment, fragment.stringValue == nil { return nil }
            switch query {
            case nil: queryIsUniversal = true
            case .string(let text)?: queryIsUniversal = Shape.isAllStars(text)
            case .object(let dictionary)?:
                let values = dictionary.members.map(\.value)
                // A dictionary with a non-string value is ignored; "*" also matches a missing item.
                queryIsUniversal = values.contains { $0.stringValue == nil } || values.allSatisfy { Shape.isAllStars($0.stringValue ?? "") }
            default: return nil
            }
            fragmentIsUniversal = fragment.map { Shape.isAllStars($0.stringValue ?? "") } ?? true
            facts = PathFacts(path)
        }

        /// A legacy path (always case-sensitive and compared as written).
        init?(path value: JSONValue, index: Int, pointer: String) {
            guard let text = value.stringValue else { return nil }
            self.index = index
            self.pointer = pointer
            written = value
            exclude = text.hasPrefix("NOT ")
            path = CompiledPath.trimmed(exclude ? String(text.dropFirst(4)) : text)
            queryIsUniversal = true
            fragmentIsUniversal = true
            caseSensitive = true
            percentEncoded = true
            facts = PathFacts(path)
        }

        static func isAllStars(_ text: String) -> Bool { !text.isEmpty && text.allSatisfy { $0 == "*" } }

        var pathIsUniversal: Bool { path.map(Shape.isAllStars) ?? true }
        /// Whether this rule can cover rules with another path text: no path, or `prefix*` (see `covers`).
        var isBroad: Bool { path == nil || facts.broadPrefix != nil }
        var isUniversal: Bool { pathIsUniversal && queryIsUniversal && fragmentIsUniversal }

        /// True when every URL `other` matches is matched by this rule too (provably, from the text).
        func covers(_ other: Shape) -> Bool {
            guard caseSensitive == other.caseSensitive, percentEncoded == other.percentEncoded else { return false }
            // The paths first: comparing text is cheap, comparing query dictionaries (JSON values) is not,
            // and most pairs differ in their paths.
            if let mine = path {
                guard let theirs = other.path else { return false }
                if mine != theirs {
                    // "prefix*", with no other wildcard or variable in the prefix.
                    guard let prefix = facts.broadPrefix else { return false }
                    let covered = other.facts.forms.allSatisfy { form in
                        form.fixed.hasPrefix(prefix) || (form.exact && form.fixed == facts.broadTail)
                    }
                    guard covered else { return false }
                }
            }
            return (queryIsUniversal || query == other.query) && (fragmentIsUniversal || fragment == other.fragment)
        }

        /// A path's text as `covers` reads it.
        struct PathFacts {
            /// For `prefix*` with no other wildcard or variable: `prefix`, and `prefix` without its
            /// trailing slashes when it ends with "/" (Apple's optional trailing `/*`); else nil.
            var broadPrefix: String?
            var broadTail: String?
            /// The strings the pattern matches, as forms that must each start with the coverer's
            /// prefix: the pattern's fixed start, `exact` when the pattern has no wildcard (one string);
            /// with a trailing `/*`, the shorter form without it as well.
            var forms: [(fixed: String, exact: Bool)] = []

            init(_ path: String?) {
                guard let path else { return }
                func form(_ pattern: String) -> (fixed: String, exact: Bool) {
                    let fixed = Shape.fixedPrefix(pattern)
                    return (fixed, fixed == pattern)
                }
                let first = form(path)
                forms = [first]
                if path.hasSuffix("/*") { forms.append(form(CompiledPath.trimmed(String(path.dropLast(2))))) }
                // `prefix*` with nothing else to match in `prefix`: its fixed start stops at the last `*`.
                if path.hasSuffix("*"), first.fixed.utf8.count == path.utf8.count - 1 {
                    let prefix = first.fixed
                    broadPrefix = prefix
                    broadTail = prefix.hasSuffix("/") ? CompiledPath.trimmed(prefix) : nil
                }
            }
        }

        /// The text before the first `*`, `?` or `$(` (a slice of the pattern, not rebuilt a character at a time).
        static func fixedPrefix(_ pattern: String) -> String {
            var previous: Character?
            var index = pattern.startIndex
            while index < pattern.endIndex {
                let character = pattern[index]
                if character == "*" || character == "?" { return String(pattern[..<index]) }
                if previous == "$" && character == "(" { return String(pattern[..<pattern.index(before: index)]) }
                previous = character
                index = pattern.index(after: index)
            }
            return pattern
        }
    }
}
