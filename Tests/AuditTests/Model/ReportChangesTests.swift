import AASA
import Foundation
import Testing
@testable import Audit

/// `ReportChanges.between`: what changed between two runs, from small hand-made reports.
@Suite struct ReportChangesTests {
    static let then = Date(timeIntervalSince1970: 1_800_000_000)
    static let now = then + 86_400

    static func finding(_ id: String, _ severity: Severity = .error) -> Finding {
        Finding(id: id, severity: severity, message: "\(id) happened", fix: "fix \(id)")
    }

    static func location(_ path: String, findings: [Finding] = [], daysLeft: Int? = nil) -> LocationResult {
        let tls = daysLeft.map { days -> TLSConnection in
            var certificate = ServerCertificate(subject: "CN=x", issuer: "CN=ca", subjectAltNames: ["x"],
                                               notBefore: nil, notAfter: Date(timeIntervalSince1970: 1_900_000_000))
            certificate.daysLeft = days
            return TLSConnection(version: "TLSv1.3", certificate: certificate)
        }
        return LocationResult(path: path, url: "https://x\(path)", verdict: Verdict(findings: findings), httpStatus: 200,
                              contentType: nil, headers: [], bytes: BodySize(limit: 131_072), redirect: nil, tls: tls,
                              timings: TransferTimings(), error: nil, body: nil, findings: findings)
    }

    static let wk = "/.well-known/apple-app-site-association", root = "/apple-app-site-association"

    static func domain(_ name: String, _ verdict: Verdict, wellKnown: [Finding] = [], own: [Finding] = [], daysLeft: Int? = nil) -> DomainResult {
        DomainResult(domain: name, verdict: verdict, usedLocation: verdict == .fail ? nil : wk, findings: own,
                     locations: [location(wk, findings: wellKnown, daysLeft: daysLeft), location(root)])
    }

    static func report(_ domains: [DomainResult], at date: Date, complete: Bool = true) -> AuditReport {
        AuditReport(tool: ToolInfo(name: "aasa-audit", version: "0"), generatedAt: date, complete: complete, domains: domains)
    }

    func changes(_ before: [DomainResult], _ after: [DomainResult], baselineComplete: Bool = true, threshold: Int = 30) -> ReportChanges {
        ReportChanges.between(baseline: Self.report(before, at: Self.then, complete: baselineComplete),
                              current: Self.report(after, at: Self.now), baselinePath: "base.json", expiryWarningDays: threshold)
    }

    @Test func identicalReportsHaveNoChanges() {
        let domains = [Self.domain("a.example", .pass), Self.domain("b.example", .fail, wellKnown: [Self.finding("http.not-found")])]
        let result = changes(domains, domains)
        #expect(result.isEmpty)
        #expect(result.baselinePath == "base.json" && result.baselineGeneratedAt == Self.then)
    }

    @Test func verdictChangesAreSortedIntoNewlyFailingRecoveredAndOther() {
        let result = changes(
            [Self.domain("breaks.example", .pass), Self.domain("heals.example", .fail, wellKnown: [Self.finding("http.not-found")]),
             Self.domain("warns.example", .pass), Self.domain("same.example", .fail, wellKnown: [Self.finding("network.dns")])],
            [Self.domain("breaks.example", .fail, wellKnown: [Self.finding("tls.expired")]), Self.domain("heals.example", .pass),
             Self.domain("warns.example", .warn, wellKnown: [Self.finding("content-type.unexpected", .warning)]),
             Self.domain("same.example", .fail, wellKnown: [Self.finding("network.dns")])])
        #expect(result.newlyFailing.map(\.domain) == ["breaks.example"])
        #expect(result.newlyFailing.first?.from == .pass && result.newlyFailing.first?.reason?.id == "tls.expired")
        #expect(result.recovered.map(\.domain) == ["heals.example"])
        #expect(result.recovered.first?.to == .pass && result.recovered.first?.reason == nil)
        #expect(result.otherVerdictChanges.map { "\($0.domain) \($0.from)→\($0.to)" } == ["warns.example pass→warn"])
    }

