import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The built binary started in the background, so a test can signal it half-way and measure it.
///
/// It runs under `/usr/bin/time` (GNU time), which reports the peak resident memory (VmHWM) of the
/// audit; signals are sent to the audit itself, not to `time`.
public final class RunningAudit {
    public let directory: URL
    private let process: Process
    private let scratch: URL
    private let started = Date()

    /// Starts `aasa-audit arguments` in `directory` (a fresh temporary folder when nil).
    public init(_ arguments: [String], in directory: URL? = nil) throws {
        guard let time = ["/usr/bin/time"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw HarnessError.missingProgram("/usr/bin/time (Debian package time)")
        }
        self.directory = try directory ?? AuditBinary.temporaryDirectory()
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("running-audit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: scratch.appendingPathComponent("out").path, contents: nil)
        FileManager.default.createFile(atPath: scratch.appendingPathComponent("err").path, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: time)
        process.arguments = ["-f", "%M", "-o", scratch.appendingPathComponent("time").path, try AuditBinary.path()] + arguments
        process.currentDirectoryURL = self.directory
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: scratch.appendingPathComponent("out"))
        process.standardError = try FileHandle(forWritingTo: scratch.appendingPathComponent("err"))
        try process.run()
    }

    /// Whether the audit (its `time` wrapper) has not ended yet.
    public var isRunning: Bool { process.isRunning }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: scratch)
    }

    /// The audit's own process id (the child of `time`), once it has started.
    public func auditProcessID() -> pid_t? {
        let children = "/proc/\(process.processIdentifier)/task/\(process.processIdentifier)/children"
        for _ in 0..<100 {
            if let text = try? String(contentsOfFile: children, encoding: .utf8),
               let pid = text.split(separator: " ").first.flatMap({ pid_t($0) }) {
                return pid
            }
            usleep(20_000)
        }
        return nil
    }

    /// Sends `signal` to the audit.
    public func send(_ signal: Int32) throws {
        guard let pid = auditProcessID() else { throw HarnessError.serverDidNotStart("the audit process is not running") }
        kill(pid, signal)
    }

    /// Waits until the audit's standard error holds `text` (true), or `limit` seconds pass (false):
    /// a test that signals the run at a given point waits for it, not for a time a loaded machine
    /// may not keep.
    public func waitForStandardError(containing text: String, limit: Double) -> Bool {
        let deadline = Date().addingTimeInterval(limit)
        let file = scratch.appendingPathComponent("err")
        while Date() < deadline {
            if let written = try? String(contentsOf: file, encoding: .utf8), written.contains(text) { return true }
            usleep(50_000)
        }
        return false
    }

    /// What a finished run left: status, output, wall time and peak memory.
    public struct Result: Sendable {
        public var outcome: ShellCommand.Outcome
        /// Peak resident set of the audit in kilobytes, as GNU time reports it.
        public var peakKilobytes: Int
    }

    /// Waits for the end (killing the audit after `limit` seconds, so a hang fails the test, not the suite).
    public func wait(limit: Double) -> Result {
        let deadline = Date().addingTimeInterval(limit)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning {
            if let pid = auditProcessID() { kill(pid, SIGKILL) }
            process.waitUntilExit()
        }
        process.waitUntilExit()
        let seconds = Date().timeIntervalSince(started)
        let read = { (name: String) in (try? String(contentsOf: self.scratch.appendingPathComponent(name), encoding: .utf8)) ?? "" }
        // GNU time prints "Command exited with non-zero status N" / "Command terminated by signal N" before the number.
        let peak = read("time").split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? -1
        // time exits with the command's status (128 + n when the command died of signal n).
        return Result(outcome: ShellCommand.Outcome(status: process.terminationStatus, stdout: read("out"), stderr: read("err"), seconds: seconds),
                      peakKilobytes: peak)
    }

    /// Runs to the end and measures: for bounded-time and bounded-memory assertions.
    public static func measure(_ arguments: [String], in directory: URL? = nil, limit: Double) throws -> Result {
        try RunningAudit(arguments, in: directory).wait(limit: limit)
    }
}
