import Foundation

/// `--keep N`: deletes old `reports/<UTC time>` folders, keeping the N newest.
///
/// Deletes only what this tool made: a real folder (not a symlink) directly in the reports root,
/// named like `20261129T190000Z` or `20261129T190000Z-2`, holding nothing but report files (regular
/// files with the names this tool writes: not folders or links that only borrow such a name). Never
/// the folder `reports/latest` points to, never the one just written.
enum ReportPruner {
    /// What could not be deleted, or was left alone, for a warning.
    struct Note: CustomStringConvertible {
        var path: String
        var reason: String
        var description: String { "--keep: left \(path) in place: \(reason)" }
    }

    /// Names of report folders: `yyyyMMdd'T'HHmmss'Z'` with an optional `-N` suffix.
    static func isRunFolderName(_ name: String) -> Bool {
        let scalars = Array(name.unicodeScalars)
        guard scalars.count >= 16 else { return false }
        func digits(_ range: Range<Int>) -> Bool { range.allSatisfy { ("0"..."9").contains(scalars[$0]) } }
        guard digits(0..<8), scalars[8] == "T", digits(9..<15), scalars[15] == "Z" else { return false }
        if scalars.count == 16 { return true }
        return scalars.count > 17 && scalars[16] == "-" && digits(17..<scalars.count)
    }

    /// Files a run writes into its folder, and the temporary names they have while being written.
    static func isReportFile(_ name: String) -> Bool {
        if ReportFiles.names.values.contains(name) { return true }
        return name.hasPrefix(".report.") && name.contains(".tmp-")
    }

    /// Removes the run folders beyond the `keep` newest; returns notes about folders left alone.
    /// `current` (the folder just written) is always kept.
    static func prune(keep: Int, current: URL, reportsRoot: String = "reports") -> (removed: [String], notes: [Note]) {
        let manager = FileManager.default
        let root = URL(fileURLWithPath: reportsRoot)
        guard let names = try? manager.contentsOfDirectory(atPath: root.path) else { return ([], []) }
        let latest = try? manager.destinationOfSymbolicLink(atPath: root.appendingPathComponent("latest").path)
        let protected: Set<String> = [current.lastPathComponent, latest.map { URL(fileURLWithPath: $0).lastPathComponent } ?? ""]
        var runs: [String] = []
        for name in names where isRunFolderName(name) {
            let path = root.appendingPathComponent(name).path
            guard let type = try? manager.attributesOfItem(atPath: path)[.type] as? FileAttributeType, type == .typeDirectory else { continue }
            runs.append(name)
        }
        // The names sort in time order (fixed-width UTC stamps; "-N" runs come after their second).
        runs.sort { (stamp($0), suffix($0)) > (stamp($1), suffix($1)) }
        var removed: [String] = [], notes: [Note] = []
        var kept = 0
        for name in runs {
            // The current and latest folders count among the N kept, and are kept whatever N is.
            if protected.contains(name) || kept < keep {
                kept += 1
                continue
            }
            let folder = root.appendingPathComponent(name)
            let shown = "\(reportsRoot)/\(name)"
            let contents = (try? manager.contentsOfDirectory(atPath: folder.path)) ?? []
            // By name and by kind: a folder (or link) named report.json is not a report this tool wrote,
            // and removing the run folder would delete whatever it holds.
            if let stranger = contents.first(where: { name in
                guard isReportFile(name) else { return true }
                let type = (try? manager.attributesOfItem(atPath: folder.appendingPathComponent(name).path))?[.type] as? FileAttributeType
                return type != .typeRegular
            }) {
                notes.append(Note(path: shown, reason: "it holds \(stranger), which this tool did not write"))
                continue
            }
            do {
                try manager.removeItem(at: folder)
                removed.append(shown)
            } catch {
                notes.append(Note(path: shown, reason: error.localizedDescription))
            }
        }
        return (removed, notes)
    }

    private static func stamp(_ name: String) -> Substring { name.prefix(16) }
    private static func suffix(_ name: String) -> Int { name.count > 17 ? Int(name.dropFirst(17)) ?? 0 : 0 }
}
