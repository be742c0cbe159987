import Audit
import Foundation
import Reporting
import Run

/// The words for what a run tells (`RunEvent`): the one place they are written. Lines without the
/// program's name; the console puts it in front and keeps control characters off the terminal.
enum RunEventText {
    /// The lines `event` is shown as (one, but for a list of input problems). `quiet`: a note
    /// (`RunEvent.isNote`) says `note:` first, in place of `warning:`.
    static func lines(for event: RunEvent, quiet: Bool = false) -> [String] {
        if case .inputProblems(let problems, let total) = event {
            return ConsoleSummary.inputProblemLines(problems, total: total)
        }
        let text = sentence(for: event)
        if quiet && event.isNote { return ["note: " + text] }
        return [event.level == .warning ? "warning: " + text : text]
    }

    /// The sentence of `event` (after "warning: " for a warning).
    static func sentence(for event: RunEvent) -> String {
        switch event {
        case .waitingForDomainList(let path):
            return "waiting for the domain list \(path) (a pipe) to be written; Ctrl-C stops"
        case .waitingForRunLock(let folder, let holder, let seconds):
            return "another run writes to \(folder) (\(holder.map(\.description) ?? "its holder is not named")); "
                + "waiting up to \(seconds) s for it to end (--wait); Ctrl-C stops"
        case .runLockHeld(let folder, let holder, let waited):
            return "another run writes to \(folder) (\(holder.map(\.description) ?? "its holder is not named"))"
                + (waited > 0 ? " and did not end within \(waited) s (--wait)" : "")
                + ": nothing was audited or written; one run at a time per reports folder (--wait SECONDS waits for it)"
        case .runLockUnusable(let folder, let reason):
            return "cannot lock the reports folder \(folder): \(reason); nothing was audited or written"
        case .domainListUnreadable(let path, let reason, let isDefault):
            return "cannot read the domain list \(path): \(reason)"
                + (isDefault ? " (name domains as arguments, or create domains.txt with one domain per line)" : "")
        case .domainListRefused(let error):
            return "\(error)"
        case .inputProblems(let problems, let total):
            return ConsoleSummary.inputProblemLines(problems, total: total).joined(separator: "\n")
        case .duplicatesAuditedOnce(let count):
            return "\(count) duplicate line\(count == 1 ? "" : "s") audited once"
        case .entryNote(let place, let note):
            return "\(place): \(note)"
        case .caFileUnusable(let path, let problem):
            return "--cacert \(path): \(problem)"
        case .noDomains(let domains):
            switch domains {
            case .file(let path, _): return "no domains to audit in \(path)"
            case .arguments: return "no domains to audit in the arguments"
            }
        case .shardSelected(let shard, let selected, let total):
            return "shard \(shard): \(selected) of the list's \(total) domains"
        case .oneOffCheck(let root, let hostsFromEntitlements, let notCompared):
            let what = hostsFromEntitlements ? "the hosts the apps name" : "the domains given as arguments"
            return "one-off check of \(what): \(root)/latest is not moved"
                + (notCompared ? " and the run is not compared with it (--baseline FILE compares it)" : "")
        case .androidAppNotes(let apk, let dropped, let unresolved):
            var lines = unresolved.map { "--apk \(apk): \($0)" }
            if !dropped.isEmpty {
                lines.append("--apk \(apk): Android drops the App Links host\(dropped.count == 1 ? "" : "s") \(dropped.joined(separator: ", ")): not a domain name")
            }
            return lines.joined(separator: "\n")
        case .appLinkHostsCompared(let appleOnly, let androidOnly, let shared):
            guard !appleOnly.isEmpty || !androidOnly.isEmpty else {
                return shared == 1 ? "the iOS and Android apps claim the same link host" : "the iOS and Android apps claim the same \(shared) link hosts"
            }
            // A two-column table: what one platform's apps claim and the other's do not.
            let left = ["claimed by the iOS apps only"] + appleOnly, right = ["claimed by the Android apps only"] + androidOnly
            let width = left.map(\.count).max() ?? 0
            var lines = ["link hosts the iOS apps (applinks:) and the Android apps (autoVerify) do not both claim (\(shared) claimed by both):"]
            for row in 0..<max(left.count, right.count) {
                let first = row < left.count ? left[row] : ""
                let second = row < right.count ? right[row] : ""
                lines.append("  " + first.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + second)
            }
            return lines.map { $0.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }.joined(separator: "\n")
        case .outputUnwritable(let error, let work):
            return "\(error) (nothing was \(work == .audit ? "audited" : "merged"))"
        case .baselineUnusable(let problem):
            return "\(problem)"
        case .comparingWithBaseline(let path, let generatedAt):
            return "comparing with \(path) (run of \(generatedAt.formatted(.iso8601)))"
        case .failOnNewComparesNothing(let reason):
            let why = switch reason {
            case .noBaselineNorHistory: "there is no baseline to compare with"
            case .historyUnreadable(let path): "there is no baseline and the history \(path) could not be read (above)"
            case .noEarlierRun(let path): "there is no baseline and no earlier run of the list in the history \(path) to compare with"
            }
            return "--fail-on new: \(why), so every failing domain fails the run (as with --fail-on any)"
        case .spoolUnavailable(let error):
            return "\(error); the results are kept in memory"
        case .fetchFailed(let error), .reportsNotWritten(let error):
            return "\(error)"
        case .proxyFailed(let failure):
            return "\(TerminalText.sanitize(failure.description)); the run stopped: no domain is judged through a proxy that cannot be used, "
                + "and no report was written"
        case .reportNotAssembled(let error):
            return "\(error) (no report was written)"
        case .historyNotRead(let path, let error):
            return "history \(path) not read: \(error) (the reports are written without it)"
        case .keepLeftInPlace(let note):
            return "\(note)"
        case .latestNotMovedNothingAudited(let root):
            return "no domain was audited: \(root)/latest was not moved"
        case .runNotRecorded(let path, let error):
            return "this run was not recorded in the history \(path): \(error) (its reports were written)"
        case .stopped(let signal, let stopped):
            return stoppedSentence(signal, stopped)
        case .shardReportUnusable(let file, .notAReport(let detail)):
            return "\(file): not an aasa-audit report.json (\(detail))"
        case .shardReportUnusable(let file, let problem):
            return "\(file): \(problem)"
        case .mergeRefused(let error):
            return "\(error)"
        case .mergeWarning(let warning):
            return warning
        case .shardsMissing(let shown, let count, let shards):
            let more = count - shown.count
            return "shard\(count == 1 ? "" : "s") " + shown.map { "\($0)/\(shards)" }.joined(separator: ", ")
                + (more > 0 ? " and \(more) more" : "") + " not given: the merged report is incomplete"
        case .shardInterrupted(let source):
            return "\(source): this shard was interrupted (\"complete\": false): the merged report is incomplete"
        }
    }

    /// "stopped by SIGTERM …": what the signal stopped, then what was kept.
    static func stoppedSentence(_ signal: RunEvent.StopSignal, _ stopped: RunEvent.Stopped) -> String {
        let what = switch stopped {
        case .waitingForDomainList(let path):
            " while waiting for the domain list \(path): nothing was audited or written"
        case .readingApps:
            " while reading the apps' entitlements: nothing was audited or written"
        case .audit(let audited, let notAudited, let latestNotMovedIn):
            (notAudited == 0
                ? ": every domain had already been checked; the report is complete"
                : ": \(audited) of \(audited + notAudited) domains checked; "
                    + "the report is marked \"complete\": false and lists the \(notAudited) not audited under \"notAudited\"")
                + (latestNotMovedIn.map { "; \($0)/latest was not moved" } ?? "")
        case .mergeBeforeWriting:
            ": nothing was written"
        case .waitingForRunLock:
            " while waiting for another run to end: nothing was audited or written"
        case .mergeAfterWriting:
            ": the merged reports were written whole first"
        }
        return "stopped by \(signal == .terminate ? "SIGTERM" : "SIGINT")" + what
    }
}
