import Foundation
import Testing
@testable import Audit

/// When two findings at a domain's two locations are the same finding (`LocatedFinding`), and why a
/// body is not in the report (`BodyOmission`).
@Suite struct LocatedFindingTests {
    static let wk = AASAFile.wellKnownPath, root = AASAFile.rootPath

    static func location(_ path: String, _ findings: [Finding], host: String = "d.example") -> LocationResult {
        LocationResult(path: path, url: "https://\(host)\(path)", verdict: Verdict(findings: findings), httpStatus: 200, contentType: nil,
                       headers: [], bytes: BodySize(), redirect: nil, tls: nil, timings: TransferTimings(), error: nil, body: nil,
                       findings: findings)
    }

    static let expired = Finding(id: "tls.expired", severity: .error, message: "The certificate expired on 2026-11-20.",
                                 fix: "Renew it.", check: "tls")

    @Test func theSameFindingAtBothLocationsIsOneEntryNamingBoth() {
        let merged = LocatedFinding.merging([Self.location(Self.wk, [Self.expired]), Self.location(Self.root, [Self.expired])])
        #expect(merged == [LocatedFinding(finding: Self.expired, locations: [Self.wk, Self.root])])
    }

    @Test func messagesThatDifferOnlyByTheirOwnLocationsURLAreTheSame() {
        func empty(_ path: String) -> Finding {
            Finding(id: "size.empty", severity: .error, message: "https://d.example\(path) answers 200 with no body.", fix: "Serve the file.")
        }
        let merged = LocatedFinding.merging([Self.location(Self.wk, [empty(Self.wk)]), Self.location(Self.root, [empty(Self.root)])])
        #expect(merged.count == 1)
        #expect(merged.first?.locations == [Self.wk, Self.root])
        #expect(merged.first?.finding == empty(Self.wk), "shown as the first location reported it")
    }

    /// Every field a reader sees takes part: a finding that differs in any of them is never folded.
    @Test(arguments: [
        Finding(id: "tls.expired", severity: .error, message: "The certificate expired on 2026-11-21.", fix: "Renew it.", check: "tls"),
        Finding(id: "tls.expired", severity: .warning, message: "The certificate expired on 2026-11-20.", fix: "Renew it.", check: "tls"),
        Finding(id: "tls.expiring", severity: .error, message: "The certificate expired on 2026-11-20.", fix: "Renew it.", check: "tls"),
        Finding(id: "tls.expired", severity: .error, message: "The certificate expired on 2026-11-20.", fix: "Renew it now.", check: "tls"),
        Finding(id: "tls.expired", severity: .error, message: "The certificate expired on 2026-11-20.", fix: nil, check: "tls"),
        Finding(id: "tls.expired", severity: .error, message: "The certificate expired on 2026-11-20.", fix: "Renew it.", pointer: "/a", check: "tls"),
        Finding(id: "tls.expired", severity: .error, message: "The certificate expired on 2026-11-20.", fix: "Renew it.", check: "cdn"),
    ])
    func findingsThatDifferStayTwo(other: Finding) {
        let merged = LocatedFinding.merging([Self.location(Self.wk, [Self.expired]), Self.location(Self.root, [other])])
        #expect(merged == [LocatedFinding(finding: Self.expired, locations: [Self.wk]), LocatedFinding(finding: other, locations: [Self.root])])
    }

    @Test func redirectsToDifferentTargetsStayTwo() {
        func redirect(_ path: String, to target: String) -> Finding {
            Finding(id: "redirect.present", severity: .error, message: "https://d.example\(path) answers 301 and points to \(target).")
        }
        // Each message names the other location's URL as its target: only each one's own URL is set aside.
        let merged = LocatedFinding.merging([
            Self.location(Self.wk, [redirect(Self.wk, to: "https://d.example\(Self.root)")]),
            Self.location(Self.root, [redirect(Self.root, to: "https://d.example\(Self.wk)")]),
        ])
        #expect(merged.count == 2)
        let sameTarget = LocatedFinding.merging([
            Self.location(Self.wk, [redirect(Self.wk, to: "https://www.d.example/x")]),
            Self.location(Self.root, [redirect(Self.root, to: "https://www.d.example/y")]),
        ])
        #expect(sameTarget.count == 2)
    }

    @Test func aLocationsOwnRepeatsAndTheOrderAreKept() {
        let warning = Finding(id: "json.duplicate-key", severity: .warning, message: "The key a appears twice.")
        let merged = LocatedFinding.merging([Self.location(Self.wk, [warning, Self.expired, warning]), Self.location(Self.root, [Self.expired, warning])])
        #expect(merged.map(\.finding.id) == ["json.duplicate-key", "tls.expired", "json.duplicate-key"])
        #expect(merged.map(\.locations) == [[Self.wk, Self.root], [Self.wk, Self.root], [Self.wk]])
    }

    @Test func theReasonABodyIsNotShown() {
        func located(status: Int? = 200, body: String? = nil, bytes: BodySize, findings: [Finding] = []) -> LocationResult {
            var l = Self.location(Self.wk, findings)
            l.httpStatus = status
            l.body = body
            l.bytes = bytes
            return l
        }
        let limit = 1_048_576
        #expect(located(body: "{}", bytes: BodySize(transferred: 2, decoded: 2, limit: limit)).bodyOmission == nil)
        #expect(located(status: nil, bytes: BodySize(limit: limit)).bodyOmission == .noResponse)
        #expect(located(body: "", bytes: BodySize(limit: limit)).bodyOmission == .empty)
        // 240 KB of ASCII JSON: too large to show, whatever its encoding.
        #expect(located(bytes: BodySize(transferred: 245_760, decoded: 245_760, limit: limit)).bodyOmission == .tooLargeToShow(bytes: 245_760))
        #expect(located(bytes: BodySize(transferred: limit, decoded: limit, truncated: true, limit: limit)).bodyOmission == .cutAtLimit(limit: limit))
        let signed = Finding(id: "json.signed", severity: .info, message: "signed")
        #expect(located(bytes: BodySize(transferred: 3000, decoded: 3000, limit: limit), findings: [signed]).bodyOmission == .signed(readable: true))
        let unreadable = Finding(id: "json.signed-unreadable", severity: .error, message: "looks signed")
        #expect(located(bytes: BodySize(transferred: 3000, decoded: 3000, limit: limit), findings: [unreadable]).bodyOmission == .signed(readable: false))
        #expect(located(bytes: BodySize(transferred: 300, decoded: 300, limit: limit)).bodyOmission == .notUTF8)
        #expect(located(bytes: BodySize(transferred: 131_072, decoded: 131_072, limit: limit)).bodyOmission == .notUTF8, "at the limit it would be kept if it were text")
    }
}
