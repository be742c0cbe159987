import AASA
import Audit
import Testing

private let release = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
private let upload = "AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99"
private let debug = "A1:B2:C3:D4:E5:F6:07:18:29:3A:4B:5C:6D:7E:8F:90:A1:B2:C3:D4:E5:F6:07:18:29:3A:4B:5C:6D:7E:8F:90"

private func statements(_ fingerprints: [String], relation: String = AssetLinksDocument.Relation.handleAllURLs,
                        package: String = "com.example.app") throws -> AssetLinksDocument {
    let list = fingerprints.map { "\"\($0)\"" }.joined(separator: ", ")
    let json = "[{\"relation\": [\"\(relation)\"], \"target\": {\"namespace\": \"android_app\", \"package_name\": \"\(package)\", \"sha256_cert_fingerprints\": [\(list)]}}]"
    return try #require(AssetLinksValidator.validate(Array(json.utf8)).document)
}

private func expectations(_ line: String) throws -> DomainExpectations {
    try DomainExpectations.parse(line.split(separator: " "))
}

struct AndroidExpectationCase: Sendable, CustomTestStringConvertible {
    let line: String
    let fingerprints: [String]
    let relation: String
    let ids: [String]
    /// Texts the first finding's message must contain.
    let mentions: [String]
    var testDescription: String { line }
}

@Test(arguments: [
    AndroidExpectationCase(line: "android=com.example.app", fingerprints: [release], relation: AssetLinksDocument.Relation.handleAllURLs,
                           ids: ["expect.android-met"], mentions: ["The Android expectation in the domain list holds"]),
    AndroidExpectationCase(line: "android=com.example.app sha256=\(release) sha256=\(upload)", fingerprints: [upload, release],
                           relation: AssetLinksDocument.Relation.handleAllURLs, ids: ["expect.android-met"], mentions: []),
    AndroidExpectationCase(line: "android=com.example.other", fingerprints: [release], relation: AssetLinksDocument.Relation.handleAllURLs,
                           ids: ["expect.android-missing"], mentions: ["com.example.other", "it names com.example.app"]),
    AndroidExpectationCase(line: "android=com.example.app", fingerprints: [release], relation: AssetLinksDocument.Relation.getLoginCreds,
                           ids: ["expect.android-missing"], mentions: ["delegate_permission/common.handle_all_urls"]),
    AndroidExpectationCase(line: "android-creds=com.example.app", fingerprints: [release], relation: AssetLinksDocument.Relation.handleAllURLs,
                           ids: ["expect.android-creds-missing"], mentions: ["get_login_creds"]),
    AndroidExpectationCase(line: "android=com.example.app sha256=\(release)", fingerprints: [debug], relation: AssetLinksDocument.Relation.handleAllURLs,
                           ids: ["expect.fingerprint-missing"], mentions: [release, "it lists only \(debug)", "None of the expected keys"]),
    AndroidExpectationCase(line: "android=com.example.app sha256=\(release) sha256=\(upload)", fingerprints: [release],
                           relation: AssetLinksDocument.Relation.handleAllURLs, ids: ["expect.fingerprint-missing"], mentions: [upload, "it lists only \(release)."]),
    AndroidExpectationCase(line: "sha256=\(release.lowercased())", fingerprints: [release], relation: AssetLinksDocument.Relation.handleAllURLs,
                           ids: ["expect.android-met"], mentions: []),
    AndroidExpectationCase(line: "sha256=\(release)", fingerprints: [debug], relation: AssetLinksDocument.Relation.handleAllURLs,
                           ids: ["expect.fingerprint-missing"], mentions: ["for any app", debug]),
    AndroidExpectationCase(line: "app=ABCDE12345.com.example.app", fingerprints: [debug], relation: AssetLinksDocument.Relation.handleAllURLs,
                           ids: [], mentions: []),
])
func androidExpectations(_ test: AndroidExpectationCase) throws {
    let document = try statements(test.fingerprints, relation: test.relation)
    let findings = AndroidExpectationCheck.findings(try expectations(test.line), domain: "example.com", document: document)
    #expect(findings.map(\.id) == test.ids, "\(findings.map(\.message))")
    for text in test.mentions { #expect(findings.first?.message.contains(text) == true, "\(text) in \(findings.first?.message ?? "")") }
}

/// A file whose own statements do not grant what is expected but that includes other lists: Android
/// reads those too and the tool does not fetch them, so the expectation is unchecked (a warning), not
/// missing (an error that would fail a domain Android may well verify).
@Test func anIncludedListMayGrantWhatTheFileDoesNot() throws {
    let json = "[{\"include\": \"https://example.com/more.json\"}, {\"relation\": [\"delegate_permission/common.handle_all_urls\"], \"target\": {\"namespace\": \"android_app\", \"package_name\": \"com.example.app\", \"sha256_cert_fingerprints\": [\"\(debug)\"]}}]"
    let document = try #require(AssetLinksValidator.validate(Array(json.utf8)).document)
    for line in ["android-creds=com.example.app", "android=com.example.other", "android=com.example.app sha256=\(release)", "sha256=\(release)"] {
        let findings = AndroidExpectationCheck.findings(try expectations(line), domain: "example.com", document: document)
        #expect(findings.map(\.id) == ["expect.android-unchecked"], "\(line): \(findings.map(\.message))")
        #expect(findings.first?.message.contains("It includes https://example.com/more.json") == true, "\(findings.first?.message ?? "")")
        #expect(findings.first?.severity == .warning)
    }
    let met = AndroidExpectationCheck.findings(try expectations("android=com.example.app sha256=\(debug)"), domain: "example.com", document: document)
    #expect(met.map(\.id) == ["expect.android-met"])
}

@Test func unreadableFileLeavesTheExpectationsUnchecked() throws {
    let findings = AndroidExpectationCheck.findings(try expectations("android=com.example.app sha256=\(release)"), domain: "example.com", document: nil)
    #expect(findings.map(\.id) == ["expect.android-unchecked"])
    #expect(findings.first?.message.contains("2 Android expectations") == true)
}

@Test func appleExpectationsIgnoreTheAndroidOnes() throws {
    let findings = ExpectationCheck.findings(try expectations("android=com.example.app"), domain: "example.com", document: nil)
    #expect(findings.isEmpty)
}

@Test(arguments: [
    ("android=com.example-app", "is not an Android package name"),
    ("android-creds=example", "at least two"),
    ("sha256=AB:CD", "32 hex bytes"),
    ("android=", "needs a value"),
    ("androids=com.example.app", "did you mean android=?"),
])
func malformedAndroidExpectationsAreSyntaxErrors(_ token: String, _ reason: String) {
    let error = #expect(throws: ExpectationSyntaxError.self) { try expectations(token) }
    #expect(error?.reason.contains(reason) == true, "\(error?.reason ?? "")")
}

@Test func fingerprintExpectationsAreKeptInCanonicalForm() throws {
    let parsed = try expectations("android=com.example.app sha256=\(release.lowercased().replacingOccurrences(of: ":", with: ""))")
    #expect(parsed.fingerprints == [release])
    #expect(parsed.androidCount == 2 && parsed.appleCount == 0)
}
