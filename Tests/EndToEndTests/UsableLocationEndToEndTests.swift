import Audit
import Foundation
import Testing
import TestSupport

/// Issue 13 on a real nginx: a file Apple reads with one broken entry is the file Apple uses (the
/// audit, its reports and `match DOMAIN` say so), and every report lists causes before consequences.
@Suite struct UsableLocationEndToEndTests {
    /// Claims that would be false of partner.test, whose file Apple reads.
    static let falseClaims = ["cannot use", "can use neither", "neither location", "no usable", "Apple cannot read",
                              "serves no file", "Apple ignores", "not usable"]

    struct Run: Sendable {
        var outcome: ShellCommand.Outcome
        var directory: URL
        func file(_ name: String) throws -> String {
            try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        }
    }

    static func audit(_ host: String) throws -> Run {
        let sites = try LocalSites.shared.get()
        let out = try AuditBinary.temporaryDirectory()
        let outcome = try AuditBinary.run(["--cacert", sites.certificateAuthority.certificatePath, "--timeout", "5", "--format", "json,html,md,junit", "--out", out.path]
                                          + sites.connectToArguments + sites.appleCDNArguments + [host])
        return Run(outcome: outcome, directory: out)
    }

    static let partner: Result<Run, Error> = Result { try audit("partner.test") }
    static let notFound: Result<Run, Error> = Result { try audit("notfound.test") }

    @Test func partnerFileIsTheFileAppleUsesAndTheAuditFails() throws {
        let run = try Self.partner.get()
        #expect(run.outcome.status == 1, "\(run.outcome.stderr)")
        let report = try AuditBinary.readReport(at: run.directory.appendingPathComponent("report.json"))
        let domain = try #require(report.domains.first)
        #expect(domain.verdict == .fail)
        #expect(domain.usedLocation == "/.well-known/apple-app-site-association")
        #expect(domain.locations.map(\.usable) == [true, false])
        #expect(domain.headline?.id == "schema.app-id-format")
        #expect(domain.headline?.message.contains("com.partner.app2") == true)
        #expect(domain.cdn?.matchesOrigin == true)
        let json = try run.file("report.json")
        #expect(json.contains("\"usable\" : true") && json.contains("\"usable\" : false"))
        let html = try run.file("report.html")
        #expect(html.contains("<td data-label=\"Apple uses\"><code class=\"nowrap\" title=\"/.well-known/apple-app-site-association\">.well-known</code></td>"))
        #expect(html.contains("<dt>Outcome</dt><dd>Apple devices get the file Apple reads at /.well-known/apple-app-site-association, from Apple&#39;s CDN")
                || html.contains("<dt>Outcome</dt><dd>Apple devices get the file Apple reads at /.well-known/apple-app-site-association, from Apple's CDN"))
        #expect(html.contains("<dt>Why it fails</dt><dd class=\"sev-error\">App ID"))
        for (name, text) in [("stdout", run.outcome.stdout), ("stderr", run.outcome.stderr), ("report.html", html),
                             ("report.md", try run.file("report.md")), ("report.junit.xml", try run.file("report.junit.xml"))] {
            for claim in Self.falseClaims {
                #expect(!text.contains(claim), "\(name) says \"\(claim)\"")
            }
        }
    }

    @Test func matchDecidesWithThePartnerFile() throws {
        let sites = try LocalSites.shared.get()
        let base = ["match", "--cacert", sites.certificateAuthority.certificatePath, "--timeout", "5"] + sites.connectToArguments
        let opens = try AuditBinary.run(base + ["partner.test", "/account/settings"])
        #expect(opens.status == 0, "\(opens.stderr)")
        #expect(opens.stdout.contains("opens ZXCVB12345.com.partner.app"), "\(opens.stdout)")
        #expect(opens.stderr.contains("deciding with https://partner.test/.well-known/apple-app-site-association (the file Apple uses)"), "\(opens.stderr)")
        #expect(opens.stderr.contains("note: the file has 1 error (schema.app-id-format at /applinks/details/0/appIDs/1: App ID \"com.partner.app2\""),
                "\(opens.stderr)")
        for claim in Self.falseClaims { #expect(!opens.stderr.contains(claim) && !opens.stdout.contains(claim), "\(claim)") }
        // A URL no rule matches stays in the browser: exit 1, decided with the same file.
        let stays = try AuditBinary.run(base + ["partner.test", "/elsewhere"])
        #expect(stays.status == 1, "\(stays.stderr)")
        #expect(stays.stderr.contains("deciding with https://partner.test/.well-known/apple-app-site-association"))
    }

    static func assertOrder(_ text: String, _ first: String, _ then: String, _ what: String) throws {
        let cause = try #require(text.range(of: first), "\(what): no \(first)")
        let consequence = try #require(text.range(of: then), "\(what): no \(then)")
        #expect(cause.lowerBound < consequence.lowerBound, "\(what): \(then) comes before \(first)")
    }

    /// notfound.test: 404 at both locations (the cause) and Apple's CDN's cached failure (the
    /// consequence, whose fix points at "the findings about the locations, listed above").
    @Test func causeComesBeforeConsequenceInEveryReport() throws {
        let run = try Self.notFound.get()
        #expect(run.outcome.status == 1, "\(run.outcome.stderr)")
        try Self.assertOrder(run.outcome.stdout, "error http.not-found", "error cdn.missing", "terminal")
        try Self.assertOrder(try run.file("report.md"), "`http.not-found`", "`cdn.missing`", "Markdown")
        let html = try run.file("report.html")
        let section = try #require(html.components(separatedBy: "<section class=\"domain").last)
        try Self.assertOrder(section, "<code>http.not-found</code>", "<code>cdn.missing</code>", "HTML")
        try Self.assertOrder(section, "<div class=\"location\">", "<h3>Apple's CDN ", "HTML")
        try Self.assertOrder(try run.file("report.junit.xml"), "type=\"http.not-found\"", "type=\"cdn.missing\"", "JUnit")
        let report = try AuditBinary.readReport(at: run.directory.appendingPathComponent("report.json"))
        #expect(report.domains.first?.headline?.id == "http.not-found")
        #expect(report.domains.first?.findings.first { $0.id == "cdn.missing" }?.fix?.contains("listed above") == true)
    }
}
