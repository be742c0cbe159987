import Audit
import Dispatch
import Fetching
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-C (SIGINT) and SIGTERM during a run.
///
/// The signals are not handled in signal context: they are ignored by the process and delivered to
/// dispatch sources on a queue of their own, whose handler only records the first signal and flips
/// `stopSwitch`. The fetch loop sees the switch within 200 ms and returns what was finished; the run
/// then writes a report marked `"complete": false` and exits as `ExitPolicy.status(forSignal:)` says. Further signals (a
/// second Ctrl-C while that report is written) change nothing, so no report is ever cut short; the
/// writes are atomic besides.
final class Interruption: @unchecked Sendable {
    /// Flipped by the first SIGINT or SIGTERM; given to the fetch.
    let stopSwitch = StopSwitch()
    private let received = Atomic<Int32>(0)
    /// Kept so the sources live as long as the run; set once in `init`, never changed (hence the
    /// unchecked Sendable: the rest is atomic).
    private let sources: [any DispatchSourceSignal]

    /// Starts listening for SIGINT and SIGTERM (call once, before the fetch).
    init() {
        let queue = DispatchQueue(label: "aasa-audit.signals")
        let numbers = [SIGINT, SIGTERM]
        sources = numbers.map { number in
            // Ignored as a signal, so its default action (dying mid-write) never happens; the
            // dispatch source still sees it.
            signal(number, SIG_IGN)
            return DispatchSource.makeSignalSource(signal: number, queue: queue)
        }
        for (source, number) in zip(sources, numbers) {
            source.setEventHandler { [self] in
                _ = received.compareExchange(expected: 0, desired: number, ordering: .acquiringAndReleasing)
                stopSwitch.stop()
                // Printing to a reader that does not read must not hold the run either.
                Console.stopWaiting()
            }
            source.resume()
        }
    }

    /// "SIGTERM", or "SIGINT" for any other signal (as `ExitPolicy` counts them), for a sentence.
    static func name(of number: Int32) -> String {
        ExitPolicy.status(forSignal: number) == .terminated ? "SIGTERM" : "SIGINT"
    }

    /// The first signal received, or nil.
    var signalNumber: Int32? {
        let value = received.load(ordering: .acquiring)
        return value == 0 ? nil : value
    }
}