    @Test func findingsAreMatchedByDomainLocationAndIdAndInfoIsIgnored() {
        let result = changes(
            [Self.domain("a.example", .fail, wellKnown: [Self.finding("http.not-found"), Self.finding("schema.type", .warning)],
                         own: [Self.finding("cdn.ok", .info)])],
            [Self.domain("a.example", .fail, wellKnown: [Self.finding("schema.type", .warning), Self.finding("schema.type", .warning),
                                                         Self.finding("json.syntax")],
                         own: [Self.finding("cdn.missing")])])
        #expect(result.findingsAppeared.map { "\($0.location ?? "domain") \($0.id)" } == ["\(Self.wk) json.syntax", "domain cdn.missing"], "causes first")
        #expect(result.findingsGone.map { "\($0.location ?? "domain") \($0.id)" } == ["\(Self.wk) http.not-found"])
        #expect(result.findingsGone.first?.message == "http.not-found happened")
    }

    @Test func theSameIdAtTheOtherLocationIsAnotherFinding() {
        var moved = Self.domain("a.example", .fail)
        moved.locations[1].findings = [Self.finding("http.not-found")]
        let result = changes([Self.domain("a.example", .fail, wellKnown: [Self.finding("http.not-found")])], [moved])
        #expect(result.findingsAppeared.map(\.location) == [Self.root])
        #expect(result.findingsGone.map(\.location) == [Self.wk])
    }

    @Test(arguments: [
        (40, 20, CertificateChange.Kind.expiringSoon), (30, 29, .expiringSoon), (5, -1, .expired), (40, -3, .expired),
        (10, 90, .renewed), (-2, 60, .renewed),
    ])
    func certificatesThatCrossTheThresholdExpireOrAreRenewed(before: Int, after: Int, kind: CertificateChange.Kind) {
        let result = changes([Self.domain("a.example", .pass, daysLeft: before)], [Self.domain("a.example", .pass, daysLeft: after)])
        #expect(result.certificates.map(\.kind) == [kind])
        #expect(result.certificates.first?.daysLeftBefore == before && result.certificates.first?.daysLeft == after)
    }

    @Test(arguments: [(60, 59), (29, 28), (-1, -2), (31, 30), (nil, 5), (5, nil)] as [(Int?, Int?)])
    func certificatesThatStayOnOneSideAreNotChanges(before: Int?, after: Int?) {
        let result = changes([Self.domain("a.example", .pass, daysLeft: before)], [Self.domain("a.example", .pass, daysLeft: after)])
        #expect(result.certificates.isEmpty)
    }

    @Test func daysLeftAreComputedForReportsThatLackThem() {
        var before = Self.domain("a.example", .pass, daysLeft: 0)
        before.locations[0].tls?.certificate?.daysLeft = nil
        before.locations[0].tls?.certificate?.notAfter = Self.then + 40 * 86_400
        var after = before
        after.locations[0].tls?.certificate?.notAfter = Self.then + 20 * 86_400
        let result = changes([before], [after])
        #expect(result.certificates.map(\.kind) == [.expiringSoon])
        #expect(result.certificates.first?.daysLeft == 19)
    }

    @Test func addedAndRemovedDomains() {
        let result = changes([Self.domain("old.example", .pass), Self.domain("kept.example", .pass)],
                             [Self.domain("kept.example", .pass), Self.domain("new.example", .fail, wellKnown: [Self.finding("network.dns")])])
        #expect(result.domainsAdded == ["new.example"])
        #expect(result.domainsRemoved == ["old.example"])
        #expect(result.newlyFailing.isEmpty && result.findingsAppeared.isEmpty, "a new domain is added, not newly failing")
    }

    @Test func anInterruptedBaselineRemovesNothing() {
        let result = changes([Self.domain("kept.example", .pass)], [], baselineComplete: false)
        #expect(result.domainsRemoved.isEmpty && !result.baselineComplete)
    }

    @Test func domainsAnInterruptedRunDidNotReachAreNotRemoved() {
        let baseline = Self.report([Self.domain("done.example", .pass), Self.domain("later.example", .pass)], at: Self.then)
        let current = AuditReport(tool: ToolInfo(name: "aasa-audit", version: "0"), generatedAt: Self.now,
                                  domains: [Self.domain("done.example", .pass)], notAudited: ["later.example"])
        let result = ReportChanges.between(baseline: baseline, current: current, baselinePath: "b.json", expiryWarningDays: 30)
        #expect(result.domainsRemoved.isEmpty)
    }

