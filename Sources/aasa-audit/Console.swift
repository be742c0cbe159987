import Audit
import Foundation
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

    func out(_ text: String) {
        FileHandle.standardOutput.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }

    func error(_ text: String) {
        FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }

    /// "domains.txt:7" for a file line, "argument 2" for a command-line domain.
    static func place(file: String?, line: Int) -> String {
        file.map { "\($0):\(line)" } ?? "argument \(line)"
    }

    static func place(_ problem: InputProblem) -> String { place(file: problem.file, line: problem.line) }

    /// Input text quoted for the terminal, with control characters made visible.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars.prefix(200) {
            if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value) {
                result += String(format: "\\x%02X", scalar.value)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result + (text.unicodeScalars.count > 200 ? "…\"" : "\"")
    }
}
