import Foundation

/// Counts of domains by verdict.
public struct Summary: Sendable, Equatable, Codable {
    public var domains: Int
    public var pass: Int
    public var warn: Int
    public var fail: Int
    /// The Android parts counted by their own verdict (`AndroidResult.verdict`); nil when no domain
    /// had its assetlinks.json audited.
    public var android: AndroidSummary?

    public init(domains results: [DomainResult]) {
        self.init(verdicts: results.lazy.map { ($0.verdict, $0.android?.verdict) })
    }

    /// The counts of these verdicts, each a domain's with its Android part's (nil when it had none).
    /// Counted in place: filtered copies (of the passing digests, nearly all of a big run) were the
    /// largest allocation of a 100,000-domain run, made as its reports began.
    init<Verdicts: Sequence<(Verdict, Verdict?)>>(verdicts: Verdicts) {
        (domains, pass, warn, fail) = (0, 0, 0, 0)
        var android = AndroidSummary(verdicts: [])
        for (verdict, androidVerdict) in verdicts {
            domains += 1
            switch verdict {
            case .pass: pass += 1
            case .warn: warn += 1
            case .fail: fail += 1
            }
            if let androidVerdict { android.count(androidVerdict) }
        }
        self.android = android.domains == 0 ? nil : android
    }
}