    @Test func aShardIsComparedOnlyOnTheDomainsOfItsShard() throws {
        // An unsharded (or merged) baseline holds every shard's domains; a shard's run must not call
        // the other shards' domains removed, nor, against another shard's report, its own added.
        let names = (1...40).map { "d\($0).example" }
        let shard = try #require(Shard(index: 2, count: 4))
        let mine = names.filter { shard.contains($0) }, others = names.filter { !shard.contains($0) }
        #expect(!mine.isEmpty && !others.isEmpty)
        var current = Self.report(mine.dropFirst().map { Self.domain($0, .pass) } + [Self.domain("new.example", .pass)], at: Self.now)
        current.shard = shard
        let whole = Self.report(names.map { Self.domain($0, .pass) }, at: Self.then)
        let result = ReportChanges.between(baseline: whole, current: current, baselinePath: "whole.json", expiryWarningDays: 30)
        #expect(result.domainsRemoved == [mine[0]], "only the shard's own domain that left the list")
        #expect(result.domainsAdded == ["new.example"])
        // The other way round: an unsharded run against one shard's report adds nothing of the other shards.
        var shardBaseline = Self.report(mine.map { Self.domain($0, .pass) }, at: Self.then)
        shardBaseline.shard = shard
        let unsharded = Self.report(names.map { Self.domain($0, .pass) }, at: Self.now)
        let reverse = ReportChanges.between(baseline: shardBaseline, current: unsharded, baselinePath: "shard.json", expiryWarningDays: 30)
        #expect(reverse.domainsAdded.isEmpty && reverse.domainsRemoved.isEmpty, "\(reverse.domainsAdded)")
    }

    @Test func aBaselineKeptWithoutItsEvidenceGivesTheSameChanges() {
        func heavy(_ domain: DomainResult) -> DomainResult {
            var domain = domain
            for index in domain.locations.indices {
                domain.locations[index].body = String(repeating: "{\"applinks\": {}}", count: 100)
                domain.locations[index].headers = [HeaderField(name: "server", value: "nginx")]
            }
            return domain
        }
        let before = [Self.domain("a.example", .pass, daysLeft: 40), Self.domain("b.example", .fail, wellKnown: [Self.finding("http.not-found")]),
                      Self.domain("c.example", .warn, wellKnown: [Self.finding("http.content-type", .warning), Self.finding("cdn.ok", .info)]),
                      Self.domain("gone.example", .pass)].map(heavy)
        let after = [Self.domain("a.example", .pass, daysLeft: 20), Self.domain("b.example", .pass),
                     Self.domain("c.example", .fail, own: [Self.finding("cdn.missing")]), Self.domain("new.example", .pass)]
        let baseline = Self.report(before, at: Self.then), current = Self.report(after, at: Self.now)
        let slim = ReportChanges.essentials(of: baseline)
        #expect(slim.domains.allSatisfy { $0.locations.allSatisfy { $0.body == nil && $0.headers.isEmpty } })
        #expect(slim.domains.allSatisfy { $0.allFindings.allSatisfy { $0.fix == nil && $0.severity != .info } })
        let full = ReportChanges.between(baseline: baseline, current: current, baselinePath: "b.json", expiryWarningDays: 30)
        #expect(!full.isEmpty && full.certificates.count == 1 && full.domainsRemoved == ["gone.example"])
        #expect(ReportChanges.between(baseline: slim, current: current, baselinePath: "b.json", expiryWarningDays: 30) == full)
    }

    @Test func theChangesTravelInTheReport() throws {
        var report = Self.report([Self.domain("a.example", .fail, wellKnown: [Self.finding("network.dns")])], at: Self.now)
        report.changes = changes([Self.domain("a.example", .pass)], report.domains)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let back = try decoder.decode(AuditReport.self, from: try encoder.encode(report))
        #expect(back == report)
        #expect(back.changes?.newlyFailing.map(\.domain) == ["a.example"])
    }
}
