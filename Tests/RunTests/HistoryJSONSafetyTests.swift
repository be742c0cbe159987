import Foundation
@testable import History
import Run
import Testing

/// `history --json` prints what imported reports hold (served text): escaped as the audit's `--json`.
@Suite struct HistoryJSONSafetyTests {
    static let poisoned = "a\u{9B}31m\u{9D}8;;https://x.test\u{9C}b\u{7F}c\u{202E}d\u{2028}e\u{2066}f"

    @Test func terminalControlsInATimelineAreEscapedAndTheJSONReadsBackTheSame() throws {
        let entry = TimelineEntry(generatedAt: Date(timeIntervalSince1970: 1_790_000_000), kind: .list, shard: nil, verdict: .fail,
                                  usedLocation: Self.poisoned, certificateNotAfter: nil, certificateIssuer: Self.poisoned,
                                  verdictChanged: false, appeared: [Self.poisoned], wentAway: [], certificateChanged: false)
        let timeline = DomainTimeline(domain: "x.test", runs: [entry])
        let text = try HistoryRun.json(timeline)
        for scalar in text.unicodeScalars {
            #expect(!(0x7F...0x9F).contains(scalar.value) && !(0x202A...0x202E).contains(scalar.value)
                    && !(0x2066...0x2069).contains(scalar.value) && scalar.value != 0x2028, "raw U+\(String(scalar.value, radix: 16)) printed")
        }
        #expect(text.contains("\\u009b31m") && text.contains("\\u202e"))
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        #expect(try decoder.decode(DomainTimeline.self, from: Data(text.utf8)) == timeline)
    }
}
