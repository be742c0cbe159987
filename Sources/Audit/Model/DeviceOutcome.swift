import AASA
import Foundation

/// What a device gets from a domain: the file it would read, after Apple's location choice, its
/// crawler and its CDN, or why it gets none. Built once per domain by the audit (`Auditor`), and the
/// one value the expectations, the entitlement claims and `match` take their document from.
///
/// A release device (iOS 14+, macOS 11+) reads Apple's CDN, which Apple's crawler fills from the
/// origin: when the CDN was asked and answered, its copy is the file (`release`); when it has no copy,
/// or the crawler is refused and the CDN was not asked, the device gets none. The origin's own file
/// is kept apart (`origin`), for what the file would do once devices get it.
public struct DeviceOutcome: Sendable {
    /// One file as a reader gets it, or why it gets none.
    public struct File: Sendable {
        /// The origin location the file comes from ("/.well-known/apple-app-site-association"; for
        /// the CDN's copy, the location Apple uses at the origin); nil when none.
        public var location: String?
        /// The document read; nil when none.
        public var document: AASADocument?
        /// Why there is no document; nil when there is one.
        public var absence: Absence?
        /// True when the document is Apple's CDN copy (what iOS 14+ and macOS 11+ read), not the origin's.
        public var fromAppleCDN = false
    }

    /// Why a reader gets no file.
    public enum Absence: String, Sendable, Equatable {
        /// Apple can read a file at neither location (`LocationChoice`).
        case noReadableLocation = "no-readable-location"
        /// A `?mode=` entry is read from `/.well-known/` alone, and Apple cannot read it there (the
        /// host serves its file only at the root location, or at neither).
        case noWellKnownFile = "no-well-known-file"
        /// The origin refuses Apple's crawler (`access.blocks-apple`) and the CDN was not asked: the
        /// CDN gets the refusal, not the file.
        case crawlerBlocked = "crawler-blocked"
        /// Apple's CDN has no copy of the file (`cdn.missing`).
        case cdnHasNoCopy = "cdn-no-copy"
        /// Apple's CDN serves a copy that is not an AASA document.
        case cdnCopyUnreadable = "cdn-copy-unreadable"

        /// Why devices get no file from `domain`, as a clause ("Apple's CDN has no copy of …").
        public func clause(domain: String) -> String {
            switch self {
            case .noReadableLocation: return "Apple can read no file from \(domain)"
            case .noWellKnownFile: return "\(domain) serves no file Apple can read at \(AASAFile.wellKnownPath)"
            case .crawlerBlocked: return "\(domain) refuses Apple's crawler (AASA-Bot), so Apple's CDN gets no file to serve (access.blocks-apple)"
            case .cdnHasNoCopy: return "Apple's CDN has no copy of \(domain)'s file (cdn.missing)"
            case .cdnCopyUnreadable: return "Apple's CDN copy of \(domain)'s file is not an AASA document"
            }
        }
    }

    /// What stands between the origin's file and a release device (iOS 14+, macOS 11+, which read
    /// Apple's CDN, filled by Apple's crawler).
    public enum Obstacle: String, Sendable, Equatable, CaseIterable {
        /// The origin refuses Apple's crawler (`access.blocks-apple`).
        case crawlerBlocked = "crawler-blocked"
        /// The CDN has no copy of the file (`cdn.missing`).
        case cdnHasNoCopy = "cdn-no-copy"
        /// The CDN's copy differs from the origin's (`cdn.stale`).
        case cdnCopyStale = "cdn-stale"
    }

    /// For entries without `?mode=`: the file a release device reads (the CDN's copy when the CDN
    /// answered, else the origin's file at the location Apple uses), or why it gets none.
    public var release: File
    /// The origin's file at the location Apple uses (`LocationChoice`): what devices get once the
    /// crawler and the CDN pass it on, and what devices before iOS 14 read.
    public var origin: File
    /// For `?mode=developer` / `managed` entries: the device reads the origin's `/.well-known/` file
    /// itself, bypassing the CDN.
    public var direct: File
    /// What the crawler and the CDN make of the origin's file for devices that read the CDN, from their checks.
    public var obstacles: [Obstacle]

    /// `usedLocation`/`usedDocument`: Apple's choice and the document read there;
    /// `wellKnownDocument`: the `.well-known` document when Apple can read it; `cdnDocument`: the
    /// document of the CDN's copy when the CDN served one that parses; `findings`: the domain's own
    /// findings (the crawler's and the CDN's among them).
    public init(usedLocation: String?, usedDocument: AASADocument?, wellKnownDocument: AASADocument?,
                cdnDocument: AASADocument? = nil, findings: [Finding]) {
        origin = File(location: usedDocument == nil ? nil : usedLocation, document: usedDocument,
                      absence: usedDocument == nil ? .noReadableLocation : nil)
        direct = File(location: wellKnownDocument == nil ? nil : AASAFile.wellKnownPath, document: wellKnownDocument,
                      absence: wellKnownDocument == nil ? .noWellKnownFile : nil)
        let ids = Set(findings.map(\.id))
        obstacles = [(Obstacle.crawlerBlocked, CrawlerAccessCheck.blocksApple.id), (.cdnHasNoCopy, CDNCheck.missing.id),
                     (.cdnCopyStale, CDNCheck.stale.id)].filter { ids.contains($0.1) }.map(\.0)
        let cdnAnswered = ids.contains(CDNCheck.ok.id) || ids.contains(CDNCheck.stale.id)
        if ids.contains(CDNCheck.missing.id) {
            release = File(location: nil, document: nil, absence: .cdnHasNoCopy)
        } else if cdnAnswered {
            release = cdnDocument.map { File(location: usedLocation, document: $0, absence: nil, fromAppleCDN: true) }
                ?? File(location: nil, document: nil, absence: .cdnCopyUnreadable)
        } else if origin.document != nil, ids.contains(CrawlerAccessCheck.blocksApple.id) {
            // The CDN was not asked (or could not be reached): the crawler's refusal is what it would cache.
            release = File(location: nil, document: nil, absence: .crawlerBlocked)
        } else {
            release = origin
        }
    }

    /// The file an entry is decided with: `direct` for a `?mode=` entry, `release` otherwise.
    public func file(forModeEntry: Bool) -> File { forModeEntry ? direct : release }
}
