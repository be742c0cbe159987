/// The keys a component object may hold, how each must be typed, and the near misses people write instead.
enum ComponentKeyNames {
    /// The keys that hold patterns; a component with none of them matches every URL.
    static let patternKeys = ["/", "?", "#"]
    /// The keys whose value must be a JSON boolean.
    static let booleanKeys = ["exclude", "caseSensitive", "percentEncoded"]
    /// Every documented component key, in Apple's order.
    static let all = ["/", "?", "#", "exclude", "comment", "caseSensitive", "percentEncoded"]
    /// The keys Apple documents for `defaults`.
    static let defaultsKeys = ["caseSensitive", "percentEncoded"]

    /// Words people write for the one-character keys (`"path": "/x"` instead of `"/": "/x"`).
    private static let words = ["/": "path", "?": "query", "#": "fragment"]

    /// The documented key that `key` is most likely a misspelling of, among `candidates`; nil when none is close.
    ///
    /// Keys are compared case-insensitively with `_`, `-` and spaces removed, so `Exclude` and
    /// `case_sensitive` are caught; beyond that an edit distance of up to 2 counts as close, but only
    /// 1 for short names, where 2 edits would turn unrelated words (`page`, `path`) into matches.
    static func suggestion(for key: String, among candidates: [String] = all) -> String? {
        let typed = normalized(key)
        guard !typed.isEmpty, !candidates.contains(key) else { return nil }
        var best: (key: String, distance: Int)?
        for candidate in candidates {
            let word = normalized(words[candidate] ?? candidate)
            let distance = typed == word ? 0 : EditDistance.between(typed, word)
            let allowed = word.count >= 6 ? 2 : 1
            guard distance <= allowed else { continue }
            if best == nil || distance < best!.distance { best = (candidate, distance) }
        }
        return best?.key
    }

    private static func normalized(_ key: String) -> String {
        String(key.lowercased().filter { $0 != "_" && $0 != "-" && $0 != " " })
    }

    /// Message and fix for a boolean key whose value is not a boolean, naming the common mistakes
    /// (the string "true", the number 1) so the reader sees exactly what to change.
    static func booleanTypeProblem(key: String, value: JSONValue, in place: String) -> (message: String, fix: String) {
        let name = "\"\(key)\" \(place)"
        if let text = value.stringValue {
            let word = trimmed(text).lowercased()
            if word == "true" || word == "false" {
                return ("\(name) is the string \"\(text)\", not the boolean \(word): quoting true or false is a common mistake, and Apple documents a JSON boolean here.",
                        "Remove the quotes: \"\(key)\": \(word).")
            }
        }
        if let number = value.numberValue?.intValue, number == 0 || number == 1 {
            let word = number == 1 ? "true" : "false"
            return ("\(name) is the number \(number), not a boolean; JSON booleans are written true and false.",
                    "Write \"\(key)\": \(word).")
        }
        return ("\(name) is \(article(value.typeName)) \(value.typeName); it must be a boolean (true or false).",
                "Write \"\(key)\": true or \"\(key)\": false.")
    }

    /// "a" or "an" for a JSON type name.
    static func article(_ typeName: String) -> String {
        typeName.first.map { "aeiou".contains($0) } == true ? "an" : "a"
    }

    /// `text` without leading and trailing whitespace (the pure module does without Foundation).
    static func trimmed(_ text: String) -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = text.firstIndex(where: { !isSpace($0) }),
              let last = text.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(text[first...last])
    }
}
