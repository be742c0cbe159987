import Foundation

/// What a release device (iOS 14+, macOS 11+, which read Apple's CDN, filled by Apple's crawler)
/// gets from a domain, in one word: the audit's one judgement of it (`DeviceOutcome.release`) said
/// for the reports (`init(_:)`, by `Auditor`), stored in the result (`DomainResult.deviceGets`) so
/// that every reporter opens a domain with it and none works it out again.
public enum DeviceGets: String, Sendable, Equatable, Codable, CaseIterable {
    /// Apple's CDN serves the file the origin serves at the location Apple uses.
    case file
    /// The file Apple reads at the origin; Apple's CDN, what devices read, was not checked
    /// (`--no-cdn`, or it could not be reached from this machine).
    case originFile = "origin-file"
    /// Apple's CDN serves a copy that differs from the origin's (`cdn.stale`): devices read that copy,
    /// even when the origin serves no file Apple can read any more.
    case staleCopy = "stale-copy"
    /// No file: the origin refuses Apple's crawler (`access.blocks-apple`), so the CDN has none to serve.
    case noFileCrawlerBlocked = "no-file-crawler-blocked"
    /// No file: Apple's CDN has no copy (`cdn.missing`) although the origin serves one Apple can read.
    case noFileCDNHasNoCopy = "no-file-cdn-no-copy"
    /// No file: Apple can read a file at neither location of the origin.
    case noFile = "no-file"

    /// True when devices get a file (the right one or not).
    public var getsAFile: Bool {
        switch self {
        case .file, .originFile, .staleCopy: return true
        case .noFileCrawlerBlocked, .noFileCDNHasNoCopy, .noFile: return false
        }
    }

    /// True when what devices get changes only once Apple's CDN fetches the file again: every case
    /// but the file itself (a fix at the origin reaches devices after the CDN's next fetch).
    public var waitsForCDNRefresh: Bool {
        switch self {
        case .file, .originFile: return false
        case .staleCopy, .noFileCrawlerBlocked, .noFileCDNHasNoCopy, .noFile: return true
        }
    }

    /// What `device`'s release file is, in one word. The crawler's refusal is named as the cause where
    /// the CDN has no copy because of it.
    public init(_ device: DeviceOutcome) {
        switch device.release.absence {
        case nil:
            if device.release.fromAppleCDN {
                self = device.obstacles.contains(.cdnCopyStale) ? .staleCopy : .file
            } else {
                self = .originFile
            }
        case .cdnCopyUnreadable?:
            // The CDN serves something else than the origin's file: devices read that.
            self = .staleCopy
        case .noReadableLocation?, .noWellKnownFile?:
            self = .noFile
        case .crawlerBlocked?:
            self = .noFileCrawlerBlocked
        case .cdnHasNoCopy?:
            if device.origin.document == nil {
                self = .noFile
            } else {
                self = device.obstacles.contains(.crawlerBlocked) ? .noFileCrawlerBlocked : .noFileCDNHasNoCopy
            }
        }
    }

    /// For a result that does not record it (a report written before `deviceGets` existed, a result
    /// built by hand): the same answer as `init(_:)`, read back from what the result holds:
    /// `usedLocation` (nil when Apple can read neither location),
    /// what the CDN served (`cdn`, nil when it was not asked) and the ids of the domain's own findings
    /// (the crawler's and the CDN's among them; a result built by hand may lack the CDN's).
    public init(usedLocation: String?, cdn: CDNResult?, domainFindingIDs ids: Set<String>) {
        let cdnAnswered = cdn.map { $0.error == nil && $0.httpStatus != nil } ?? false
        if ids.contains(CDNCheck.stale.id) || cdn?.matchesOrigin == false {
            // Also when the origin serves nothing Apple can read now: the CDN still serves its earlier copy.
            self = .staleCopy
        } else if ids.contains(CDNCheck.ok.id) || cdn?.matchesOrigin == true {
            self = .file
        } else if usedLocation == nil {
            self = .noFile
        } else if ids.contains(CrawlerAccessCheck.blocksApple.id) {
            // The crawler's refusal is the cause of the CDN's missing copy, or what it would cache.
            self = .noFileCrawlerBlocked
        } else if ids.contains(CDNCheck.missing.id) || cdnAnswered {
            self = .noFileCDNHasNoCopy
        } else {
            self = .originFile
        }
    }
}
