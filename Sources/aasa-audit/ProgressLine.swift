import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The live line on stderr while domains are fetched: `Auditing: 12/40 domains, 3.2 s`, redrawn
/// in place with a carriage return and erased at the end, so that nothing of it stays in the
/// terminal's scrollback. Only on a terminal (see `Console.progressOnStderr`); disabled, it does nothing.
final class ProgressLine {
    let total: Int
    let enabled: Bool
    private let started = Date()
    private var lastDrawn = Date.distantPast
    private var drawn = false

    /// Redraws at most this often: a fast run over thousands of domains must not flood the terminal.
    static let interval: TimeInterval = 0.1

    init(total: Int, enabled: Bool) {
        self.total = total
        self.enabled = enabled
        if enabled { draw(done: 0) }
    }

    /// Called after each domain finishes.
    func update(done: Int, of total: Int) {
        guard enabled else { return }
        let now = Date()
        guard done == total || now.timeIntervalSince(lastDrawn) >= Self.interval else { return }
        draw(done: done, now: now)
    }

    /// Erases the line (carriage return, erase to end of line), leaving the cursor at its start.
    func finish() {
        guard enabled, drawn else { return }
        write("\r\u{1B}[K")
        drawn = false
    }

    /// `Auditing: 12/40 domains, 3.2 s`.
    static func text(done: Int, total: Int, elapsed: TimeInterval) -> String {
        "Auditing: \(done)/\(total) domain\(total == 1 ? "" : "s"), \(String(format: "%.1f", elapsed)) s"
    }

    private func draw(done: Int, now: Date = Date()) {
        lastDrawn = now
        drawn = true
        write("\r\u{1B}[K" + Self.text(done: done, total: total, elapsed: now.timeIntervalSince(started)))
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
