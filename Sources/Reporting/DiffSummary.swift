import AASA
import Foundation

/// Renders `diff`'s comparison for the terminal, or as JSON for scripts.
public enum DiffSummary {
    /// The changes, then the decisions that change, then a count.
    public static func render(_ diff: DocumentDiff, old: String, new: String) -> String {
        var out = ""
        if diff.changes.isEmpty {
            out += "No change to the services, apps, entries or rules from \(TerminalText.sanitize(old)) to \(TerminalText.sanitize(new)).\n"
        } else {
            out += "\(Formatting.plural(diff.changes.count, "change")) from \(TerminalText.sanitize(old)) to \(TerminalText.sanitize(new)):\n"
            for change in diff.changes {
                out += ConsoleSummary.wrap(TerminalText.sanitize(change.summary), indent: "  ", hanging: "    ")
            }
        }
        let which = diff.sampled ? "sample \(diff.urlsDecided == 1 ? "URL" : "URLs") (one per rule)" : diff.urlsDecided == 1 ? "URL" : "URLs"
        if diff.decisionChanges.isEmpty {
            out += "No decision changes for the \(diff.urlsDecided) \(which) decided with both.\n"
        } else {
            out += "\(diff.decisionChanges.count) of \(diff.urlsDecided) \(which) change decision:\n"
            for change in diff.decisionChanges {
                out += ConsoleSummary.wrap(TerminalText.sanitize(change.description), indent: "  ", hanging: "    ")
            }
        }
        return out
    }

    /// The comparison as one JSON object (sorted keys).
    public static func json(_ diff: DocumentDiff, old: String, new: String) throws -> Data {
        struct Shape: Encodable {
            var old: String
            var new: String
            var changes: [DocumentChange]
            var urlsDecided: Int
            var sampled: Bool
            var decisionChanges: [DecisionChange]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(Shape(old: old, new: new, changes: diff.changes, urlsDecided: diff.urlsDecided,
                                        sampled: diff.sampled, decisionChanges: diff.decisionChanges))
    }
}
