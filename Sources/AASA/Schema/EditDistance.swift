/// Levenshtein distance, for telling a misspelled key (`applink`, `appIds`) from an unknown one, and a
/// mistyped subcommand or option (`validat`, `--strcit`) from a domain or an unknown option.
public enum EditDistance {
    /// The number of single-character insertions, deletions and substitutions turning `a` into `b`.
    public static func between(_ a: String, _ b: String) -> Int {
        let source = Array(a)
        let target = Array(b)
        if source.isEmpty { return target.count }
        if target.isEmpty { return source.count }
        // Two rows of the classic table are enough.
        var previous = Array(0...target.count)
        var current = [Int](repeating: 0, count: target.count + 1)
        for i in 1...source.count {
            current[0] = i
            for j in 1...target.count {
                let substitution = previous[j - 1] + (source[i - 1] == target[j - 1] ? 0 : 1)
                current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
            }
            swap(&previous, &current)
        }
        return previous[target.count]
    }

    /// The candidate `key` most likely stands for: equal ignoring case, or within `maximum` edits
    /// ignoring case. Nil when nothing is that close. Ties go to the earlier candidate.
    public static func nearMiss(of key: String, among candidates: [String], maximum: Int = 2) -> String? {
        let lowered = key.lowercased()
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = between(lowered, candidate.lowercased())
            if distance <= maximum && distance < (best?.distance ?? Int.max) {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }
}
