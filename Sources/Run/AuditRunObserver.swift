import Audit
import Foundation

/// What a run (an audit or a merge) tells the one running it, as it goes. The executable renders
/// the events (with its name in front), draws the progress line, and prints the summary; tests
/// record them.
public protocol AuditRunObserver {
    /// Something the run has to say: a problem, a warning, a skipped line, which shard, why it ended.
    func event(_ event: RunEvent)
    /// Called after each domain finishes: `done` of `total`, from the fetch's thread.
    func progress(done: Int, of total: Int)
    /// The fetch is about to start (`total` domains), or has ended (`total` nil).
    func fetching(total: Int?)
    /// The report is made and about to be written: the summary, `--json` on stdout. A thrown error
    /// ends the run with status 2.
    func reportMade(_ report: AuditReport) throws
    /// The same, for a report whose domains are read one at a time. By default the report is read
    /// whole and handed to `reportMade(_:)`: an observer of long lists implements this.
    func reportMade(streamed report: StreamedReport) throws
    /// The reports were written into `directory`.
    func reportsWritten(in directory: URL)
}

extension AuditRunObserver {
    public func reportMade(streamed report: StreamedReport) throws {
        try reportMade(report.whole())
    }
}
