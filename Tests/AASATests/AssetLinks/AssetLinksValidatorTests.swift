import Testing
@testable import AASA

/// One statement-list document and the findings it must produce (ids in order, with a pointer each).
struct AssetLinksCase: Sendable, CustomTestStringConvertible {
    let name: String
    let json: String
    /// (id, pointer) of every finding, in order; empty for a clean file.
    let expected: [(String, String?)]
    var testDescription: String { name }
}

private let release = "D2:EA:8B:A3:B0:4B:5C:C0:6A:4B:48:E5:AD:5F:C2:9B:22:4D:63:67:A4:A5:26:1D:22:27:71:49:48:38:A7:0C"

private func app(_ fingerprints: String = "[\"\(release)\"]", package: String = "\"com.exemplo.app\"",
                 relation: String = "[\"delegate_permission/common.handle_all_urls\"]", extra: String = "") -> String {
    "{\"relation\": \(relation), \"target\": {\"namespace\": \"android_app\", \"package_name\": \(package), \"sha256_cert_fingerprints\": \(fingerprints)}\(extra)}"
}

private func dynamic(_ rule: String) -> String {
    app(extra: ", \"relation_extensions\": {\"delegate_permission/common.handle_all_urls\": {\"dynamic_app_deep_link_components\": [\(rule)]}}")
}

private let dynamicPointer = "/0/relation_extensions/delegate_permission~1common.handle_all_urls/dynamic_app_deep_link_components/0"

