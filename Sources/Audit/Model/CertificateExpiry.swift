import Foundation

/// How close a certificate is to its end, judged once against the run's threshold
/// (`--expiry-warning-days`, recorded in `AuditReport.expiryWarningDays`): by the certificate check,
/// the changes since a baseline, the history's list and every reporter alike.
public enum CertificateExpiry: String, Sendable, Equatable, Codable, CaseIterable {
    /// Its end has passed (fewer than 0 days left).
    case expired
    /// Fewer days left than the threshold, and not expired.
    case expiringSoon = "expiring-soon"
    /// At least the threshold's days left.
    case fine
    /// Its end date is not known.
    case unknown

    /// The threshold when none was given or recorded (reports written before it was recorded).
    public static let defaultWarningDays = 30

    /// `daysLeft`: whole days from the run's start (`CertificateCheck.daysLeft`), nil when unknown;
    /// `warningDays`: the run's threshold. Exactly `warningDays` left is fine, one fewer is soon.
    public init(daysLeft: Int?, warningDays: Int) {
        guard let daysLeft else { self = .unknown; return }
        if daysLeft < 0 {
            self = .expired
        } else if daysLeft < warningDays {
            self = .expiringSoon
        } else {
            self = .fine
        }
    }
}
