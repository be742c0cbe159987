import AASA
import Audit
import Foundation
import Reporting
import TestSupport
import Testing
@testable import Run

/// Every number of the report model at the edges of Int64 in a shard: `merge` calls the shard
/// unusable and names the field, and nothing traps (issue 31). The table must name every number the
/// shard below holds, so a number added to the model and to this shard is not left unchecked.
@Suite struct ReportNumberRangeTests {
    static let generatedAt = Date(timeIntervalSince1970: 1_800_000_000)

    /// A one-domain shard with every number of the report model present (lines and columns of
    /// findings are absent from a report the tool writes: the table adds them).
    static func shard() -> AuditReport {
        let finding = Finding(id: "document.x", severity: .warning, message: "m", check: "document")
        let failure = TransferFailure(kind: .other, curlCode: 7, message: "refused")
        let certificate = ServerCertificate(subject: "CN=a.test", issuer: "Test CA", subjectAltNames: ["a.test"],
                                            notBefore: generatedAt.addingTimeInterval(-86_400), notAfter: generatedAt.addingTimeInterval(60 * 86_400),
                                            daysLeft: 60, keyAlgorithm: "id-ecPublicKey", keyBits: 256, validityDays: 61, embeddedSCTs: 2)
        let tls = TLSConnection(version: "TLSv1.3", certificate: certificate,
                                chain: [ChainCertificate(subject: "CN=Test CA", issuer: "CN=Test CA", keyBits: 2048)])
        func location(_ path: String) -> LocationResult {
            LocationResult(path: path, url: "https://a.test" + path, verdict: .warn, httpStatus: 200, contentType: "application/json",
                           headers: [], bytes: BodySize(transferred: 2, decoded: 2, limit: AASAFile.maximumSize),
                           redirect: RedirectChain(location: path, hops: [RedirectHop(url: "https://a.test/x", status: 301, location: "/y",
                                                                                      contentType: nil, error: nil)],
                                                   end: "https://a.test/y", endServesJSONObject: true),
                           tls: tls, timings: TransferTimings(dnsMs: 1, connectMs: 2, tlsMs: 3, firstByteMs: 4, totalMs: 5),
                           error: failure, body: "{}", findings: [finding])
        }
        var domain = DomainResult(domain: "a.test", verdict: .warn, usedLocation: AASAFile.wellKnownPath, findings: [finding],
                                  locations: [location(AASAFile.wellKnownPath)],
                                  cdn: CDNResult(url: "https://app-site-association.cdn-apple.com/a/v1/a.test", httpStatus: 200, error: failure),
                                  crawler: CrawlerResult(userAgent: "Swcd", path: AASAFile.wellKnownPath, httpStatus: 200, toolHTTPStatus: 200, sameBody: true))
        domain.android = AndroidResult(location: location("/.well-known/assetlinks.json"), findings: [finding])
        domain.claims = [ClaimOutcome(appID: "ABQ7KM3X2P.com.exemplo.app", entry: "applinks:a.test", index: 0, service: .applinks, covers: "a.test",
                                      fileHost: "a.test", mode: nil, resolution: "r", location: nil, works: true, reason: "ok", findingID: "x")]
        domain.addressFamilies = AddressFamilyComparison(families: [FamilyOutcome(family: "ipv4", address: "127.0.0.1", status: 200, bodyBytes: 2, error: nil)],
                                                         same: true)
        var report = AuditReport(tool: ToolInfo(name: "aasa-audit", version: "test"), generatedAt: generatedAt,
                                 inputErrors: [InputProblem(file: "domains.txt", line: 3, text: "x y", reason: "contains a space")], domains: [domain])
        report.shard = Shard(index: 1, count: 1)
        report.inputErrorsOmitted = 1
        report.changes = ReportChanges(baselineGeneratedAt: generatedAt.addingTimeInterval(-86_400), baselinePath: "b.json",
                                       newlyFailing: [VerdictChange(domain: "a.test", from: .pass, to: .fail, reason: finding)],
                                       recovered: [VerdictChange(domain: "a.test", from: .fail, to: .pass, reason: finding)],
                                       otherVerdictChanges: [VerdictChange(domain: "a.test", from: .pass, to: .warn, reason: finding)],
                                       certificates: [CertificateChange(domain: "a.test", kind: .expired, daysLeftBefore: 1, daysLeft: -1, notAfter: generatedAt)])
        report.history = ReportHistory(earlierListRuns: 3, failingSince: [FailingStreak(domain: "a.test", since: generatedAt, runs: 2)],
                                       fixed: [FixedDomain(domain: "a.test", afterRuns: 2, verdict: .pass)],
                                       flapping: [FlappingDomain(domain: "a.test", changes: 3, verdicts: [.pass, .fail, .pass])],
                                       expiringCertificates: [ExpiringCertificate(domain: "a.test", notAfter: generatedAt, daysLeft: 5, issuer: nil,
                                                                                  expiry: .expiringSoon)],
                                       trend: [RunTally(generatedAt: generatedAt, pass: 1, warn: 0, fail: 0, complete: true)])
        report.apps = [AppResult(source: "App.entitlements", kind: "entitlements", appID: "ABQ7KM3X2P.com.exemplo.app", appIDSource: "x",
                                 entries: domain.claims ?? [], notAudited: 0, skippedEntries: 0, findings: [finding])]
        return report
    }

