/// The structural differences between two documents (see `DocumentDiff`).
enum DocumentChanges {
    static func between(_ old: AASADocument, _ new: AASADocument) -> [DocumentChange] {
        var changes: [DocumentChange] = []
        for service in AASADocument.serviceKeys {
            let pointer = JSONPointer.appending("", service)
            switch (old.root[service], new.root[service]) {
            case (nil, nil):
                continue
            case (nil, .some):
                changes.append(DocumentChange(kind: .added, subject: "service", pointer: pointer, summary: "\(service) added"))
            case (.some, nil):
                changes.append(DocumentChange(kind: .removed, subject: "service", pointer: pointer, summary: "\(service) removed"))
            case (.some(let before), .some(let after)):
                guard before != after else { continue }
                if service == "applinks", let oldLinks = before.objectValue, let newLinks = after.objectValue {
                    changes += applinks(old, new, oldLinks, newLinks)
                } else {
                    changes += listedApps(service, before, after)
                }
            }
        }
        return changes
    }

    /// webcredentials, appclips, activitycontinuation: the apps they list, else the value as a whole.
    static func listedApps(_ service: String, _ before: JSONValue, _ after: JSONValue) -> [DocumentChange] {
        let pointer = JSONPointer.appending(JSONPointer.appending("", service), "apps")
        let others = { (value: JSONValue) in value.objectValue.map { JSONObject(members: $0.members.filter { $0.key != "apps" }) } }
        guard let oldApps = before.objectValue?["apps"]?.arrayValue?.compactMap(\.stringValue),
              let newApps = after.objectValue?["apps"]?.arrayValue?.compactMap(\.stringValue),
              others(before) == others(after)
        else {
            return [DocumentChange(kind: .changed, subject: "service", pointer: JSONPointer.appending("", service), summary: "\(service) changed")]
        }
        var changes: [DocumentChange] = []
        for app in newApps where !oldApps.contains(app) {
            changes.append(DocumentChange(kind: .added, subject: "app", pointer: pointer, summary: "\(service): app \(app) added"))
        }
        for app in oldApps where !newApps.contains(app) {
            changes.append(DocumentChange(kind: .removed, subject: "app", pointer: pointer, summary: "\(service): app \(app) removed"))
        }
        if changes.isEmpty {
            changes.append(DocumentChange(kind: .changed, subject: "service", pointer: pointer, summary: "\(service): apps reordered"))
        }
        return changes
    }

    /// One details entry as the matcher reads it.
    struct Entry {
        var position: Int
        var pointer: String
        var apps: [String]
        var kind: String
        var rules: [JSONValue]
        var defaults: JSONValue?

        var label: String { "details \(position) (\(apps.joined(separator: ", ")))" }
    }

    static func entries(_ document: AASADocument) -> [Entry] {
        var details = document.detailsEntries
        if details.first?.dictionaryKey != nil { details.sort { ($0.dictionaryKey ?? "") < ($1.dictionaryKey ?? "") } }
        return details.enumerated().compactMap { position, entry in
            guard let object = entry.object else { return nil }
            var apps: [String] = object["appIDs"]?.arrayValue?.compactMap(\.stringValue) ?? []
            if let single = object["appID"]?.stringValue, !apps.contains(single) { apps.append(single) }
            if let key = entry.dictionaryKey, !apps.contains(key) { apps.append(key) }
            // iOS 13+ ignores `paths` when `components` is present, as the matcher does.
            if let components = object["components"]?.arrayValue {
                return Entry(position: position, pointer: entry.pointer, apps: apps, kind: "components", rules: components, defaults: object["defaults"])
            }
            return Entry(position: position, pointer: entry.pointer, apps: apps, kind: "paths",
                         rules: object["paths"]?.arrayValue ?? [], defaults: object["defaults"])
        }
    }

