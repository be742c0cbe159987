import Audit
import Foundation
import Testing
import TestSupport

/// `include` statements in assetlinks.json, against nginx: each list fetched one level deep as
/// Android's verifier fetches it, its statements counted for the including file, its failure reported
/// against the including file.
@Suite struct AssetLinksIncludeEndToEndTests {
    static let release = ScenarioFiles.releaseFingerprint
    static let host = ScenarioFiles.includeHost
    static let list = """
        android-include.test  android=\(ScenarioFiles.androidPackage)  sha256=\(release)
        android-include-broken.test  android=\(ScenarioFiles.androidPackage)  sha256=\(release)
        """

    static let run: Result<AndroidEndToEndTests.Run, Error> = Result { try AndroidEndToEndTests.audit(list, android: false) }

    func android(_ domain: String) throws -> AndroidResult {
        let result = try #require(try Self.run.get().report.domains.first { $0.domain == domain })
        return try #require(result.android, "\(domain) has no Android part")
    }

    /// The app's statement is only in the included list: the expectations hold through it.
    @Test func anIncludedListsStatementsCountForTheIncludingFile() throws {
        let android = try android("android-include.test")
        #expect(android.verdict == .pass, "\(android.findings.map(\.message))")
        #expect(android.findings.map(\.id) == ["assetlinks.include-read", "expect.android-met"])
        let read = try #require(android.findings.first)
        #expect(read.message.contains("https://\(Self.host)/lists/app.json, included by https://android-include.test/.well-known/assetlinks.json, was read: 1 statement"), "\(read.message)")
        let included = try #require(android.includes)
        #expect(included.map(\.url) == ["https://\(Self.host)/lists/app.json"])
        #expect(included.first?.httpStatus == 200 && included.first?.role == .readByAndroid && included.first?.path == "/lists/app.json")
        // Another host: its own connection and certificate.
        #expect(included.first?.tls?.certificate?.subjectAltNames == [Self.host])
        #expect(android.location.findings.contains { $0.id == "assetlinks.include" && $0.message.contains("Android reads its statements") })
    }

    /// A 404 and a redirect are failures of the including file; the list that includes again is read,
    /// its own include is not (one level), and its statement is what the expectations are checked against.
    @Test func includeFailuresAreReportedAgainstTheIncludingFile() throws {
        let android = try android("android-include-broken.test")
        #expect(android.verdict == .fail)
        let problems = android.findings.filter { $0.severity != .info }
        #expect(problems.map(\.id) == ["assetlinks.include-failed", "assetlinks.include-failed", "assetlinks.include-nested", "expect.fingerprint-missing"],
                "\(android.findings.map(\.message))")
        let file = "https://android-include-broken.test/.well-known/assetlinks.json"
        #expect(problems[0].message.hasPrefix("https://\(Self.host)/lists/missing.json, included by \(file), could not be read:"), "\(problems[0].message)")
        #expect(problems[0].message.contains("(http.not-found)"))
        #expect(problems[1].message.contains("/lists/moved.json") && problems[1].message.contains("(redirect.present)"), "\(problems[1].message)")
        #expect(problems[1].message.contains("Android's App Links verifier"), "the redirect is named as one Android does not follow")
        #expect(problems[2].message.contains("includes https://\(Self.host)/lists/app.json"))
        // The nested list's statement (the debug key) is read; the list it includes (the release key) is not.
        #expect(problems[3].message.contains("it lists only \(ScenarioFiles.debugFingerprint)"), "\(problems[3].message)")
        let included = try #require(android.includes)
        #expect(included.map(\.url) == ["missing.json", "moved.json", "nested.json"].map { "https://\(Self.host)/lists/\($0)" })
        #expect(included.map(\.httpStatus) == [404, 301, 200])
        #expect(included[1].redirect?.end == "not followed")
    }

    @Test func everyReportNamesTheIncludeFailure() throws {
        let run = try Self.run.get()
        #expect(run.outcome.status == 1)
        let out = run.folder.appendingPathComponent("out")
        for name in ["report.html", "report.md", "report.junit.xml"] {
            let text = try String(contentsOf: out.appendingPathComponent(name), encoding: .utf8)
            #expect(text.contains("assetlinks.include-failed"), "\(name)")
        }
    }
}
