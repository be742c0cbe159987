import Audit
import Foundation
import Testing
@testable import aasa_audit
@testable import Run

/// Every event of a run in words: the sentences the end-to-end tests and users know.
@Suite struct RunEventTextTests {
    struct Broken: Error, CustomStringConvertible { var description: String { "database disk image is malformed" } }

    static let shard = Shard(index: 1, count: 2)!
    static let writeError = ReportWriteError(path: "reports", reason: "Read-only file system")

    static let cases: [(RunEvent, String)] = [
        (.waitingForDomainList(path: "list.txt"), "waiting for the domain list list.txt (a pipe) to be written; Ctrl-C stops"),
        (.domainListUnreadable(path: "domains.txt", reason: "No such file or directory", isDefault: true),
         "cannot read the domain list domains.txt: No such file or directory (name domains as arguments, or create domains.txt with one domain per line)"),
        (.domainListUnreadable(path: "l.txt", reason: "No such file or directory", isDefault: false),
         "cannot read the domain list l.txt: No such file or directory"),
        (.domainListRefused(.binary("l.txt", line: 2)), "the domain list l.txt holds a NUL byte on line 2: it is a binary file, not a list of domains"),
        (.duplicatesAuditedOnce(count: 1), "1 duplicate line audited once"),
        (.duplicatesAuditedOnce(count: 3), "3 duplicate lines audited once"),
        (.entryNote(place: "l.txt:3", note: "used the host a.example from https://a.example/"), "l.txt:3: used the host a.example from https://a.example/"),
        (.caFileUnusable(path: "ca.pem", problem: "it is a device, not a regular file"), "--cacert ca.pem: it is a device, not a regular file"),
        (.noDomains(.file("empty.txt", given: true)), "no domains to audit in empty.txt"),
        (.noDomains(.arguments([])), "no domains to audit in the arguments"),
        (.shardSelected(shard, selected: 3, total: 6), "shard 1/2: 3 of the list's 6 domains"),
        (.oneOffCheck(storeRoot: "reports", hostsFromEntitlements: false, notCompared: true),
         "one-off check of the domains given as arguments: reports/latest is not moved and the run is not compared with it (--baseline FILE compares it)"),
        (.oneOffCheck(storeRoot: "reports", hostsFromEntitlements: true, notCompared: false),
         "one-off check of the hosts the apps name: reports/latest is not moved"),
        (.androidAppNotes(apk: "app.apk", droppedHosts: ["localhost"], unresolved: ["android:host … is the resource reference 0x7f0b0001"]),
         "--apk app.apk: android:host … is the resource reference 0x7f0b0001\n--apk app.apk: Android drops the App Links host localhost: not a domain name"),
        (.appLinkHostsCompared(appleOnly: ["*.shop.test", "help.shop.test"], androidOnly: ["m.shop.test"], shared: 2),
         """
         link hosts the iOS apps (applinks:) and the Android apps (autoVerify) do not both claim (2 claimed by both):
           claimed by the iOS apps only  claimed by the Android apps only
           *.shop.test                   m.shop.test
           help.shop.test
         """),
        (.appLinkHostsCompared(appleOnly: [], androidOnly: [], shared: 1), "the iOS and Android apps claim the same link host"),
        (.outputUnwritable(writeError, before: .audit), "cannot write reports: Read-only file system (nothing was audited)"),
        (.outputUnwritable(writeError, before: .merge), "cannot write reports: Read-only file system (nothing was merged)"),
        (.baselineUnusable(BaselineReport.Problem(path: "old.json", reason: "no such file")),
         "warning: cannot use the baseline old.json: no such file; the reports will not say what changed"),
        (.comparingWithBaseline(path: "reports/x/report.json", generatedAt: Date(timeIntervalSince1970: 1_800_000_000)),
         "comparing with reports/x/report.json (run of 2027-01-15T08:00:00Z)"),
        (.failOnNewComparesNothing(.noBaselineNorHistory),
         "--fail-on new: there is no baseline to compare with, so every failing domain fails the run (as with --fail-on any)"),
        (.failOnNewComparesNothing(.historyUnreadable(path: "h.sqlite")),
         "--fail-on new: there is no baseline and the history h.sqlite could not be read (above), so every failing domain fails the run (as with --fail-on any)"),
        (.failOnNewComparesNothing(.noEarlierRun(path: "h.sqlite")),
         "--fail-on new: there is no baseline and no earlier run of the list in the history h.sqlite to compare with, so every failing domain fails the run (as with --fail-on any)"),
        (.spoolUnavailable(writeError), "warning: cannot write reports: Read-only file system; the results are kept in memory"),
        (.fetchFailed(Broken()), "database disk image is malformed"),
        (.reportNotAssembled(Broken()), "database disk image is malformed (no report was written)"),
        (.historyNotRead(path: "h.sqlite", error: Broken()),
         "warning: history h.sqlite not read: database disk image is malformed (the reports are written without it)"),
        (.reportsNotWritten(writeError), "cannot write reports: Read-only file system"),
        (.keepLeftInPlace(ReportStore.Note(path: "reports/old", reason: "it holds x.txt, which this tool did not write")),
         "warning: --keep: left reports/old in place: it holds x.txt, which this tool did not write"),
        (.latestNotMovedNothingAudited(storeRoot: "reports"), "no domain was audited: reports/latest was not moved"),
        (.runNotRecorded(path: "h.sqlite", error: Broken()),
         "warning: this run was not recorded in the history h.sqlite: database disk image is malformed (its reports were written)"),
        (.stopped(.interrupt, .waitingForDomainList(path: "fifo")),
         "stopped by SIGINT while waiting for the domain list fifo: nothing was audited or written"),
        (.stopped(.terminate, .audit(audited: 0, notAudited: 2, latestNotMovedIn: "reports")),
         "stopped by SIGTERM: 0 of 2 domains checked; the report is marked \"complete\": false and lists the 2 not audited under \"notAudited\"; reports/latest was not moved"),
        (.stopped(.terminate, .audit(audited: 3, notAudited: 1, latestNotMovedIn: nil)),
         "stopped by SIGTERM: 3 of 4 domains checked; the report is marked \"complete\": false and lists the 1 not audited under \"notAudited\""),
        (.stopped(.interrupt, .audit(audited: 2, notAudited: 0, latestNotMovedIn: nil)),
         "stopped by SIGINT: every domain had already been checked; the report is complete"),
        (.stopped(.interrupt, .mergeBeforeWriting), "stopped by SIGINT: nothing was written"),
        (.stopped(.terminate, .mergeAfterWriting), "stopped by SIGTERM: the merged reports were written whole first"),
        (.shardReportUnusable(file: "bad.json", .notAReport("no \"tool\" object")), "bad.json: not an aasa-audit report.json (no \"tool\" object)"),
        (.shardReportUnusable(file: "/nonexistent.json", .unreadable("no such file")), "/nonexistent.json: no such file"),
        (.mergeRefused(.noReports), "no reports to merge (name the report.json of each shard)"),
        (.mergeWarning("the shards were written by different versions"), "warning: the shards were written by different versions"),
        (.shardsMissing(shown: [2], count: 1, of: 3), "shard 2/3 not given: the merged report is incomplete"),
        (.shardsMissing(shown: [2, 3], count: 2, of: 3), "shards 2/3, 3/3 not given: the merged report is incomplete"),
        (.shardsMissing(shown: [2, 3], count: 5, of: 9), "shards 2/9, 3/9 and 3 more not given: the merged report is incomplete"),
        (.shardInterrupted(source: "s1.json"), "s1.json: this shard was interrupted (\"complete\": false): the merged report is incomplete"),
    ]

