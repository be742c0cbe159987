import Audit
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport

/// Issue 14 (points 3 and 4) through the binary and the real nginx: domain-list problems on stderr
/// whole, a bad expectation token skipped alone, `--quiet` lines, `--fail-on new` across runs where
/// something breaks in between, and summary lines fitted to a real terminal's width (tmux).
@Suite(.serialized) struct TerminalEndToEndTests {
    static func network() throws -> [String] {
        let sites = try LocalSites.shared.get()
        return ["--cacert", sites.certificateAuthority.certificatePath, "--timeout", "3", "--connect-timeout", "2", "--no-cdn"]
            + sites.connectToArguments
    }

    static func write(_ text: String, to folder: URL) throws {
        try text.write(to: folder.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
    }

    @Test func aBadTokenIsSkippedAndTheDomainStillAuditedWithItsOtherExpectations() throws {
        let folder = try AuditBinary.temporaryDirectory()
        // stays=/buy/1 breaks (the file opens /buy/* in the app); opens=buy/1 is malformed.
        try Self.write("wellknown-only.test  app=ABQ7KM3X2P.com.exemplo.app  opens=buy/1  stays=/buy/1\n", to: folder)
        let outcome = try AuditBinary.run(try Self.network() + ["--out", "out"], in: folder)
        #expect(outcome.status == 2, "an input error wins over the failing domain")
        let problem = "aasa-audit: domains.txt:1: \"wellknown-only.test  app=ABQ7KM3X2P.com.exemplo.app  opens=buy/1  stays=/buy/1\": "
            + "expectation \"opens=buy/1\": opens= takes a path on this domain starting with \"/\" (query and fragment allowed), "
            + "e.g. opens=/buy/42; this token is skipped, and wellknown-only.test is still audited with its other expectations"
        #expect(outcome.stderr.contains(problem + "\n"), "whole, on stderr: \(outcome.stderr)")
        #expect(!outcome.stdout.contains("domains.txt:1"), "not on stdout")
        let report = try AuditBinary.readReport(at: folder.appendingPathComponent("out/report.json"))
        #expect(report.inputErrors.map(\.line) == [1])
        let domain = try #require(report.domains.first { $0.domain == "wellknown-only.test" })
        #expect(domain.verdict == .fail)
        #expect(domain.findings.contains { $0.id == "expect.opened" && $0.message.contains("/buy/1") }, "\(domain.findings.map(\.id))")
    }

    @Test func moreThanTwentyProblemsAreCountedWithWhereTheRestAre() throws {
        let folder = try AuditBinary.temporaryDirectory()
        try Self.write((1...30).map { "bad_\($0).test" }.joined(separator: "\n") + "\ngood.test\n", to: folder)
        let outcome = try AuditBinary.run(try Self.network() + ["--out", "out", "--quiet"], in: folder)
        #expect(outcome.status == 2)
        let lines = outcome.stderr.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("aasa-audit: domains.txt:") }.count == 20, "\(outcome.stderr)")
        #expect(lines.contains("aasa-audit: … and 10 more input errors: report.json lists the first 30 (inputErrors)"))
        let report = try AuditBinary.readReport(at: folder.appendingPathComponent("out/report.json"))
        #expect(report.inputErrors.count == 30)
        #expect(report.domains.map(\.domain) == ["good.test"])
    }

    /// The nightly cron style: the first run has no baseline (acts as `any`, says so), the second finds
    /// nothing new and is silent, the third has one new breakage and names only it.
    @Test func failOnNewAlertsOncePerBreakage() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let arguments = try Self.network() + ["--quiet", "--fail-on", "new"]
        try Self.write("good.test  opens=/buy/42\nnotfound.test\n", to: folder)

        let first = try AuditBinary.run(arguments, in: folder)
        #expect(first.status == 1, "no baseline: every failing domain counts \(first.stderr)")
        // Nor an earlier run of the list in the history (reports/history.sqlite), which would decide otherwise.
        #expect(first.stderr.contains("--fail-on new: there is no baseline and no earlier run of the list in the history reports/history.sqlite "
                                      + "to compare with, so every failing domain fails the run (as with --fail-on any)"), "\(first.stderr)")
        #expect(first.stderr.contains("aasa-audit: FAIL notfound.test: "))
        #expect(!first.stderr.contains("good.test"))
        #expect(first.stdout.isEmpty)

        let second = try AuditBinary.run(arguments, in: folder)
        #expect(second.status == 0, "notfound.test fails as it did: nothing new \(second.stderr)")
        #expect(second.stderr.isEmpty && second.stdout.isEmpty, "cron mails nothing: \(second.stderr)")

        // Between runs, good.test breaks: the app now takes /buy/1, which must stay in the browser.
        try Self.write("good.test  opens=/buy/42  stays=/buy/1\nnotfound.test\n", to: folder)
        let third = try AuditBinary.run(arguments, in: folder)
        #expect(third.status == 1, "\(third.stderr)")
        let lines = third.stderr.split(separator: "\n")
        #expect(lines.count == 1, "only the new breakage: \(third.stderr)")
        #expect(lines.first?.hasPrefix("aasa-audit: FAIL good.test: ") == true)

        let fourth = try AuditBinary.run(arguments, in: folder)
        #expect(fourth.status == 0 && fourth.stderr.isEmpty, "the same breakage a second night: \(fourth.stderr)")

        // The default, --fail-on any: every failing domain, every night.
        let any = try AuditBinary.run(try Self.network() + ["--quiet"], in: folder)
        #expect(any.status == 1)
        let anyLines = any.stderr.split(separator: "\n")
        #expect(anyLines.count == 2, "\(any.stderr)")
        #expect(anyLines.contains { $0.hasPrefix("aasa-audit: FAIL good.test: ") })
        #expect(anyLines.contains { $0.hasPrefix("aasa-audit: FAIL notfound.test: ") })
    }

    /// A real terminal (tmux, 80 columns): the domain line fits; the same run into a pipe is whole.
    @Test func domainLinesFitARealTerminalAndAreWholeInAPipe() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") else {
            Issue.record("tmux is needed for this test (apt-get install tmux)")
            return
        }
        let folder = try AuditBinary.temporaryDirectory()
        try Self.write("redirect.test\ngood.test\n", to: folder)
        let arguments = try Self.network() + ["--out", "out", "--no-baseline"]
        let piped = try AuditBinary.run(arguments, in: folder)
        let whole = "FAIL  redirect.test  https://redirect.test/.well-known/apple-app-site-association answers 301 and points to "
            + "https://good.test/.well-known/apple-app-site-association. The file exists at https://good.test/.well-known/apple-app-site-association, "
            + "behind 1 redirect; Apple will not go there."
        #expect(piped.stdout.contains(whole + "\n"), "\(piped.stdout)")

        let quoted = ([try AuditBinary.path()] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let socket = "aasa-audit-test-\(UUID().uuidString.prefix(8))"
        func tmux(_ more: [String]) throws -> ShellCommand.Outcome {
            try ShellCommand.run("/usr/bin/tmux", ["-L", socket] + more, directory: folder, environment: nil, checked: false)
        }
        defer { _ = try? tmux(["kill-server"]) }
        // Spawned directly, with no descriptor but /dev/null: Foundation's Process learns that a
        // child ended when a socket it shares with it closes, and the tmux server forked here would
        // hold that socket (and any pipe) open until it exits.
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let words = ["/usr/bin/tmux", "-L", socket, "new-session", "-d", "-x", "80", "-y", "24", "-s", "audit",
                    "cd '\(folder.path)' && \(quoted); echo EXIT=$?; sleep 60"]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        #expect(posix_spawn(&pid, "/usr/bin/tmux", &actions, nil, argv, environ) == 0)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        var screen = "", trouble = ""
        for _ in 0..<20 {
            let capture = try tmux(["capture-pane", "-p", "-S", "-", "-t", "audit"])
            screen = capture.stdout
            trouble = capture.stderr
            if screen.contains("EXIT=") { break }
            Thread.sleep(forTimeInterval: 0.5)
        }
        #expect(screen.contains("EXIT=1"), "\(screen)\(trouble)")
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        let line = try #require(lines.first { $0.hasPrefix("FAIL  redirect.test  ") }, "\(screen)")
        #expect(line.count <= 80, "fits the 80 columns: \(line)")
        // The URLs are shortened to their hosts first, so the gist stays: what answers what, and where to.
        #expect(line.hasPrefix("FAIL  redirect.test  https://redirect.test/… answers 301 and points to https://"), "\(line)")
        #expect(line.hasSuffix("…"))
        let next = try #require(lines.firstIndex { $0.hasPrefix("FAIL  redirect.test  ") }.map { lines[$0 + 1] })
        #expect(next.hasPrefix("PASS  good.test") || next.isEmpty, "no wrapped remainder: \(screen)")
    }
}
