import AASA
import Audit
import Testing

private let release = "D2:EA:8B:A3:B0:4B:5C:C0:6A:4B:48:E5:AD:5F:C2:9B:22:4D:63:67:A4:A5:26:1D:22:27:71:49:48:38:A7:0C"
private let upload = "AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99"
private let debug = "A1:B2:C3:D4:E5:F6:07:18:29:3A:4B:5C:6D:7E:8F:90:A1:B2:C3:D4:E5:F6:07:18:29:3A:4B:5C:6D:7E:8F:90"

private func statements(_ fingerprints: [String], relation: String = AssetLinksDocument.Relation.handleAllURLs,
                        package: String = "com.exemplo.app") throws -> AssetLinksDocument {
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
    AndroidExpectationCase(line: "android=com.exemplo.app", fingerprints: [release], relation: AssetLinksDocument.Relation.handleAllURLs,
                           ids: ["expect.android-met"], mentions: ["The Android expectation in the domain list holds"]),
    AndroidExpectationCase(line: "android=com.exemplo.app sha256=\(release) sha256=\(upload)", fingerprints: [upload, release],
                           relation: AssetLinksDocument.Relation.handleAllURLs, ids: ["expect.android-met"], mentions: []),
    AndroidExpectationCase(line: "android=com.exemplo.other", fingerprints: [release], relation: AssetLinksDocument.Relation.handleAllURLs,
                           ids: ["expect.android-missing"], mentions: ["com.exemplo.other", "it names com.exemplo.app"]),
    AndroidExpectationCase(line: "android=com.exemplo.app", fingerprints: [release], relation: AssetLinksDocument.Relation.getLoginCreds,
                           ids: ["expect.android-missing"], mentions: ["delegate_permission/common.handle_all_urls"]),
    AndroidExpectationCase(line: "android-creds=com.exemplo.app", fingerprints: [release], relation: AssetLinksDocument.Relation.handleAllURLs,
                           ids: ["expect.android-creds-missing"], mentions: ["get_login_creds"]),
    AndroidExpectationCase(line: "android=com.exemplo.app sha256=\(release)", fingerprints: [debug], relation: AssetLinksDocument.Relation.handleAllURLs,
                           ids: ["expect.fingerprint-missing"], mentions: [release, "it lists only \(debug)", "None of the expected keys"]),
    AndroidExpectationCase(line: "android=com.exemplo.app sha256=\(release) sha256=\(upload)", fingerprints: [release],
                           relation: AssetLinksDocument.Relation.handleAllURLs, ids: ["expect.fingerprint-missing"], mentions: [upload, "it lists only \(release)."]),
    AndroidExpectationCase(line: "sha256=\(release.lowercased())", fingerprints: [release], relation: AssetLinksDocument.Relation.handleAllURLs,
                           ids: ["expect.android-met"], mentions: []),
    AndroidExpectationCase(line: "sha256=\(release)", fingerprints: [debug], relation: AssetLinksDocument.Relation.handleAllURLs,
                           ids: ["expect.fingerprint-missing"], mentions: ["for any app", debug]),
    AndroidExpectationCase(line: "app=ABQ7KM3X2P.com.exemplo.app", fingerprints: [debug], relation: AssetLinksDocument.Relation.handleAllURLs,
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
    let json = "[{\"include\": \"https://example.com/more.json\"}, {\"relation\": [\"delegate_permission/common.handle_all_urls\"], \"target\": {\"namespace\": \"android_app\", \"package_name\": \"com.exemplo.app\", \"sha256_cert_fingerprints\": [\"\(debug)\"]}}]"
    let document = try #require(AssetLinksValidator.validate(Array(json.utf8)).document)
    for line in ["android-creds=com.exemplo.app", "android=com.exemplo.other", "android=com.exemplo.app sha256=\(release)", "sha256=\(release)"] {
        let findings = AndroidExpectationCheck.findings(try expectations(line), domain: "example.com", document: document)
        #expect(findings.map(\.id) == ["expect.android-unchecked"], "\(line): \(findings.map(\.message))")
        #expect(findings.first?.message.contains("It includes https://example.com/more.json") == true, "\(findings.first?.message ?? "")")
        #expect(findings.first?.severity == .warning)
    }
    let met = AndroidExpectationCheck.findings(try expectations("android=com.exemplo.app sha256=\(debug)"), domain: "example.com", document: document)
    #expect(met.map(\.id) == ["expect.android-met"])
}

@Test func unreadableFileLeavesTheExpectationsUnchecked() throws {
    let findings = AndroidExpectationCheck.findings(try expectations("android=com.exemplo.app sha256=\(release)"), domain: "example.com", document: nil)
    #expect(findings.map(\.id) == ["expect.android-unchecked"])
    #expect(findings.first?.message.contains("2 Android expectations") == true)
}

@Test func appleExpectationsIgnoreTheAndroidOnes() throws {
    let findings = ExpectationCheck.findings(try expectations("android=com.exemplo.app"), domain: "example.com", document: nil)
    #expect(findings.isEmpty)
}

@Test(arguments: [
    ("android=com.example-app", "is not an Android package name"),
    ("android-creds=example", "at least two"),
    ("sha256=AB:CD", "32 hex bytes"),
    ("android=", "needs a value"),
    ("androids=com.exemplo.app", "did you mean android=?"),
])
func malformedAndroidExpectationsAreSyntaxErrors(_ token: String, _ reason: String) {
    let error = #expect(throws: ExpectationSyntaxError.self) { try expectations(token) }
    #expect(error?.reason.contains(reason) == true, "\(error?.reason ?? "")")
}

@Test func fingerprintExpectationsAreKeptInCanonicalForm() throws {
    let parsed = try expectations("android=com.exemplo.app sha256=\(release.lowercased().replacingOccurrences(of: ":", with: ""))")
    #expect(parsed.fingerprints == [release])
    #expect(parsed.androidCount == 2 && parsed.appleCount == 0)
}
