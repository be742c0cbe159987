import Audit
import Foundation
import Testing
import TestSupport

/// `aasa-audit --apk app.apk` against nginx: an APK built by aapt and signed by apksigner at test time;
/// each host Android verifies for it is audited against its assetlinks.json with the APK's package and
/// signing fingerprint. apk.test lists them and serves no AASA file (Android-only: it passes);
/// apk-wrong-key.test lists another key (it fails, naming both). Expectations on the command line
/// make android-only.test Android-only.
@Suite(.enabled(if: AndroidAppFixture.toolsAvailable, "needs aapt, apksigner and openssl (scripts/install-deps.sh --test)"))
struct APKEndToEndTests {
    static let package = ScenarioFiles.androidPackage
    static let release = ScenarioFiles.releaseFingerprint

    struct Run: Sendable {
        var outcome: ShellCommand.Outcome
        var report: AuditReport
        var signer: AndroidAppFixture.Signer
        var folder: String
    }

    static func audit(_ arguments: [String], apk: Bool) throws -> Run {
        let sites = try LocalSites.shared.get()
        let folder = try AuditBinary.temporaryDirectory()
        let signer = try AndroidAppFixture.signer(in: folder.appendingPathComponent("keys"))
        var extra: [String] = []
        if apk {
            let manifest = AndroidAppFixture.manifest(package: package, filters: [.appLinks(["apk.test", "*.apk.test", "apk-wrong-key.test"])])
            let file = try AndroidAppFixture.apk(in: folder, manifest: manifest, signers: [signer], schemes: [.v2, .v3])
            extra = ["--apk", file.path]
            let list = ScenarioFiles.assetLinks.replacingOccurrences(of: release, with: signer.sha256)
            try list.write(to: sites.directory.appendingPathComponent("files/apk-assetlinks.json"), atomically: true, encoding: .utf8)
        }
        let outcome = try AuditBinary.run(
            ["--cacert", sites.certificateAuthority.certificatePath, "--timeout", "2", "--connect-timeout", "2", "--no-cdn",
             "--out", "out", "--format", "json,html,md,junit", "--no-history"] + extra + arguments + sites.connectToArguments, in: folder)
        return Run(outcome: outcome, report: try AuditBinary.readReport(at: folder.appendingPathComponent("out/report.json")), signer: signer, folder: folder.path)
    }

    static let apkRun: Result<Run, any Error> = Result { try audit([], apk: true) }

    static func domain(_ host: String, in run: Run) throws -> DomainResult {
        try #require(run.report.domains.first { $0.domain == host }, "\(run.report.domains.map(\.domain))")
    }

    @Test func theAPKsHostsAreAuditedAndOnlyThoseItVerifies() throws {
        let run = try Self.apkRun.get()
        // *.apk.test is verified at apk.test: one domain.
        #expect(run.report.domains.map(\.domain).sorted() == ["apk-wrong-key.test", "apk.test"], "\(run.outcome.stderr)")
        #expect(run.outcome.status == 1, "apk-wrong-key.test fails: \(run.outcome.stderr)")
    }

    @Test func theRightPackageAndFingerprintPassWithoutAnAASAFile() throws {
        let run = try Self.apkRun.get()
        let result = try Self.domain("apk.test", in: run)
        #expect(result.verdict == .pass, "\(result.allFindings.filter { $0.severity != .info }.map(\.message))")
        #expect(result.appleVerdict == .fail, "no AASA file is served")
        #expect(result.platforms == ["android"])
        #expect(result.android?.findings.map(\.id) == ["expect.android-met", "expect.play-app-signing"])
    }

    @Test func aWrongFingerprintFailsNamingBoth() throws {
        let run = try Self.apkRun.get()
        let result = try Self.domain("apk-wrong-key.test", in: run)
        #expect(result.verdict == .fail)
        let headline = try #require(result.headline)
        #expect(headline.id == "expect.fingerprint-missing")
        #expect(headline.message.contains(run.signer.sha256) && headline.message.contains(Self.release), "\(headline.message)")
        // Said on the terminal too, with the Play App Signing note in the reports.
        #expect(run.outcome.stdout.contains("apk-wrong-key.test"))
        #expect(result.android?.findings.contains { $0.id == "expect.play-app-signing" && $0.message.contains("Play App Signing") } == true)
    }

    @Test func expectationsOnTheCommandLineMakeADomainAndroidOnly() throws {
        let run = try Self.audit(["android-only.test", "platforms=android", "android=\(Self.package)", "sha256=\(Self.release)"], apk: false)
        #expect(run.outcome.status == 0, "\(run.outcome.stdout)\(run.outcome.stderr)")
        let result = try Self.domain("android-only.test", in: run)
        #expect(result.verdict == .pass && result.platforms == ["android"])
        #expect(result.android?.findings.map(\.id) == ["expect.android-met"])
    }

    /// With --entitlements too: the hosts claimed by one platform's apps and not the other's go into
    /// report.json, the HTML and the Markdown report (information), not only stderr.
    @Test func theHostsOnePlatformClaimsAloneAreInTheReports() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>application-identifier</key><string>ABQ7KM3X2P.com.exemplo.app</string>
            <key>com.apple.developer.associated-domains</key>
            <array><string>applinks:apk.test</string><string>applinks:good.test</string></array>
            </dict></plist>
            """
        let entitlements = folder.appendingPathComponent("App.entitlements")
        try plist.write(to: entitlements, atomically: true, encoding: .utf8)
        let run = try Self.audit(["--entitlements", entitlements.path], apk: true)
        let hosts = try #require(run.report.appLinkHosts, "\(run.outcome.stderr)")
        #expect(hosts == AppLinkHostComparison(appleOnly: ["good.test"], androidOnly: ["*.apk.test", "apk-wrong-key.test"], shared: 1))
        #expect(run.outcome.stderr.contains("claimed by the Android apps only"))
        let out = URL(fileURLWithPath: run.folder).appendingPathComponent("out")
        let html = try String(contentsOf: out.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(html.contains("Link hosts of the iOS and Android apps") && html.contains("<code>apk-wrong-key.test</code>"))
        let markdown = try String(contentsOf: out.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(markdown.contains("| `good.test` | `*.apk.test` |"), "\(markdown)")
        // Without --entitlements there is nothing to compare.
        #expect(try Self.apkRun.get().report.appLinkHosts == nil)
    }

    @Test func withoutPlatformsTheMissingAASAFileStillFails() throws {
        let run = try Self.audit(["android-only.test", "android=\(Self.package)"], apk: false)
        #expect(run.outcome.status == 1)
        #expect(try Self.domain("android-only.test", in: run).platforms == ["apple", "android"])
    }
}
