import Synchronization

/// A switch another thread flips to end a fetch early (Ctrl-C, SIGTERM).
///
/// `TransferLoop.run(until:)` looks at it on every turn of its loop (at least every 200 ms) and
/// returns, dropping the transfers in flight; their completions never run, so what was finished
/// stays apart from what was not.
public final class StopSwitch: Sendable {
    private let flipped = Atomic<Bool>(false)

    public init() {}

    /// Asks the loop to stop; safe from any thread, any number of times.
    public func stop() {
        flipped.store(true, ordering: .releasing)
    }

    /// True once `stop` was called.
    public var isStopped: Bool {
        flipped.load(ordering: .acquiring)
    }
}
