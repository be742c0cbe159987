import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The live line on stderr while domains are fetched: `Auditing: 12/40 domains, 3.2 s`, redrawn
/// in place with a carriage return and erased at the end, so that nothing of it stays in the
/// terminal's scrollback. Only on a terminal (see `Console.progressOnStderr`); disabled, it does nothing.
///
/// Redrawn when a domain finishes (at most every `interval`) and by a timer every `tick`, so the
/// elapsed time moves while slow domains keep the count still, and a count held back by the
/// interval shows up within `tick` rather than at the next domain that finishes.
final class ProgressLine: @unchecked Sendable {
    let total: Int
    let enabled: Bool
    private let started = Date()
    // Guarded by `lock`: update() runs on the fetch loop's thread, the timer on its own queue.
    private let lock = NSLock()
    private var lastDrawn = Date.distantPast
    private var drawn = false
    private var done = 0
    private var finished = false
    private var timer: DispatchSourceTimer?

    /// Redraws at most this often: a fast run over thousands of domains must not flood the terminal.
    static let interval: TimeInterval = 0.1
    /// The timer's redraw period.
    static let tick: TimeInterval = 0.5

    init(total: Int, enabled: Bool) {
        self.total = total
        self.enabled = enabled
        guard enabled else { return }
        lock.withLock { draw(now: Date()) }
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "aasa-audit.progress"))
        timer.schedule(deadline: .now() + Self.tick, repeating: Self.tick)
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            self.lock.withLock { if !self.finished { self.draw(now: Date()) } }
        }
        timer.resume()
        self.timer = timer
    }

    /// Called after each domain finishes.
    func update(done: Int, of total: Int) {
        guard enabled else { return }
        lock.withLock {
            self.done = done
            let now = Date()
            guard !finished, done == total || now.timeIntervalSince(lastDrawn) >= Self.interval else { return }
            draw(now: now)
        }
    }

    /// Stops the timer and erases the line (carriage return, erase to end of line), leaving the cursor at its start.
    func finish() {
        guard enabled else { return }
        timer?.cancel()
        lock.withLock {
            finished = true
            guard drawn else { return }
            write("\r\u{1B}[K")
            drawn = false
        }
    }

    /// `Auditing: 12/40 domains, 3.2 s`.
    static func text(done: Int, total: Int, elapsed: TimeInterval) -> String {
        "Auditing: \(done)/\(total) domain\(total == 1 ? "" : "s"), \(String(format: "%.1f", elapsed)) s"
    }

    /// Draws the current count; the caller holds `lock`.
    private func draw(now: Date) {
        lastDrawn = now
        drawn = true
        write("\r\u{1B}[K" + Self.text(done: done, total: total, elapsed: now.timeIntervalSince(started)))
    }

    private func write(_ text: String) {
        Console.write(text, to: STDERR_FILENO)
    }
}