@Test(arguments: [
    AssetLinksCase(name: "a good statement", json: "[\(app())]", expected: []),
    AssetLinksCase(name: "both known relations and a web target",
                   json: "[\(app(relation: "[\"delegate_permission/common.handle_all_urls\", \"delegate_permission/common.get_login_creds\"]")), {\"relation\": [\"delegate_permission/common.get_login_creds\"], \"target\": {\"namespace\": \"web\", \"site\": \"https://www.example.com\"}}]",
                   expected: []),
    AssetLinksCase(name: "root is an object", json: "{\"relation\": []}", expected: [("assetlinks.not-array", "")]),
    AssetLinksCase(name: "API response shape", json: "{\"statements\": []}", expected: [("assetlinks.not-array", "")]),
    AssetLinksCase(name: "empty list", json: "[]", expected: [("assetlinks.empty", "")]),
    AssetLinksCase(name: "statement not an object", json: "[\"x\"]", expected: [("assetlinks.statement-type", "/0")]),
    AssetLinksCase(name: "no relation", json: "[{\"target\": {\"namespace\": \"web\", \"site\": \"https://a.example\"}}]",
                   expected: [("assetlinks.relation-missing", "/0")]),
    AssetLinksCase(name: "relation as a string", json: "[\(app(relation: "\"delegate_permission/common.handle_all_urls\""))]",
                   expected: [("assetlinks.relation-missing", "/0/relation")]),
    AssetLinksCase(name: "relation misspelled", json: "[\(app(relation: "[\"delegate_permission/common.handle_all_url\"]"))]",
                   expected: [("assetlinks.relation-unknown", "/0/relation/0")]),
    AssetLinksCase(name: "relation with a capital", json: "[\(app(relation: "[\"delegate_permission/common.Handle_all_urls\"]"))]",
                   expected: [("assetlinks.relation-malformed", "/0/relation/0")]),
    AssetLinksCase(name: "relation with a trailing space", json: "[\(app(relation: "[\"delegate_permission/common.handle_all_urls \"]"))]",
                   expected: [("assetlinks.relation-malformed", "/0/relation/0")]),
    AssetLinksCase(name: "relation without a kind", json: "[\(app(relation: "[\"common.handle_all_urls\"]"))]",
                   expected: [("assetlinks.relation-malformed", "/0/relation/0")]),
    AssetLinksCase(name: "relation with a wildcard", json: "[\(app(relation: "[\"delegate_permission/*\"]"))]",
                   expected: [("assetlinks.relation-malformed", "/0/relation/0")]),
    AssetLinksCase(name: "another well-formed relation", json: "[\(app(relation: "[\"navigate/yellow_brick_road\"]"))]",
                   expected: [("assetlinks.relation-unknown", "/0/relation/0")]),
    AssetLinksCase(name: "no target", json: "[{\"relation\": [\"delegate_permission/common.handle_all_urls\"]}]",
                   expected: [("assetlinks.target-missing", "/0")]),
    AssetLinksCase(name: "unknown namespace", json: "[{\"relation\": [\"delegate_permission/common.handle_all_urls\"], \"target\": {\"namespace\": \"ios_app\"}}]",
                   expected: [("assetlinks.namespace-unknown", "/0/target/namespace")]),
    AssetLinksCase(name: "package name with a hyphen", json: "[\(app(package: "\"com.example-app\""))]",
                   expected: [("assetlinks.package-name", "/0/target/package_name")]),
    AssetLinksCase(name: "package name of one segment", json: "[\(app(package: "\"example\""))]",
                   expected: [("assetlinks.package-name", "/0/target/package_name")]),
    AssetLinksCase(name: "package segment starting with a digit", json: "[\(app(package: "\"com.1example\""))]",
                   expected: [("assetlinks.package-name", "/0/target/package_name")]),
    AssetLinksCase(name: "no fingerprints", json: "[{\"relation\": [\"delegate_permission/common.handle_all_urls\"], \"target\": {\"namespace\": \"android_app\", \"package_name\": \"com.exemplo.app\"}}]",
                   expected: [("assetlinks.fingerprints-missing", "/0/target")]),
    AssetLinksCase(name: "fingerprints as a string", json: "[\(app("\"\(release)\""))]",
                   expected: [("assetlinks.fingerprints-missing", "/0/target/sha256_cert_fingerprints")]),
    AssetLinksCase(name: "lower-case fingerprint", json: "[\(app("[\"\(release.lowercased())\"]"))]",
                   expected: [("assetlinks.fingerprint-lowercase", "/0/target/sha256_cert_fingerprints/0")]),
    AssetLinksCase(name: "fingerprint without colons", json: "[\(app("[\"\(release.replacingOccurrences(of: ":", with: ""))\"]"))]",
                   expected: [("assetlinks.fingerprint-no-colons", "/0/target/sha256_cert_fingerprints/0")]),
    AssetLinksCase(name: "SHA-1 fingerprint", json: "[\(app("[\"AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01\"]"))]",
                   expected: [("assetlinks.fingerprint-sha1", "/0/target/sha256_cert_fingerprints/0")]),
    AssetLinksCase(name: "placeholder fingerprint", json: "[\(app("[\"hash_of_app_certificate\"]"))]",
                   expected: [("assetlinks.fingerprint-format", "/0/target/sha256_cert_fingerprints/0")]),
    AssetLinksCase(name: "web site with a path", json: "[{\"relation\": [\"delegate_permission/common.get_login_creds\"], \"target\": {\"namespace\": \"web\", \"site\": \"https://example.com/login\"}}]",
                   expected: [("assetlinks.site", "/0/target/site")]),
    AssetLinksCase(name: "web site with the default port", json: "[{\"relation\": [\"delegate_permission/common.get_login_creds\"], \"target\": {\"namespace\": \"web\", \"site\": \"https://example.com:443\"}}]",
                   expected: [("assetlinks.site", "/0/target/site")]),
    AssetLinksCase(name: "include statement", json: "[{\"include\": \"https://example.com/more.json\"}]",
                   expected: [("assetlinks.include", "/0/include")]),
    AssetLinksCase(name: "include over http", json: "[{\"include\": \"http://127.0.0.1/more.json\"}]",
                   expected: [("assetlinks.include-invalid", "/0/include")]),
    AssetLinksCase(name: "duplicate statement", json: "[\(app()), \(app())]",
                   expected: [("assetlinks.duplicate-statement", "/1")]),
    AssetLinksCase(name: "good dynamic rules", json: "[\(dynamic("{\"/\": \"/p/*\", \"?\": {\"ref\": \"*\"}, \"#\": \"top\", \"exclude\": false, \"comments\": \"x\"}"))]",
                   expected: []),
    AssetLinksCase(name: "exclude as a string", json: "[\(dynamic("{\"/\": \"/p/*\", \"exclude\": \"true\"}"))]",
                   expected: [("assetlinks.dynamic-rule-type", dynamicPointer + "/exclude")]),
    AssetLinksCase(name: "query as a string", json: "[\(dynamic("{\"?\": \"ref=*\"}"))]",
                   expected: [("assetlinks.dynamic-rule-type", dynamicPointer + "/?")]),
    AssetLinksCase(name: "query value a number", json: "[\(dynamic("{\"?\": {\"page\": 2}}"))]",
                   expected: [("assetlinks.dynamic-rule-type", dynamicPointer + "/?/page")]),
    AssetLinksCase(name: "path a number", json: "[\(dynamic("{\"/\": 3}"))]",
                   expected: [("assetlinks.dynamic-rule-type", dynamicPointer + "/~1")]),
    AssetLinksCase(name: "misspelled comments", json: "[\(dynamic("{\"/\": \"/p\", \"comment\": \"x\"}"))]",
                   expected: [("assetlinks.dynamic-rule-key", dynamicPointer + "/comment")]),
    AssetLinksCase(name: "extension for a relation not granted",
                   json: "[\(app(relation: "[\"delegate_permission/common.get_login_creds\"]", extra: ", \"relation_extensions\": {\"delegate_permission/common.handle_all_urls\": {}}"))]",
                   expected: [("assetlinks.dynamic-rule-relation", "/0/relation_extensions/delegate_permission~1common.handle_all_urls")]),
    AssetLinksCase(name: "trailing comma", json: "[\(app()),]", expected: [("json.syntax", nil)]),
    AssetLinksCase(name: "duplicate key", json: "[{\"relation\": [], \"relation\": [\"delegate_permission/common.handle_all_urls\"], \"target\": {\"namespace\": \"web\", \"site\": \"https://a.example\"}}]",
                   expected: [("json.duplicate-key", "/0/relation")]),
])
func assetLinksRules(_ test: AssetLinksCase) {
    let findings = AssetLinksValidator.validate(Array(test.json.utf8)).findings
    #expect(findings.map(\.id) == test.expected.map(\.0), "\(findings.map(\.message))")
    #expect(findings.map(\.pointer) == test.expected.map(\.1))
    for finding in findings {
        #expect(AssetLinksValidator.rules.contains { $0.id == finding.id } || AssetLinksValidator.sharedJSONRules.contains { $0.id == finding.id })
        #expect(!finding.message.isEmpty && finding.fix?.isEmpty == false)
    }
}

