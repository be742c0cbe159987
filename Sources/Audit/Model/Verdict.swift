import AASA
import Foundation

/// The outcome for a location or a domain.
public enum Verdict: String, Sendable, Codable, CaseIterable {
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
}
