import Audit
import Foundation
import Testing
import TestSupport

/// `--android` against nginx: each domain's assetlinks.json fetched beside its AASA file, checked by
/// the same transport checks and the statement-list checks, with Android expectations from domains.txt,
/// in every report format.
@Suite struct AndroidEndToEndTests {
    static let release = ScenarioFiles.releaseFingerprint
    static let package = ScenarioFiles.androidPackage

    static let domainsFile = """
        android-good.test  android=\(package)  android-creds=\(package)  sha256=\(release.lowercased())
        android-redirect.test
        android-html-type.test
        android-missing.test
        android-lowercase.test
        android-debug-only.test  android=\(package)  sha256=\(release)
        android-invalid.test
        android-spa.test
        """

    /// (host, Android verdict, error and warning ids of the assetlinks.json location, of the Android expectations).
    static let expected: [(String, Verdict, [String], [String])] = [
        ("android-good.test", .pass, [], []),
        ("android-redirect.test", .fail, ["redirect.present"], []),
        ("android-html-type.test", .warn, ["content-type.unexpected"], []),
        ("android-missing.test", .fail, ["http.not-found"], []),
        ("android-lowercase.test", .fail, ["assetlinks.fingerprint-lowercase"], []),
        ("android-debug-only.test", .fail, [], ["expect.fingerprint-missing"]),
        ("android-invalid.test", .fail, ["json.syntax"], []),
        ("android-spa.test", .fail, ["content-type.unexpected", "http.html-page"], []),
    ]

    struct Run: Sendable {
        var outcome: ShellCommand.Outcome
        var report: AuditReport
        var folder: URL
    }

