import Audit
import Foundation
import Reporting
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The one place that writes to the terminal and knows whether it is one.
///
/// Writes are plain `write(2)` calls: with SIGPIPE ignored (see `Subcommands.main`), a reader that
/// went away (`aasa-audit --json … | head -c 50`) is an EPIPE error, after which that stream is
/// simply no longer printed to; the run goes on, writes every report file and exits with the
/// audit's status.
struct Console {
    /// Set once a stream's reader is gone (EPIPE), by file descriptor (1, 2).
    private static let closed = Atomic<UInt8>(0)

    /// Colour on stdout only for a terminal, and never when NO_COLOR is set (no-color.org).
    var colourOnStdout: Bool {
        isatty(STDOUT_FILENO) == 1 && Self.colourAllowed
    }

    /// Colour on stderr (the summary with `--json`): the same rule, for stderr.
    var colourOnStderr: Bool {
        isatty(STDERR_FILENO) == 1 && Self.colourAllowed
    }

    /// The live progress line on stderr: only on a terminal that can redraw a line (not TERM=dumb).
    /// NO_COLOR removes colour only, not the progress line (no-color.org); `--quiet` removes it too.
    var progressOnStderr: Bool {
        isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    }

    /// Neither NO_COLOR (set and not empty) nor TERM=dumb.
    private static var colourAllowed: Bool {
        ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
            && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    }

    /// The width in columns of the terminal on stdout; nil when stdout is not a terminal (a pipe, a
    /// file, cron), where nothing is cut.
    var stdoutWidth: Int? { Self.terminalWidth(STDOUT_FILENO) }

    /// The same for stderr.
    var stderrWidth: Int? { Self.terminalWidth(STDERR_FILENO) }

    /// The terminal's width from TIOCGWINSZ; when the terminal does not say, $COLUMNS, else 80.
    static func terminalWidth(_ descriptor: Int32) -> Int? {
        guard isatty(descriptor) == 1 else { return nil }
        var size = winsize()
        if ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 { return columns }
        return 80
    }

    func out(_ text: String) {
        Self.write(text.hasSuffix("\n") ? text : text + "\n", to: STDOUT_FILENO)
    }

    /// Writes a message to standard error. Messages quote what they complain about (a line of the
    /// domain list, an argument, a path), so every line is passed through `TerminalText.sanitize`:
    /// no escape sequence or control character reaches the terminal this way.
    func error(_ text: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { TerminalText.sanitize(String($0)) }
        let joined = lines.joined(separator: "\n")
        Self.write(joined.hasSuffix("\n") ? joined : joined + "\n", to: STDERR_FILENO)
    }

    /// Writes `text` whole to `fd`, unless its reader is gone: then, and ever after, nothing.
    ///
    /// Never blocked for good: each piece (at most `PIPE_BUF` bytes, so a pipe with room takes it
    /// without waiting) is written once `poll` says the stream has room, and while it has none the
    /// wait gives up as soon as a signal came (`stopWaiting`). A reader that stopped reading
    /// (`aasa-audit --json | sleep 1000`) thus cannot keep Ctrl-C from ending the run.
    static func write(_ text: String, to fd: Int32) {
        let bit = UInt8(1 << min(fd, 7))
        guard closed.load(ordering: .acquiring) & bit == 0 else { return }
        func giveUp() { closed.bitwiseOr(bit, ordering: .acquiringAndReleasing) }
        var bytes = Array(text.utf8)
        var offset = 0
        bytes.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return }
            while offset < raw.count {
                var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                let ready = poll(&entry, 1, 100)
                if ready == 0 || (ready < 0 && errno == EINTR) {
                    if waitingStopped.load(ordering: .acquiring) { return giveUp() }
                    continue
                }
                let written = Glibc.write(fd, base + offset, min(raw.count - offset, Int(PIPE_BUF)))
                if written >= 0 {
                    offset += written
                } else if errno != EINTR && errno != EAGAIN {
                    // EPIPE (the reader left), or the stream is otherwise unusable: stop printing there.
                    return giveUp()
                }
            }
        }
    }

    /// Set by the first SIGINT or SIGTERM (see `Interruption`): from then on, a write that would
    /// wait for a reader is dropped instead.
    private static let waitingStopped = Atomic<Bool>(false)

    /// Stops every wait for a reader (called on the first signal).
    static func stopWaiting() {
        waitingStopped.store(true, ordering: .releasing)
    }
}
