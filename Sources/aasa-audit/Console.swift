import Audit
import Foundation
import Reporting
#if canImport(Glibc)
import Glibc
#endif

/// The one place that writes to the terminal and knows whether it is one.
struct Console {
    /// Colour on stdout only for a terminal, and never when NO_COLOR is set (no-color.org).
    var colourOnStdout: Bool {
        isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
            && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    }

    /// Colour and the live progress line on stderr: the same rule, for stderr.
    var progressOnStderr: Bool {
        isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
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
        FileHandle.standardOutput.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }

    /// Writes a message to standard error. Messages quote what they complain about (a line of the
    /// domain list, an argument, a path), so every line is passed through `TerminalText.sanitize`:
    /// no escape sequence or control character reaches the terminal this way.
    func error(_ text: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { TerminalText.sanitize(String($0)) }
        let joined = lines.joined(separator: "\n")
        FileHandle.standardError.write(Data((joined.hasSuffix("\n") ? joined : joined + "\n").utf8))
    }
}
