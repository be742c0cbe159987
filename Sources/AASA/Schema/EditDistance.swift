/// Levenshtein distance, for "did you mean" suggestions on misspelled keys.
enum EditDistance {
    /// The number of single-character insertions, deletions and substitutions turning `a` into `b`.
    static func between(_ a: String, _ b: String) -> Int {
        let source = Array(a), target = Array(b)
        if source.isEmpty { return target.count }
        if target.isEmpty { return source.count }
        // Two rows of the classic table are enough: each row only reads the one before it.
        var previous = Array(0...target.count)
        var current = Array(repeating: 0, count: target.count + 1)
        for i in 1...source.count {
            current[0] = i
            for j in 1...target.count {
                let substitution = previous[j - 1] + (source[i - 1] == target[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[target.count]
    }
}
