import AASA
import Foundation

/// The outcome for a location or a domain.
///
/// Ordered worst first (`fail < warn < pass`), the one order of verdicts: sorting puts failing
/// domains first, and `worst` is the lesser.
public enum Verdict: String, Sendable, Codable, CaseIterable, Comparable {
    case pass, warn, fail

    /// The verdict that a set of findings earns: any error fails, any warning warns.
    public init(findings: [Finding]) {
        if findings.contains(where: { $0.severity == .error }) {
            self = .fail
        } else if findings.contains(where: { $0.severity == .warning }) {
            self = .warn
        } else {
            self = .pass
        }
    }

    /// 0 for fail, 1 for warn, 2 for pass.
    private var rank: Int {
        switch self {
        case .fail: return 0
        case .warn: return 1
        case .pass: return 2
        }
    }

    public static func < (a: Verdict, b: Verdict) -> Bool { a.rank < b.rank }

    /// The worse of two verdicts: a fail over a warn over a pass.
    public static func worst(_ a: Verdict, _ b: Verdict) -> Verdict { min(a, b) }
}