    /// Each number (a path into report.json) and the field the refusal names ("" for the same path).
    static let fields: [(path: String, named: String)] = [
        ("schemaVersion", "schema version"), ("shard/index", "shard"), ("shard/count", "shard"),
        ("summary/domains", ""), ("summary/pass", ""), ("summary/warn", ""), ("summary/fail", ""),
        ("summary/android/domains", ""), ("summary/android/pass", ""), ("summary/android/warn", ""), ("summary/android/fail", ""),
        ("inputErrorsOmitted", ""), ("expiryWarningDays", ""), ("inputErrors/0/line", "inputErrors[0].line"),
        ("changes/certificates/0/daysLeftBefore", "changes.certificates[0].daysLeftBefore"),
        ("changes/certificates/0/daysLeft", "changes.certificates[0].daysLeft"),
        ("changes/newlyFailing/0/reason/line", "changes.newlyFailing[0].reason.line"),
        ("changes/recovered/0/reason/column", "changes.recovered[0].reason.column"),
        ("changes/otherVerdictChanges/0/reason/line", "changes.otherVerdictChanges[0].reason.line"),
        ("history/earlierListRuns", ""), ("history/expiryWarningDays", ""),
        ("history/failingSince/0/runs", "history.failingSince[0].runs"), ("history/fixed/0/afterRuns", "history.fixed[0].afterRuns"),
        ("history/flapping/0/changes", "history.flapping[0].changes"),
        ("history/expiringCertificates/0/daysLeft", "history.expiringCertificates[0].daysLeft"),
        ("history/trend/0/pass", "history.trend[0].pass"), ("history/trend/0/warn", "history.trend[0].warn"),
        ("history/trend/0/fail", "history.trend[0].fail"),
        ("apps/0/notAudited", "apps[0].notAudited"), ("apps/0/skippedEntries", "apps[0].skippedEntries"),
        ("apps/0/entries/0/index", "apps[0].entries[0].index"), ("apps/0/findings/0/line", "apps[0].findings[0].line"),
        ("domains/0/certificate/daysLeft", "certificate.daysLeft"),
        ("domains/0/findings/0/line", "findings[0].line"), ("domains/0/findings/0/column", "findings[0].column"),
        ("domains/0/headline/line", "headline.line"),
        ("domains/0/cdn/httpStatus", "cdn.httpStatus"), ("domains/0/cdn/error/curlCode", "cdn.error.curlCode"),
        ("domains/0/crawler/httpStatus", "crawler.httpStatus"), ("domains/0/crawler/toolHTTPStatus", "crawler.toolHTTPStatus"),
        ("domains/0/claims/0/index", "claims[0].index"),
        ("domains/0/addressFamilies/families/0/status", "addressFamilies.families[0].status"),
        ("domains/0/addressFamilies/families/0/bodyBytes", "addressFamilies.families[0].bodyBytes"),
        ("domains/0/android/findings/0/line", "android.findings[0].line"),
    ] + ["locations/0", "android/location"].flatMap { location in
        ["httpStatus", "bytes/transferred", "bytes/decoded", "bytes/limit", "redirect/hops/0/status",
         "tls/certificate/daysLeft", "tls/certificate/keyBits", "tls/certificate/validityDays", "tls/certificate/embeddedSCTs",
         "tls/chain/0/keyBits", "timings/dnsMs", "timings/connectMs", "timings/tlsMs", "timings/firstByteMs", "timings/totalMs",
         "error/curlCode", "findings/0/line", "findings/0/column"].map { field in
            ("domains/0/\(location)/\(field)", "")
        }
    }

