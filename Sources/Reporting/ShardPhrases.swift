import Audit

/// What the HTML and Markdown reports say of a merged report's missing shards (`missingShards`).
enum ShardPhrases {
    /// "shards 2 and 4 were not merged", "shard 3 was not merged", "shards 2, 3 and 5 and 97 more
    /// were not merged"; "a shard of the list was not merged" for a report that names none (one
    /// written before they were recorded).
    static func notMerged(_ report: AuditReport) -> String {
        let listed = report.missingShards ?? []
        guard !listed.isEmpty else { return "a shard of the list was not merged" }
        let omitted = report.missingShardsOmitted ?? 0
        let numbers = listed.map(String.init)
        var names = numbers.count == 1 ? numbers[0] : numbers.dropLast().joined(separator: ", ") + " and " + numbers[numbers.count - 1]
        if omitted > 0 { names += " and \(omitted) more" }
        let plural = listed.count > 1 || omitted > 0
        return (plural ? "shards " : "shard ") + names + (plural ? " were" : " was") + " not merged"
    }
}

extension String {
    /// The string with its first character upper-cased (a phrase that starts a sentence).
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