    static func applinks(_ old: AASADocument, _ new: AASADocument, _ before: JSONObject, _ after: JSONObject) -> [DocumentChange] {
        var changes: [DocumentChange] = []
        let oldApps = URLMatcher(old).appIDs, newApps = URLMatcher(new).appIDs
        for app in newApps where !oldApps.contains(app) {
            changes.append(DocumentChange(kind: .added, subject: "app", pointer: "/applinks/details", summary: "applinks: app \(app) added"))
        }
        for app in oldApps where !newApps.contains(app) {
            changes.append(DocumentChange(kind: .removed, subject: "app", pointer: "/applinks/details", summary: "applinks: app \(app) removed"))
        }
        if before["defaults"] != after["defaults"] {
            changes.append(DocumentChange(kind: .changed, subject: "defaults", pointer: "/applinks/defaults",
                                          summary: "applinks.defaults changed: \(oneLine(before["defaults"])) → \(oneLine(after["defaults"]))"))
        }
        changes += variables(before["substitutionVariables"]?.objectValue, after["substitutionVariables"]?.objectValue)
        changes += entryChanges(entries(old), entries(new))
        // Keys compared above are done; any other (the legacy "apps", a key Apple does not know) is
        // still named, so two files that differ are never said to be the same.
        let compared: Set<String> = ["defaults", "substitutionVariables", "details"]
        var seen = Set<String>()
        for key in after.keys + before.keys where !compared.contains(key) && seen.insert(key).inserted {
            let pointer = JSONPointer.appending("/applinks", key)
            switch (before[key], after[key]) {
            case (nil, let value?):
                changes.append(DocumentChange(kind: .added, subject: "service", pointer: pointer, summary: "applinks.\(key) added: \(oneLine(value))"))
            case (let value?, nil):
                changes.append(DocumentChange(kind: .removed, subject: "service", pointer: pointer, summary: "applinks.\(key) removed (was \(oneLine(value)))"))
            case (let was?, let now?) where was != now:
                changes.append(DocumentChange(kind: .changed, subject: "service", pointer: pointer, summary: "applinks.\(key) changed: \(oneLine(was)) → \(oneLine(now))"))
            default:
                break
            }
        }
        // `details` in a shape no entry comes from (not an array or object) changes nothing above.
        if before["details"] != after["details"], entries(old).isEmpty, entries(new).isEmpty {
            changes.append(DocumentChange(kind: .changed, subject: "entry", pointer: "/applinks/details",
                                          summary: "applinks.details changed: \(oneLine(before["details"])) → \(oneLine(after["details"]))"))
        }
        return changes
    }

    static func variables(_ before: JSONObject?, _ after: JSONObject?) -> [DocumentChange] {
        let oldVariables = before?.effectiveMembers ?? [:], newVariables = after?.effectiveMembers ?? [:]
        var changes: [DocumentChange] = []
        var names = (after?.keys ?? []).filter { oldVariables[$0] != nil || newVariables[$0] != nil }
        names += (before?.keys ?? []).filter { newVariables[$0] == nil }
        var seen = Set<String>()
        for name in names where seen.insert(name).inserted {
            let pointer = JSONPointer.appending("/applinks/substitutionVariables", name)
            switch (oldVariables[name], newVariables[name]) {
            case (nil, let value?):
                changes.append(DocumentChange(kind: .added, subject: "variable", pointer: pointer, summary: "variable $(\(name)) added: \(oneLine(value))"))
            case (let value?, nil):
                changes.append(DocumentChange(kind: .removed, subject: "variable", pointer: pointer, summary: "variable $(\(name)) removed (was \(oneLine(value)))"))
            case (let was?, let now?) where was != now:
                changes.append(DocumentChange(kind: .changed, subject: "variable", pointer: pointer, summary: "variable $(\(name)) changed: \(oneLine(was)) → \(oneLine(now))"))
            default:
                break
            }
        }
        return changes
    }

    /// Entries paired by the apps they list (the first unpaired old entry with the same apps).
    static func entryChanges(_ old: [Entry], _ new: [Entry]) -> [DocumentChange] {
        var changes: [DocumentChange] = []
        var paired = Set<Int>()
        var removedShown = Set<Int>()
        for entry in new {
            guard let match = old.indices.first(where: { !paired.contains($0) && Set(old[$0].apps) == Set(entry.apps) }) else {
                changes.append(DocumentChange(kind: .added, subject: "entry", pointer: entry.pointer,
                                              summary: "\(entry.label) added, \(entry.kind) \(entry.rules.count)"))
                continue
            }
            paired.insert(match)
            // Removed entries before this one's partner are listed where they were.
            for index in old.indices where index < match && !paired.contains(index) && removedShown.insert(index).inserted {
                changes.append(removed(old[index]))
            }
            let before = old[match]
            if before.position != entry.position {
                changes.append(DocumentChange(kind: .moved, subject: "entry", pointer: entry.pointer,
                                              summary: "\(entry.label) moved from details \(before.position)"))
            }
            if before.kind != entry.kind {
                changes.append(DocumentChange(kind: .changed, subject: "entry", pointer: entry.pointer,
                                              summary: "\(entry.label): \(before.kind) replaced by \(entry.kind)"))
            }
            if before.defaults != entry.defaults {
                changes.append(DocumentChange(kind: .changed, subject: "defaults", pointer: entry.pointer + "/defaults",
                                              summary: "\(entry.label): defaults changed: \(oneLine(before.defaults)) → \(oneLine(entry.defaults))"))
            }
            changes += ruleChanges(before, entry)
        }
        for index in old.indices where !paired.contains(index) && !removedShown.contains(index) {
            changes.append(removed(old[index]))
        }
        return changes
    }

