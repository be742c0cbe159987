import AASA

/// What one entitlement entry of one app came to on the host whose file Apple reads for it: judged by
/// `EntitlementClaimCheck` in the audit of that host, stored in `DomainResult.claims`, gathered per
/// app into `AuditReport.apps`.
public struct ClaimOutcome: Sendable, Equatable, Codable {
    /// The app's ID, `TEAMID.bundle.id`.
    public var appID: String
    /// The entry as written (`applinks:*.example.com?mode=developer`).
    public var entry: String
    /// Its 0-based index in the entitlement's array.
    public var index: Int
    public var service: AssociatedDomainService
    /// The hosts the entry covers: `example.com`, or `*.example.com` (subdomains only).
    public var covers: String
    /// The host whose file was read for it (`example.com` for `*.example.com`).
    public var fileHost: String
    /// `?mode=...`: read straight from the origin's /.well-known/, not from Apple's CDN.
    public var mode: AssociatedDomainMode?
    /// Why that host and that location: a sentence.
    public var resolution: String
    /// The location whose file was judged (nil when Apple can read none for this entry).
    public var location: String?
    /// Whether the service works for the app on the covered hosts, as far as the file says.
    public var works: Bool
    /// Why not, or what holds: the message of the finding that decided it.
    public var reason: String
    /// The id of that finding (`entitlement.applinks-missing` ...).
    public var findingID: String

    public init(appID: String, entry: String, index: Int, service: AssociatedDomainService, covers: String, fileHost: String,
                mode: AssociatedDomainMode?, resolution: String, location: String?, works: Bool, reason: String, findingID: String) {
        self.appID = appID
        self.entry = entry
        self.index = index
        self.service = service
        self.covers = covers
        self.fileHost = fileHost
        self.mode = mode
        self.resolution = resolution
        self.location = location
        self.works = works
        self.reason = reason
        self.findingID = findingID
    }
}

/// The report's section for one app named with `--entitlements`: its app ID, its entries and what
/// each came to. Report-level and small (one line per entry).
public struct AppResult: Sendable, Equatable, Codable {
    /// Where the entitlements were read.
    public var source: String
    /// What kind of file held them (`xml-plist`, `binary-plist`, `mach-o`, `app`, `ipa`).
    public var kind: String
    public var appID: String
    /// Where the app ID came from: the entitlement or `--app-id`.
    public var appIDSource: String
    /// One outcome per usable entry, in the entitlement's order; an entry whose host was not audited
    /// (an interrupted run) is left out and counted in `notAudited`.
    public var entries: [ClaimOutcome]
    /// Entries whose host was not audited (the run was interrupted).
    public var notAudited: Int?
    /// Entries that could not be used (also in the report's `inputErrors`).
    public var skippedEntries: Int
    /// Findings about the app itself (its provisioning profile).
    public var findings: [Finding]
    /// The entries only development devices use (`?mode=developer`, `?mode=developer+managed`), as
    /// written, which a release audit (without `--include-development`) sets apart: release devices
    /// ignore them, so they were not checked and fail nothing. Nil when there are none.
    public var developmentEntries: [String]?

    public init(source: String, kind: String, appID: String, appIDSource: String, entries: [ClaimOutcome], notAudited: Int? = nil,
                skippedEntries: Int = 0, findings: [Finding] = [], developmentEntries: [String]? = nil) {
        self.source = source
        self.kind = kind
        self.appID = appID
        self.appIDSource = appIDSource
        self.entries = entries
        self.notAudited = notAudited
        self.skippedEntries = skippedEntries
        self.findings = findings
        self.developmentEntries = developmentEntries
    }

    /// Whether every entry works and the app has no error of its own.
    public var works: Bool { entries.allSatisfy(\.works) && !findings.contains { $0.severity == .error } && (notAudited ?? 0) == 0 }

    /// The app sections for `apps`, from the domain results as they come (`add`), in any order and
    /// one at a time, so a caller streaming results need not keep them.
    public struct Builder: Sendable {
        private let apps: [AppClaims]
        /// Outcomes by app index, then by entry index.
        private var outcomes: [[Int: ClaimOutcome]]

        public init(apps: [AppClaims]) {
            self.apps = apps
            outcomes = Array(repeating: [:], count: apps.count)
        }

        /// Takes the outcomes `result` holds.
        public mutating func add(_ result: DomainResult) {
            for outcome in result.claims ?? [] {
                for (index, app) in apps.enumerated() where app.appID.description == outcome.appID
                    && app.entries.contains(where: { $0.index == outcome.index && $0.text == outcome.entry }) {
                    outcomes[index][outcome.index] = outcome
                }
            }
        }

        /// The sections, one per app, in the order the apps were given.
        public func build() -> [AppResult] {
            apps.enumerated().map { index, app in
                let found = app.entries.compactMap { outcomes[index][$0.index] }
                let missing = app.entries.count - found.count
                return AppResult(source: app.source, kind: app.kind, appID: app.appID.description, appIDSource: app.appIDSource,
                                 entries: found, notAudited: missing > 0 ? missing : nil, skippedEntries: app.problems.count,
                                 findings: app.findings,
                                 developmentEntries: app.developmentEntries.isEmpty ? nil : app.developmentEntries.map(\.text))
            }
        }
    }
}
