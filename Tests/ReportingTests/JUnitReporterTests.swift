import AASA
import Audit
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import Reporting

/// The JUnit report, parsed back with Foundation's XML parser (libxml2), as a CI server reads it.
@Suite struct JUnitReporterTests {
    static func parse(_ xml: String) throws -> XMLElement {
        let document = try XMLDocument(data: Data(xml.utf8), options: [])
        return try #require(document.rootElement())
    }

    static func attribute(_ element: XMLElement, _ name: String) -> String? {
        element.attribute(forName: name)?.stringValue
    }

    static func int(_ element: XMLElement, _ name: String) -> Int {
        attribute(element, name).flatMap(Int.init) ?? -1
    }

    static func suites(_ root: XMLElement) -> [XMLElement] { root.elements(forName: "testsuite") }

    @Test func structureIsOneSuitePerDomainAndOneCasePerCheck() throws {
        let root = try Self.parse(JUnitReporter.render(ReportFixtures.report, strict: false))
        #expect(root.name == "testsuites")
        let suites = Self.suites(root)
        // The domain list's skipped lines, then the seven domains.
        #expect(suites.map { Self.attribute($0, "name") ?? "" } == [
            "domain list", "good.example", "fallback.example", "expired.example", "redirect.example", "nxdomain.example",
            "bücher.example (xn--bcher-kva.example)", "<script>alert(1)</script>[31m.example (hostile.example)",
        ])
        for suite in suites {
            let cases = suite.elements(forName: "testcase")
            #expect(Self.int(suite, "tests") == cases.count)
            #expect(Self.int(suite, "failures") == cases.filter { !$0.elements(forName: "failure").isEmpty }.count)
            #expect(Self.int(suite, "skipped") == cases.filter { !$0.elements(forName: "skipped").isEmpty }.count)
            #expect(cases.allSatisfy { $0.elements(forName: "failure").count <= 1 })
        }
        let tests = suites.map { Self.int($0, "tests") }.reduce(0, +), failures = suites.map { Self.int($0, "failures") }.reduce(0, +)
        #expect(Self.int(root, "tests") == tests && Self.int(root, "failures") == failures)
        // 2 locations x 8 checks + location choice, crawler, CDN.
        let good = suites[1]
        #expect(good.elements(forName: "testcase").count == 19)
        #expect(good.elements(forName: "testcase").map { Self.attribute($0, "name") ?? "" }.prefix(3) == [
            "/.well-known/apple-app-site-association: network", "/.well-known/apple-app-site-association: tls-policy",
            "/.well-known/apple-app-site-association: tls",
        ])
        #expect(Self.int(good, "failures") == 0, "the root 404 is not used by Apple, so it fails nothing")
        let root404 = try #require(good.elements(forName: "testcase").first { Self.attribute($0, "name") == "/apple-app-site-association: status (not used by Apple)" })
        #expect(root404.elements(forName: "system-out").first?.stringValue?.contains("http.not-found") == true)
        let property = try #require(good.elements(forName: "properties").first?.elements(forName: "property").first)
        #expect(Self.attribute(property, "name") == "verdict" && Self.attribute(property, "value") == "pass")
    }

    /// Cases follow the check the audit stored in each finding, not the finding's id.
    @Test func findingsGoToTheCaseOfTheirStoredCheck() throws {
        var domain = ReportFixtures.passing
        var finding = Finding(id: "http.not-found", severity: .error, message: "stored as a document finding")
        finding.check = DocumentCheck.id
        domain.locations[0].findings = [finding]
        domain.verdict = .fail
        let report = AuditReport(tool: ReportFixtures.tool, generatedAt: ReportFixtures.generatedAt, domains: [domain])
        let suite = try #require(Self.suites(try Self.parse(JUnitReporter.render(report, strict: false))).first)
        let failing = suite.elements(forName: "testcase").filter { !$0.elements(forName: "failure").isEmpty }
        #expect(failing.map { Self.attribute($0, "name") } == ["/.well-known/apple-app-site-association: document"])
    }

    @Test func failuresAreErrorsAndWithStrictWarnings() throws {
        let plain = Self.suites(try Self.parse(JUnitReporter.render(ReportFixtures.report, strict: false)))
        let strict = Self.suites(try Self.parse(JUnitReporter.render(ReportFixtures.report, strict: true)))
        func failures(_ suites: [XMLElement], _ name: String) -> Int {
            suites.first { Self.attribute($0, "name") == name }.map { Self.int($0, "failures") } ?? -1
        }
        // expired.example: tls at both locations, and the CDN.
        #expect(failures(plain, "expired.example") == 3)
        let tls = try #require(plain[3].elements(forName: "testcase").first { Self.attribute($0, "name") == "/.well-known/apple-app-site-association: tls" })
        let failure = try #require(tls.elements(forName: "failure").first)
        #expect(Self.attribute(failure, "type") == "tls.expired")
        #expect(Self.attribute(failure, "message") == "The certificate expired on 2026-11-20, 9 days before this check.")
        #expect(failure.stringValue?.contains("Fix: Renew the certificate") == true)
        // fallback.example only warns: no failure unless strict (root-only, cdn.stale).
        #expect(failures(plain, "fallback.example") == 0)
        #expect(failures(strict, "fallback.example") == 2)
        #expect(failures(plain, "good.example") == 0 && failures(strict, "good.example") == 0)
        // Without strict, the domains with failures are exactly the failing ones.
        let failingSuites = plain.dropFirst().filter { Self.int($0, "failures") > 0 }.map { Self.attribute($0, "name") ?? "" }
        #expect(failingSuites == ["expired.example", "redirect.example", "nxdomain.example"])
        // Input problems are failures of their own suite.
        #expect(failures(plain, "domain list") == 2)
    }

    @Test func checksThatCouldNotRunAreSkipped() throws {
        let suites = Self.suites(try Self.parse(JUnitReporter.render(ReportFixtures.report, strict: false)))
        let nx = try #require(suites.first { Self.attribute($0, "name") == "nxdomain.example" })
        let skipped = nx.elements(forName: "testcase").filter { !$0.elements(forName: "skipped").isEmpty }.map { Self.attribute($0, "name") ?? "" }
        #expect(skipped.contains("/.well-known/apple-app-site-association: document"))
        #expect(skipped.contains("Apple's CDN") && skipped.contains("Apple's crawler"))
        #expect(!skipped.contains("/.well-known/apple-app-site-association: network"))
    }

    @Test func hostileTextIsEscapedAndForbiddenCharactersDropped() throws {
        var domain = ReportFixtures.hostile
        domain.verdict = .fail
        domain.locations[0].findings = [Finding(id: "json.syntax", severity: .error,
                                                message: "]]></failure><x a='1'>&\u{0}\u{1}\u{8}\u{B}\u{C}\u{1B}[2J\u{FFFE}\u{FFFF}\u{9B}\"end\ttab\nline")]
        let xml = JUnitReporter.render(AuditReport(tool: ReportFixtures.tool, generatedAt: ReportFixtures.generatedAt, domains: [domain]), strict: false)
        #expect(!xml.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || $0.value == 0xFFFE || $0.value == 0xFFFF })
        let root = try Self.parse(xml)
        let failure = try #require(Self.suites(root).first?.elements(forName: "testcase").compactMap { $0.elements(forName: "failure").first }.first)
        #expect(Self.attribute(failure, "message") == "]]></failure><x a='1'>&[2J\u{FFFD}\"end\ttab\nline")
        #expect(XMLEscaping.escape("<a href=\"x\">'&'</a>") == "&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;")
    }

    @Test func anEmptyReportIsStillADocument() throws {
        let root = try Self.parse(JUnitReporter.render(AuditReport(tool: ReportFixtures.tool, generatedAt: ReportFixtures.generatedAt, domains: []), strict: true))
        #expect(Self.int(root, "tests") == 0 && Self.suites(root).isEmpty)
    }

    /// An interrupted run's JUnit report names the domains it did not reach, as errors: a CI view
    /// must not show the audited part as the whole list passing.
    @Test func interruptedRunListsTheDomainsNotAuditedAsErrors() throws {
        var report = ReportFixtures.report
        report.complete = false
        report.notAudited = ["later.example", "a&b<c>.example"]
        let root = try Self.parse(JUnitReporter.render(report, strict: false))
        let suite = try #require(Self.suites(root).first { Self.attribute($0, "name") == "not audited" })
        let cases = suite.elements(forName: "testcase")
        #expect(cases.map { Self.attribute($0, "classname") ?? "" } == ["later.example", "a&b<c>.example"])
        #expect(cases.allSatisfy { Self.attribute($0.elements(forName: "error").first ?? $0, "type") == "interrupted" })
        #expect(Self.int(suite, "errors") == 2 && Self.int(suite, "tests") == 2)
        #expect(Self.int(root, "errors") == 2)
        #expect(Self.int(root, "tests") == Self.suites(root).map { Self.int($0, "tests") }.reduce(0, +))
        // A complete report has no such suite.
        let complete = try Self.parse(JUnitReporter.render(ReportFixtures.report, strict: false))
        #expect(!Self.suites(complete).contains { Self.attribute($0, "name") == "not audited" })
        #expect(Self.int(complete, "errors") == 0)
    }
}