    static func audit(_ list: String, android: Bool) throws -> Run {
        let sites = try LocalSites.shared.get()
        let folder = try AuditBinary.temporaryDirectory()
        try list.write(to: folder.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        let outcome = try AuditBinary.run(
            ["--cacert", sites.certificateAuthority.certificatePath, "--timeout", "2", "--connect-timeout", "2", "--no-cdn",
             "--out", "out", "--format", "json,html,md,junit,prom"] + (android ? ["--android"] : []) + sites.connectToArguments, in: folder)
        return Run(outcome: outcome, report: try AuditBinary.readReport(at: folder.appendingPathComponent("out/report.json")), folder: folder)
    }

    static let run: Result<Run, Error> = Result { try audit(domainsFile, android: true) }

    func domain(_ host: String) throws -> DomainResult {
        try #require(try Self.run.get().report.domains.first { $0.domain == host })
    }

    @Test(arguments: expected)
    func androidPartOfEachScenario(_ host: String, _ verdict: Verdict, _ location: [String], _ expectations: [String]) throws {
        let result = try domain(host)
        let android = try #require(result.android, "\(host) has no Android part")
        let problems: (Finding) -> Bool = { $0.severity != .info }
        #expect(android.location.findings.filter(problems).map(\.id) == location, "\(android.location.findings.map(\.message))")
        #expect(android.findings.filter(problems).map(\.id) == expectations, "\(android.findings.map(\.message))")
        #expect(android.verdict == verdict)
        // The Apple part of every Android scenario is a good file at .well-known.
        #expect(result.appleVerdict == .pass, "\(result.allFindings.map(\.id))")
        #expect(result.verdict == verdict)
        #expect(android.location.path == "/.well-known/assetlinks.json")
        #expect(android.location.url == "https://\(host)/.well-known/assetlinks.json")
    }

    /// One TLS handshake per domain: assetlinks.json comes over the connection of the Apple fetches,
    /// and carries that connection's certificate.
    @Test func androidFileComesOverTheAppleConnection() throws {
        let result = try domain("android-good.test")
        let android = try #require(result.android)
        #expect(android.location.timings.reusedConnection)
        #expect(android.location.tls?.certificate?.subjectAltNames == ["android-good.test"])
    }

    @Test func goodFileMeetsItsExpectationsWrittenInAnyCase() throws {
        let android = try #require(try domain("android-good.test").android)
        #expect(android.findings.map(\.id) == ["expect.android-met"])
        #expect(android.findings.first?.message.contains("All 3 Android expectations") == true)
    }

    @Test func debugOnlyFileNamesTheFingerprintItLists() throws {
        let result = try domain("android-debug-only.test")
        let finding = try #require(result.android?.findings.first { $0.id == "expect.fingerprint-missing" })
        #expect(finding.message.contains(Self.release))
        #expect(finding.message.contains("it lists only \(ScenarioFiles.debugFingerprint)"))
        #expect(finding.message.contains("None of the expected keys is listed"))
        #expect(result.headline?.id == "expect.fingerprint-missing")
    }

    @Test func redirectIsNamedAsAndroidsAndNotFollowed() throws {
        let finding = try #require(try domain("android-redirect.test").android?.location.findings.first { $0.id == "redirect.present" })
        #expect(finding.message.contains("Android's App Links verifier will not go there"), "\(finding.message)")
        #expect(!finding.message.contains("Apple"))
    }

    @Test func androidFailureFailsTheRunAndIsCountedApart() throws {
        let run = try Self.run.get()
        #expect(run.outcome.status == 1)
        let summary = try #require(run.report.summary.android)
        #expect(summary.domains == Self.expected.count)
        #expect((summary.pass, summary.warn, summary.fail) == (1, 1, 6))
        #expect(run.report.summary.fail == 6)
    }

    @Test func everyReportShowsTheAndroidPart() throws {
        let run = try Self.run.get()
        let out = run.folder.appendingPathComponent("out")
        let html = try String(contentsOf: out.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(html.contains("Android App Links"))
        #expect(html.contains("read by Android"))
        #expect(html.contains("assetlinks.fingerprint-lowercase"))
        let markdown = try String(contentsOf: out.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(markdown.contains("Android App Links (assetlinks.json, 8 domains)"))
        #expect(markdown.contains("expect.fingerprint-missing"))
        let junit = try String(contentsOf: out.appendingPathComponent("report.junit.xml"), encoding: .utf8)
        #expect(junit.contains("name=\"Android /.well-known/assetlinks.json: document\""))
        #expect(junit.contains("<failure type=\"assetlinks.fingerprint-lowercase\""))
        #expect(junit.contains("name=\"Android expectations\""))
        #expect(run.outcome.stdout.contains("Android assetlinks.json of 8 domains: 1 pass, 1 warn, 6 fail"), "\(run.outcome.stdout)")
    }

    /// The Android part as a person sees it: Chromium prints the page, and the text shows the
    /// section with its verdict sentence, the file Android reads with its finding, and the
    /// expectation that breaks, after the file it was checked against (causes first).
    @Test func aPersonSeesTheAndroidPartCausesFirst() throws {
        let run = try Self.run.get()
        let text = try HeadlessBrowser.visibleText(of: run.folder.appendingPathComponent("out/report.html"))
        #expect(text.contains("Android App Links"), "\(text.prefix(300))")
        #expect(text.contains("The file or an Android expectation is broken"))
        #expect(text.contains("read by Android"))
        #expect(text.contains("assetlinks.fingerprint-lowercase"))
        // The domain's own section (its heading: name and verdict badge), not the summary table's row;
        // its Android part, after the first screen (which names the broken expectation first, as the cause).
        let debugOnly = try #require(text.range(of: "android-debug-only.test ✖ fail"), "\(text.prefix(300))")
        let android = try #require(text[debugOnly.upperBound...].range(of: "Android App Links ✖ fail"), "its Android part is shown")
        let rest = text[android.upperBound...]
        let file = try #require(rest.range(of: "read by Android"), "the debug-only domain's file is shown")
        let expectation = try #require(rest.range(of: "expect.fingerprint-missing"), "its broken expectation is shown")
        #expect(file.lowerBound < expectation.lowerBound, "the file Android reads comes before the expectation checked against it")
    }

    /// Without --android, only the domain with Android expectations gets its assetlinks.json fetched.
    @Test func expectationsAloneAskForTheAndroidFile() throws {
        let run = try Self.audit("good.test\nandroid-debug-only.test  sha256=\(Self.release)\n", android: false)
        let good = try #require(run.report.domains.first { $0.domain == "good.test" })
        #expect(good.android == nil)
        #expect(good.appleVerdict == nil)
        let debug = try #require(run.report.domains.first { $0.domain == "android-debug-only.test" })
        // No android= package: the fingerprint is expected of some app with App Links, and none lists it.
        #expect(debug.android?.findings.map(\.id) == ["expect.fingerprint-missing"])
        #expect(debug.verdict == .fail)
        let json = try String(contentsOf: run.folder.appendingPathComponent("out/report.json"), encoding: .utf8)
        #expect(json.components(separatedBy: "\"android\"").count == 4, "one android part, the summary's android counts and that domain's platforms")
        #expect(debug.platforms == ["apple", "android"] && good.platforms == nil)
    }
}
