import Foundation
import Testing
@testable import Audit

/// The one certificate-expiry judgement, against the run's threshold.
@Suite struct CertificateExpiryTests {
    @Test(arguments: [
        // (days left, threshold, judgement)
        (Int?.some(-1), 30, CertificateExpiry.expired),
        (-400, 30, .expired),
        (-1, 0, .expired),
        (0, 30, .expiringSoon),
        (29, 30, .expiringSoon),
        (30, 30, .fine),
        (31, 30, .fine),
        (44, 45, .expiringSoon),
        (45, 45, .fine),
        (0, 0, .fine),
        (nil, 30, .unknown),
    ])
    func judgement(daysLeft: Int?, threshold: Int, expected: CertificateExpiry) {
        #expect(CertificateExpiry(daysLeft: daysLeft, warningDays: threshold) == expected)
    }

    @Test func aReportWithoutTheThresholdReadsAsTheDefault() throws {
        let report = AuditReport(tool: ToolInfo(name: "aasa-audit", version: "t"), generatedAt: Date(timeIntervalSince1970: 0), domains: [])
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        var tree = try #require(try JSONSerialization.jsonObject(with: try encoder.encode(report)) as? [String: Any])
        #expect(tree["expiryWarningDays"] as? Int == 30)
        tree["expiryWarningDays"] = 7
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        #expect(try decoder.decode(AuditReport.self, from: try JSONSerialization.data(withJSONObject: tree)).expiryWarningDays == 7)
        tree["expiryWarningDays"] = nil
        #expect(try decoder.decode(AuditReport.self, from: try JSONSerialization.data(withJSONObject: tree)).expiryWarningDays == 30)
    }

    /// An entry of an older history has no `expiry`: it was listed because it was expired or soon.
    @Test func anOlderHistoryEntryIsExpiredByItsDaysLeft() throws {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        func entry(_ days: Int) throws -> ExpiringCertificate {
            try decoder.decode(ExpiringCertificate.self, from: Data(#"{"domain":"a","notAfter":"2027-01-01T00:00:00Z","daysLeft":\#(days)}"#.utf8))
        }
        #expect(try entry(-3).expiry == .expired)
        #expect(try entry(30).expiry == .expiringSoon)
        let history = try decoder.decode(ReportHistory.self, from: Data(
            #"{"earlierListRuns":0,"failingSince":[],"fixed":[],"flapping":[],"expiringCertificates":[],"trend":[]}"#.utf8))
        #expect(history.expiryWarningDays == 30)
    }
}
