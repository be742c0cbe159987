import Audit
import Fetching
import Foundation
import TestSupport
import Testing
@testable import Run

/// The queue of audits behind the fetch: it waits for every audit, unless a signal has stopped the
/// run; then it returns at once and drops what was not done (issue 19, point 4).
@Suite struct QueuedAuditTests {
    static func site(_ domain: String, body: String) -> SiteFetch {
        let data = Data(body.utf8)
        func location(_ path: String) -> LocationFetch {
            LocationFetch(response: FetchResponse(url: "https://\(domain)\(path)", status: 200,
                                                  headers: [HTTPHeader(name: "Content-Type", value: "application/json")], body: data,
                                                  bytes: ByteCounts(transferred: data.count, decoded: data.count, limit: 1 << 20)))
        }
        return SiteFetch(domain: domain, wellKnown: location("/.well-known/apple-app-site-association"),
                         root: location("/apple-app-site-association"))
    }

    static func queue(_ domains: [String]) -> (QueuedAudit, [DomainEntry]) {
        let entries = DomainList.parse(arguments: domains).entries
        return (QueuedAudit(auditor: Auditor(), entries: entries), entries)
    }

    @Test func waitsForEveryAuditWhenNotStopped() {
        let (audits, entries) = Self.queue(["a.example", "b.example", "c.example"])
        for (index, entry) in entries.enumerated() { audits.submit(index, Self.site(entry.name.ascii, body: ScenarioFiles.good)) }
        let results = audits.finish(until: StopSwitch())
        #expect(results.map { $0?.domain } == ["a.example", "b.example", "c.example"])
        #expect(audits.hasRoom())
    }

    /// With none waiting the whole window is fetched; as audits queue up the window shrinks, so a
    /// queue near full admits a domain only as one is audited; a full queue admits none.
    @Test(arguments: [
        (inFlight: 0, waiting: 0, admits: true), (inFlight: 127, waiting: 0, admits: true), (inFlight: 128, waiting: 0, admits: false),
        (inFlight: 63, waiting: 16, admits: true), (inFlight: 64, waiting: 16, admits: false),
        (inFlight: 3, waiting: 31, admits: true), (inFlight: 4, waiting: 31, admits: false),
        (inFlight: 0, waiting: 32, admits: false), (inFlight: 0, waiting: 40, admits: false),
    ])
    func theWindowShrinksAsTheAuditsQueueUp(inFlight: Int, waiting: Int, admits: Bool) {
        #expect(QueuedAudit.admits(inFlight: inFlight, waiting: waiting, maxWaiting: 32, window: 128) == admits)
    }

    /// Three documents that each take seconds to check, and a stop before the first is done:
    /// `finish` does not wait for them, and nothing done later gets in.
    @Test func aStopDropsQueuedAuditsAndAbandonsTheOneInProgress() {
        let (audits, entries) = Self.queue(["a.example", "b.example", "c.example"])
        let heavy = HostileContent.ruleHeavyDocument(bytes: 200_000)
        for (index, entry) in entries.enumerated() { audits.submit(index, Self.site(entry.name.ascii, body: heavy)) }
        let stop = StopSwitch()
        stop.stop()
        let results = audits.finish(until: stop)
        #expect(results.allSatisfy { $0 == nil }, "finish waited for audits after the stop")
        // Once finished, the queue takes nothing more: a domain handed over late is dropped unaudited.
        audits.submit(0, Self.site("a.example", body: ScenarioFiles.good))
        #expect(audits.finish(until: stop).allSatisfy { $0 == nil })
    }
}
