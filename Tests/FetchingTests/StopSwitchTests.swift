import Fetching
import Foundation
import Testing
import TestSupport

/// Stopping a fetch from another thread (what Ctrl-C does): finished domains come back, the rest
/// are nil, and the loop returns promptly instead of waiting for the slow transfers.
@Suite struct StopSwitchTests {
    let sites: LocalSites

    init() throws {
        sites = try LocalSites.shared.get()
    }

    func fetcher() -> SiteFetcher {
        SiteFetcher(options: FetchOptions(userAgent: "aasa-audit-tests", caFile: sites.certificateAuthority.certificatePath,
                                          connectTo: sites.connectToEntries, totalTimeout: 30, lowSpeedTime: 30))
    }

    @Test func aSwitchFlippedBeforehandFetchesNothing() throws {
        let stop = StopSwitch()
        stop.stop()
        let results = try fetcher().fetch(domains: ["good.test", "slow.test"], until: stop)
        #expect(results.count == 2 && results.allSatisfy { $0 == nil })
    }

    @Test func stoppingHalfWayKeepsTheFinishedDomains() throws {
        let stop = StopSwitch()
        let flipper = Thread {
            Thread.sleep(forTimeInterval: 1.5)
            stop.stop()
        }
        flipper.start()
        let started = Date()
        // slow.test sends a byte a second: it would take minutes.
        let results = try fetcher().fetch(domains: ["good.test", "slow.test", "notfound.test"], until: stop)
        let seconds = Date().timeIntervalSince(started)
        #expect(results.map { $0?.domain } == ["good.test", nil, "notfound.test"])
        #expect(results[0]?.wellKnown.response.status == 200)
        #expect(seconds < 5, "returned \(seconds) s after starting")
    }

    @Test func withoutTheSwitchEveryDomainComesBack() throws {
        let results = try fetcher().fetch(domains: ["good.test", "notfound.test"], until: nil)
        #expect(results.map { $0?.domain } == ["good.test", "notfound.test"])
    }
}