@Test(arguments: [
    ("D2:EA:8B:A3:B0:4B:5C:C0:6A:4B:48:E5:AD:5F:C2:9B:22:4D:63:67:A4:A5:26:1D:22:27:71:49:48:38:A7:0C", nil as String?),
    ("D2:ea:8B:A3:B0:4B:5C:C0:6A:4B:48:E5:AD:5F:C2:9B:22:4D:63:67:A4:A5:26:1D:22:27:71:49:48:38:A7:0C", "assetlinks.fingerprint-lowercase"),
    ("D2EA8BA3B04B5CC06A4B48E5AD5FC29B224D6367A4A5261D222771494838A70C", "assetlinks.fingerprint-no-colons"),
    ("d2ea8ba3b04b5cc06a4b48e5ad5fc29b224d6367a4a5261d222771494838a70c", "assetlinks.fingerprint-no-colons"),
    ("AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01", "assetlinks.fingerprint-sha1"),
    ("ABCDEF0123456789ABCDEF0123456789ABCDEF01", "assetlinks.fingerprint-sha1"),
    ("D2:EA:8B:A3:B0:4B:5C:C0:6A:4B:48:E5:AD:5F:C2:9B:22:4D:63:67:A4:A5:26:1D:22:27:71:49:48:38:A7", "assetlinks.fingerprint-format"),
    ("146:DE9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5", "assetlinks.fingerprint-format"),
    (" D2:EA:8B:A3:B0:4B:5C:C0:6A:4B:48:E5:AD:5F:C2:9B:22:4D:63:67:A4:A5:26:1D:22:27:71:49:48:38:A7:0C", "assetlinks.fingerprint-format"),
    ("", "assetlinks.fingerprint-format"),
    ("GG:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5", "assetlinks.fingerprint-format"),
])
func fingerprintForms(_ text: String, _ rule: String?) {
    #expect(SHA256Fingerprint.problem(text)?.rule.id == rule)
}

