import AASA
import Foundation

/// What a device gets from a domain: the file it would read, after Apple's location choice, its
/// crawler and its CDN, or why it gets none. Built once per domain by the audit (`Auditor`), and the
/// one value the expectations, the entitlement claims and `match` take their document from.
///
/// Today the document a release device is judged to read is the origin's file at the location Apple
/// uses (the audit's verdict already fails a blocked crawler or a missing CDN copy through their
/// findings); what the crawler and the CDN make of it is recorded in `obstacles`, so that deciding with
/// the device's file (issue 32) changes this value alone.
public struct DeviceOutcome: Sendable {
    /// One file as a reader gets it, or why it gets none.
    public struct File: Sendable {
        /// The origin location read ("/.well-known/apple-app-site-association"); nil when none.
        public var location: String?
        /// The document read there; nil when none.
        public var document: AASADocument?
        /// Why there is no document; nil when there is one.
        public var absence: Absence?
    }

    /// Why a reader gets no file.
    public enum Absence: String, Sendable, Equatable {
        /// Apple can read a file at neither location (`LocationChoice`).
        case noReadableLocation = "no-readable-location"
        /// A `?mode=` entry is read from `/.well-known/` alone, and Apple cannot read it there (the
        /// host serves its file only at the root location, or at neither).
        case noWellKnownFile = "no-well-known-file"
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

    /// For entries without `?mode=`: the file Apple takes from the origin (`LocationChoice`).
    public var release: File
    /// For `?mode=developer` / `managed` entries: the device reads the origin's `/.well-known/` file
    /// itself, bypassing the CDN.
    public var direct: File
    /// What the crawler and the CDN make of `release` for devices that read the CDN, from their checks.
    public var obstacles: [Obstacle]

    /// `usedLocation`/`usedDocument`: Apple's choice and the document read there;
    /// `wellKnownDocument`: the `.well-known` document when Apple can read it; `findings`: the
    /// domain's own findings (the crawler's and the CDN's among them).
    public init(usedLocation: String?, usedDocument: AASADocument?, wellKnownDocument: AASADocument?, findings: [Finding]) {
        release = File(location: usedDocument == nil ? nil : usedLocation, document: usedDocument,
                       absence: usedDocument == nil ? .noReadableLocation : nil)
        direct = File(location: wellKnownDocument == nil ? nil : AASAFile.wellKnownPath, document: wellKnownDocument,
                      absence: wellKnownDocument == nil ? .noWellKnownFile : nil)
        let ids = Set(findings.map(\.id))
        obstacles = [(Obstacle.crawlerBlocked, CrawlerAccessCheck.blocksApple.id), (.cdnHasNoCopy, CDNCheck.missing.id),
                     (.cdnCopyStale, CDNCheck.stale.id)].filter { ids.contains($0.1) }.map(\.0)
    }

    /// The file an entry is decided with: `direct` for a `?mode=` entry, `release` otherwise.
    public func file(forModeEntry: Bool) -> File { forModeEntry ? direct : release }
}