    static func removed(_ entry: Entry) -> DocumentChange {
        DocumentChange(kind: .removed, subject: "entry", pointer: entry.pointer, summary: "\(entry.label) removed, \(entry.kind) \(entry.rules.count)")
    }

    /// Above this many rules on each side of what differs, rules are compared by content alone (no
    /// longest common subsequence, whose table would be their product).
    static let alignmentLimit = 2_000

    /// Rules added, removed and moved, in the new entry's order (removed ones where they were).
    static func ruleChanges(_ old: Entry, _ new: Entry) -> [DocumentChange] {
        let before = old.rules, after = new.rules
        guard before != after || old.kind != new.kind else { return [] }
        let singular = new.kind == "components" ? "component" : "path"
        // Trim the common start and end: most edits touch a few rules of a long list.
        var start = 0
        while start < before.count, start < after.count, before[start] == after[start] { start += 1 }
        var endOld = before.count, endNew = after.count
        while endOld > start, endNew > start, before[endOld - 1] == after[endNew - 1] { endOld -= 1; endNew -= 1 }
        let kept = commonSubsequence(Array(before[start..<endOld]), Array(after[start..<endNew]))
        var removed = Set((start..<endOld).filter { !kept.old.contains($0 - start) })
        let added = (start..<endNew).filter { !kept.new.contains($0 - start) }
        // (position, change) so removed rules sort in where they stood.
        var listed: [(position: Int, change: DocumentChange)] = []
        for index in added {
            let pointer = JSONPointer.appending(JSONPointer.appending(new.pointer, new.kind), index)
            if let from = removed.sorted().first(where: { before[$0] == after[index] }) {
                removed.remove(from)
                listed.append((index, DocumentChange(kind: .moved, subject: "rule", pointer: pointer,
                                                     summary: "\(new.label): \(singular) \(index) moved from \(from) \(oneLine(after[index]))")))
            } else {
                listed.append((index, DocumentChange(kind: .added, subject: "rule", pointer: pointer,
                                                     summary: "\(new.label): \(singular) \(index) added \(oneLine(after[index]))")))
            }
        }
        for index in removed {
            let pointer = JSONPointer.appending(JSONPointer.appending(old.pointer, old.kind), index)
            listed.append((index, DocumentChange(kind: .removed, subject: "rule", pointer: pointer,
                                                 summary: "\(new.label): \(singular) \(index) removed \(oneLine(before[index]))")))
        }
        return listed.enumerated().sorted { ($0.element.position, $0.offset) < ($1.element.position, $1.offset) }.map(\.element.change)
    }

    /// The indexes of one longest common subsequence of `a` and `b` in each (semantic equality);
    /// none above `alignmentLimit`, so every rule there counts as removed and added (or moved).
    static func commonSubsequence(_ a: [JSONValue], _ b: [JSONValue]) -> (old: Set<Int>, new: Set<Int>) {
        guard !a.isEmpty, !b.isEmpty, a.count <= alignmentLimit, b.count <= alignmentLimit else { return ([], []) }
        let width = b.count + 1
        var table = [Int32](repeating: 0, count: (a.count + 1) * width)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                table[i * width + j] = a[i] == b[j] ? table[(i + 1) * width + j + 1] + 1
                    : max(table[(i + 1) * width + j], table[i * width + j + 1])
            }
        }
        var oldKept = Set<Int>(), newKept = Set<Int>()
        var i = 0, j = 0
        while i < a.count, j < b.count {
            if a[i] == b[j] {
                oldKept.insert(i)
                newKept.insert(j)
                i += 1
                j += 1
            } else if table[(i + 1) * width + j] >= table[i * width + j + 1] {
                i += 1
            } else {
                j += 1
            }
        }
        return (oldKept, newKept)
    }

    /// A value on one line as JSON (strings quoted), cut for messages (`Excerpt`); "none" when absent.
    static func oneLine(_ value: JSONValue?) -> String {
        guard let value else { return "none" }
        if case .string = value { return Excerpt.of(value.formatted()) }
        return Excerpt.of(RuleCompiler.oneLine(value))
    }
}
