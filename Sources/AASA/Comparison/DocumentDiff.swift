/// What changed between two versions of an AASA file, and which URLs it changes for a device.
///
/// The changes are listed in the order Apple reads the file: the services (`applinks`,
/// `webcredentials`, `appclips`, `activitycontinuation`), then in `applinks` the apps, the defaults
/// and variables, and each details entry with its rules in order. Entries are paired by the apps
/// they list; rules by their content (key order ignored), so a rule that only moved is `moved`.
/// The decisions come from `URLMatcher` with both files: for the URLs given, or, without any, one
/// `SampleURL` per rule of either file.
public struct DocumentDiff: Sendable {
    public var changes: [DocumentChange]
    /// How many URLs were decided with both files.
    public var urlsDecided: Int
    /// The URLs whose decision differs, in the order they were decided.
    public var decisionChanges: [DecisionChange]
    /// Whether the URLs were written from the rules (no URLs given).
    public var sampled: Bool

    /// Compares `old` with `new`; `urls` (paths or http(s) URLs) decided with both, or samples when
    /// nil. A URL that is neither is skipped and returned in `invalidURLs`.
    public static func compare(_ old: AASADocument, _ new: AASADocument, urls: [String]?) -> (diff: DocumentDiff, invalidURLs: [String]) {
        let changes = DocumentChanges.between(old, new)
        let sampled = urls == nil
        let list = urls ?? samples(old) + samples(new)
        var seen = Set<String>()
        let oldMatcher = URLMatcher(old), newMatcher = URLMatcher(new)
        var decided = 0
        var changed: [DecisionChange] = []
        var invalid: [String] = []
        for url in list where seen.insert(url).inserted {
            guard let parsed = try? MatchURL.parse(url) else {
                invalid.append(url)
                continue
            }
            decided += 1
            let before = oldMatcher.decide(parsed, text: url), after = newMatcher.decide(parsed, text: url)
            if DecisionChange.differs(before, after) { changed.append(DecisionChange(url: url, old: before, new: after)) }
        }
        return (DocumentDiff(changes: changes, urlsDecided: decided, decisionChanges: changed, sampled: sampled), invalid)
    }

    /// One sample URL per rule of the document's applinks entries, in document order.
    public static func samples(_ document: AASADocument) -> [String] {
        let variables = RuleCompiler.variables(document.applinks?["substitutionVariables"]?.objectValue)
        var urls: [String] = []
        for entry in document.detailsEntries {
            guard let object = entry.object else { continue }
            if let components = object["components"]?.arrayValue {
                urls += components.compactMap { SampleURL.forComponent($0, variables: variables) }
            } else if let paths = object["paths"]?.arrayValue {
                urls += paths.compactMap(\.stringValue).map(SampleURL.forPath)
            }
        }
        return urls
    }
}