    @Test(arguments: cases) func eachEventInWords(event: RunEvent, text: String) {
        #expect(RunEventText.lines(for: event) == [text])
    }

    /// The list's problems: one line each, then how many more and where they are.
    @Test func inputProblemsAreOneLineEach() {
        let problems = [InputProblem(file: "l.txt", line: 4, text: "not a domain", reason: "contains a space: one domain per line"),
                        InputProblem(file: "l.txt", line: 5, text: "a b", reason: "contains a space: one domain per line")]
        #expect(RunEventText.lines(for: .inputProblems(problems, total: 2)) == [
            "l.txt:4: \"not a domain\": contains a space: one domain per line",
            "l.txt:5: \"a b\": contains a space: one domain per line",
        ])
        #expect(RunEventText.lines(for: .inputProblems([], total: 0)).isEmpty)
    }

    /// Only information is `--quiet`'s to hide; warnings say so in front.
    @Test func levels() {
        #expect(RunEvent.shardSelected(Self.shard, selected: 1, total: 2).level == .info)
        #expect(RunEvent.mergeWarning("x").level == .warning)
        #expect(RunEvent.stopped(.interrupt, .mergeBeforeWriting).level == .notice)
        #expect(RunEvent.StopSignal(ExitPolicy.sigterm) == .terminate && RunEvent.StopSignal(ExitPolicy.sigint) == .interrupt)
    }
}
