import Foundation

/// Runs an external program (openssl, nginx, the built binary) and captures its output.
public struct ShellCommand {
    /// What a finished program left behind.
    public struct Outcome: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        public var seconds: Double
    }

    /// Why a program could not be run.
    public struct Failure: Error, CustomStringConvertible {
        public var command: String
        public var outcome: Outcome
        public var description: String {
            "`\(command)` exited \(outcome.status): \(outcome.stderr.isEmpty ? outcome.stdout : outcome.stderr)"
        }
    }

    /// Runs `executable` with `arguments` and waits; stdout and stderr go to temporary files so a
    /// chatty program can never block on a full pipe.
    @discardableResult
    public static func run(_ executable: String, _ arguments: [String], directory: URL? = nil,
                           environment: [String: String]? = nil, checked: Bool = true) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if let environment { process.environment = environment }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("cmd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let out = scratch.appendingPathComponent("out"), err = scratch.appendingPathComponent("err")
        guard FileManager.default.createFile(atPath: out.path, contents: nil),
              FileManager.default.createFile(atPath: err.path, contents: nil) else {
            throw Failure(command: executable, outcome: Outcome(status: -1, stdout: "", stderr: "cannot create output files in \(scratch.path)", seconds: 0))
        }
        let outHandle = try FileHandle(forWritingTo: out), errHandle = try FileHandle(forWritingTo: err)
        process.standardOutput = outHandle
        process.standardError = errHandle
        process.standardInput = FileHandle.nullDevice
        let start = Date()
        try process.run()
        process.waitUntilExit()
        try outHandle.close()
        try errHandle.close()
        let outcome = Outcome(
            status: process.terminationStatus,
            stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "",
            seconds: Date().timeIntervalSince(start))
        if checked && outcome.status != 0 {
            throw Failure(command: ([executable] + arguments).joined(separator: " "), outcome: outcome)
        }
        return outcome
    }

    /// The absolute path of a program on PATH (or in the usual sbin folders), if installed.
    public static func which(_ name: String) -> String? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "") + ":/usr/sbin:/sbin:/usr/local/sbin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
