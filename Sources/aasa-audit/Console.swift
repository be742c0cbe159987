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