    /// The field as `ReportRange.Checker` names it: dots between keys, `[n]` after arrays.
    static func checkerName(_ path: String) -> String {
        var parts = path.split(separator: "/").map(String.init)
        if parts.first == "domains" { parts.removeFirst(2) }
        var name = ""
        for part in parts {
            if Int(part) != nil { name += "[\(part)]" } else { name += (name.isEmpty ? "" : ".") + part }
        }
        return name
    }

    static func setting(_ value: Any, at path: [String], in container: Any) throws -> Any {
        guard let key = path.first else { return value }
        let rest = Array(path.dropFirst())
        if var array = container as? [Any], let index = Int(key), array.indices.contains(index) {
            array[index] = try setting(value, at: rest, in: array[index])
            return array
        }
        var object = try #require(container as? [String: Any], "no object at \(key)")
        if rest.isEmpty {
            object[key] = value
        } else {
            object[key] = try setting(value, at: rest, in: try #require(object[key], "\(key) is missing"))
        }
        return object
    }

    /// Numbers in `value` (read with the tool's own parser, which tells numbers from booleans), as
    /// paths with "/" between keys.
    static func numberPaths(_ value: JSONValue, _ path: String = "") -> [String] {
        let inside = { (key: String) in path.isEmpty ? key : "\(path)/\(key)" }
        switch value {
        case .object(let object): return object.members.flatMap { numberPaths($0.value, inside($0.key)) }
        case .array(let elements): return elements.enumerated().flatMap { numberPaths($0.element, inside(String($0.offset))) }
        case .number: return [path]
        case .null, .bool, .string: return []
        }
    }

    @Test func theTableNamesEveryNumberOfTheShard() throws {
        let root = try JSONParser.parse(Array(try JSONReporter.render(Self.shard()))).root
        let listed = Set(Self.fields.map(\.path))
        let unlisted = Self.numberPaths(root).filter { !listed.contains($0) }.sorted()
        #expect(unlisted.isEmpty, "numbers of the report with no range test: \(unlisted)")
        #expect(Self.numberPaths(root).count > 60, "the shard holds the model's numbers")
    }

    @Test(arguments: fields.flatMap { field in [Int64.max, Int64.min].map { (field.path, field.named, $0) } })
    func aNumberAtTheEdgeOfInt64MakesTheShardUnusable(path: String, named: String, value: Int64) throws {
        let folder = try AuditBinary.temporaryDirectory()
        let object = try JSONSerialization.jsonObject(with: try JSONReporter.render(Self.shard()))
        let crafted = try Self.setting(NSNumber(value: value), at: path.split(separator: "/").map(String.init), in: object)
        let file = folder.appendingPathComponent("shard.json")
        try JSONSerialization.data(withJSONObject: crafted).write(to: file)
        let observer = RecordingObserver()
        let out = folder.appendingPathComponent("out").path
        let outcome = MergeRun(files: [file.path], baseline: .none, output: ReportOutput(destination: .folder(out), formats: [.json, .html, .md]))
            .run(observer: observer)
        #expect(outcome.status == .usageOrInputError && outcome.report == nil, "\(path) = \(value)")
        guard case .shardReportUnusable(file.path, let problem)? = observer.events.first else {
            Issue.record("\(path) = \(value): \(observer.events)")
            return
        }
        let field = named.isEmpty ? Self.checkerName(path) : named
        #expect(problem.description.contains(field), "\(path) = \(value): \(problem)")
        if named.isEmpty || named.contains(".") || named.contains("[") {
            #expect(problem.description.contains("\(field) is ") && problem.description.contains(", outside "), "\(path) = \(value): \(problem)")
        }
        #expect(!FileManager.default.fileExists(atPath: out), "nothing written")
    }

    @Test func theShardItselfMerges() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let file = folder.appendingPathComponent("shard.json")
        try JSONReporter.render(Self.shard()).write(to: file)
        let outcome = MergeRun(files: [file.path], baseline: .none, output: ReportOutput(destination: .folder(folder.appendingPathComponent("out").path)))
            .run(observer: RecordingObserver())
        // Written whole; it exits 2 only for the input error it lists.
        #expect(outcome.report?.domains.count == 1 && outcome.directory != nil, "\(outcome.status)")
        #expect(outcome.report?.inputErrors.count == 1 && outcome.status == .usageOrInputError)
    }
}