/// A root that is not an array says to wrap the statement in [ ]; one statement alone is named as such.
@Test(arguments: [
    ("{\"relation\": [\"delegate_permission/common.handle_all_urls\"], \"target\": {\"namespace\": \"web\", \"site\": \"https://a.example\"}}",
     "one statement without the list around it"),
    ("{\"statements\": []}", "Digital Asset Links API response"),
    ("\"x\"", "a string, not an array"),
])
func notArraySaysToWrapTheStatement(_ json: String, _ mentions: String) throws {
    let finding = try #require(AssetLinksValidator.validate(Array(json.utf8)).findings.first { $0.id == "assetlinks.not-array" })
    #expect(finding.message.contains(mentions), "\(finding.message)")
    #expect(finding.fix?.hasPrefix("Wrap the statement in [ ]") == true, "\(finding.fix ?? "")")
}

@Test func normalizedFingerprintIsUpperCaseWithColons() {
    #expect(SHA256Fingerprint.normalized(release.lowercased()) == release)
    #expect(SHA256Fingerprint.normalized(release.replacingOccurrences(of: ":", with: "")) == release)
    #expect(SHA256Fingerprint.normalized("AB:CD") == nil)
}

@Test func documentAnswersWhatTheExpectationsAsk() throws {
    let json = "[\(app(relation: "[\"delegate_permission/common.handle_all_urls\"]")), \(app("[\"\(release.lowercased())\"]", relation: "[\"delegate_permission/common.get_login_creds\"]"))]"
    let document = try #require(AssetLinksValidator.validate(Array(json.utf8)).document)
    #expect(document.grants(AssetLinksDocument.Relation.handleAllURLs, to: "com.exemplo.app"))
    #expect(!document.grants(AssetLinksDocument.Relation.handleAllURLs, to: "com.exemplo.other"))
    #expect(document.fingerprints(of: "com.exemplo.app", relation: AssetLinksDocument.Relation.getLoginCreds) == [release.lowercased()])
    #expect(document.packageNames == ["com.exemplo.app"])
}

@Test(arguments: [
    ("assetlinks.json", "{}", true),
    ("/srv/www/.well-known/assetlinks.json", "not json", true),
    ("apple-app-site-association", "[]", true),
    ("apple-app-site-association", "{\"applinks\": {}}", false),
    ("-", "  [ ] ", true),
])
func validateRecognisesStatementLists(_ name: String, _ text: String, _ expected: Bool) {
    #expect(AssetLinksValidator.isStatementList(fileName: name, bytes: Array(text.utf8)) == expected)
}

@Test func everyRuleIsUnderTheAssetlinksCategoryOnce() {
    let ids = AssetLinksValidator.rules.map(\.id)
    #expect(Set(ids).count == ids.count)
    #expect(ids.allSatisfy { $0.hasPrefix("assetlinks.") })
}

@Test func thousandsOfBadStatementsGiveABoundedReport() {
    let statements = (0..<500).map { _ in app("[\"\(release.lowercased())\"]") }
    let findings = AssetLinksValidator.validate(Array("[\(statements.joined(separator: ","))]".utf8)).findings
    let lowercase = findings.filter { $0.id == "assetlinks.fingerprint-lowercase" }
    #expect(lowercase.count == AssetLinksValidator.perRuleLimit + 1)
    #expect(lowercase.last?.message == "480 more assetlinks.fingerprint-lowercase findings are not listed.")
    let duplicates = findings.filter { $0.id == "assetlinks.duplicate-statement" }
    #expect(duplicates.count == AssetLinksValidator.perRuleLimit + 1)
    #expect(duplicates.first?.message == "Statement /1 repeats statement /0.")
    #expect(duplicates.last?.message == "479 more assetlinks.duplicate-statement findings are not listed.")
}
