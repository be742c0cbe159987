import AASA

/// Checks the entries of the apps named with `--entitlements` against the file of the host Apple reads
/// for them: each entry's service must list the app (`applinks` a details entry, the others their
/// `apps` array). Entries with `?mode=` are read by the device straight from the origin's
/// `/.well-known/` location, not Apple's CDN; the others from the file Apple uses. Pure.
public enum EntitlementClaimCheck {
    /// The check's stable id, stored in each of its findings (`Finding.check`).
    public static let id = "entitlement"
    public static let applinksMissing = Rule("entitlement.applinks-missing", .error, check: id,
        meaning: "The app's entitlement has an applinks: entry for the host, but the file Apple reads for it has no applinks details entry for the app, so none of the app's universal links on the host open it.",
        fix: "Add the app ID (Team ID + \".\" + bundle ID) to appIDs in an applinks.details entry of that file, or remove the entry from the entitlement.")
    public static let webcredentialsMissing = Rule("entitlement.webcredentials-missing", .error, check: id,
        meaning: "The app's entitlement has a webcredentials: entry for the host, but the app is not in webcredentials.apps of the file Apple reads for it, so the app cannot share credentials with the site.",
        fix: "Add the app ID to \"webcredentials\": { \"apps\": [ … ] } in that file.")
    public static let appClipMissing = Rule("entitlement.appclip-missing", .error, check: id,
        meaning: "The entitlement has an appclips: entry for the host (Apple puts it in both the App Clip's and its full app's), but appclips.apps of the file Apple reads for it lists neither the App Clip nor, for a full app, an App Clip of it (an app ID made of the full app's, a dot and more, as Apple requires of an App Clip's).",
        fix: "Add the App Clip's app ID to \"appclips\": { \"apps\": [ … ] } in that file.")
    public static let activityMissing = Rule("entitlement.activitycontinuation-missing", .error, check: id,
        meaning: "The app's entitlement has an activitycontinuation: entry for the host, but the app is not in activitycontinuation.apps of the file Apple reads for it, so Handoff between the site and the app does not work.",
        fix: "Add the app ID to \"activitycontinuation\": { \"apps\": [ … ] } in that file.")
    public static let teamIDDrift = Rule("entitlement.team-id-drift", .error, check: id,
        meaning: "The file lists the app's bundle ID under another Team ID than the app's: the app was moved to another team (or the file copied from an old one), and Apple matches the whole app ID, so the app is not associated.",
        fix: "Replace the old Team ID with the app's own in the file (list both while builds signed by the old team are still in use).")
    public static let modeRootOnly = Rule("entitlement.mode-root-only", .error, check: id,
        meaning: "An entry with ?mode= is read by the device straight from the origin, and Apple's documentation names only https://HOST/.well-known/apple-app-site-association for it; this host serves its file only at the root location.",
        fix: "Serve the file at /.well-known/apple-app-site-association (the root location is a legacy fallback).")
    // An error: the entry does not work on the devices that use it, whatever the file would say once they get it.
    public static let unchecked = Rule("entitlement.unchecked", .error, check: id,
        meaning: "Devices get no file from the host an entitlement entry needs (Apple can read none there, Apple's CDN has no copy or an unreadable one, or the origin refuses Apple's crawler), so the entry does not work; the domain's other errors say why.",
        fix: "Fix the errors that keep devices from getting the file; the entry's service is checked once they get one.")
    public static let modeEntry = Rule("entitlement.mode-entry", .info, check: id,
        meaning: "An entry with ?mode=developer, ?mode=managed or ?mode=developer+managed works only on developer-mode devices (Associated Domains Development) or devices under MDM, which read the file straight from the origin, not Apple's CDN; other devices ignore the entry.",
        fix: "Nothing to fix for a development or managed build; for an App Store build add the entry without ?mode= as well.")
    public static let met = Rule("entitlement.met", .info, check: id,
        meaning: "Every entitlement entry that needs this host's file finds its app listed in it.",
        fix: "Nothing to fix.")

    public static let rules = [applinksMissing, webcredentialsMissing, appClipMissing, activityMissing, teamIDDrift, modeRootOnly,
                               unchecked, modeEntry, met]

    /// What the check sees of one host: which location Apple uses and its document, and the
    /// `.well-known` location's document when Apple can read it (for `?mode=` entries).
    public struct HostFiles {
        public var usedLocation: String?
        public var usedDocument: AASADocument?
        public var wellKnownDocument: AASADocument?
        public var rootUsable: Bool
        /// Why a plain entry's device gets no file, when `usedDocument` is nil.
        public var usedAbsence: DeviceOutcome.Absence?
        /// True when `usedDocument` is Apple's CDN copy and it differs from the origin's (`cdn.stale`):
        /// the messages then name the copy, not the origin's file.
        public var staleCDNCopy: Bool

        public init(usedLocation: String?, usedDocument: AASADocument?, wellKnownDocument: AASADocument?, rootUsable: Bool,
                    usedAbsence: DeviceOutcome.Absence? = nil, staleCDNCopy: Bool = false) {
            self.usedLocation = usedLocation
            self.usedDocument = usedDocument
            self.wellKnownDocument = wellKnownDocument
            self.rootUsable = rootUsable
            self.usedAbsence = usedAbsence
            self.staleCDNCopy = staleCDNCopy
        }

        /// From what a device gets (`DeviceOutcome`): `release` for plain entries (the CDN's copy where
        /// the CDN answered), `direct` for `?mode=`.
        public init(device: DeviceOutcome, rootUsable: Bool) {
            self.init(usedLocation: device.release.location, usedDocument: device.release.document,
                      wellKnownDocument: device.direct.document, rootUsable: rootUsable, usedAbsence: device.release.absence,
                      staleCDNCopy: device.release.fromAppleCDN && device.obstacles.contains(.cdnCopyStale))
        }
    }

    /// The findings for `claims` on `domain`, and one outcome per claim.
    public static func evaluate(_ claims: [EntitlementClaim], domain: String, files: HostFiles) -> (findings: [Finding], outcomes: [ClaimOutcome]) {
        var findings: [Finding] = []
        var outcomes: [ClaimOutcome] = []
        for claim in claims {
            let entry = claim.entry
            // A ?mode= entry is read by the device itself, straight from the origin: not "Apple" (its CDN).
            let reader = entry.mode == nil ? "Apple reads" : "the device reads"
            var resolution = entry.wildcard
                ? "\(entry.pattern) covers the subdomains of \(entry.host), not \(entry.host) itself; \(reader) \(entry.host)'s file for it"
                : "\(reader.prefix(1).uppercased() + reader.dropFirst()) \(entry.host)'s own file for it"
            let location: String?
            let document: AASADocument?
            if let mode = entry.mode {
                resolution += "; with ?mode=\(mode.rawValue) it fetches the file straight from the origin's /.well-known/, not Apple's CDN, "
                    + "and uses the entry \(mode.devices)"
                findings.append(modeEntry.finding("\(claim.entry.text) of \(claim.appID) works \(mode.devices); other devices ignore it."))
                location = files.wellKnownDocument == nil ? nil : AASAFile.wellKnownPath
                document = files.wellKnownDocument
            } else {
                location = files.usedLocation
                document = files.usedDocument
            }
            func outcome(_ finding: Finding, works: Bool) {
                findings.append(finding)
                outcomes.append(ClaimOutcome(appID: claim.appID, entry: entry.text, index: entry.index, service: entry.service,
                                             covers: entry.pattern, fileHost: domain, mode: entry.mode, resolution: resolution,
                                             location: location, works: works, reason: finding.message, findingID: finding.id))
            }
            guard let document else {
                if entry.mode != nil && files.rootUsable {
                    outcome(modeRootOnly.finding("\(entry.text) of \(claim.appID) fails: \(domain) serves its file only at the root location, "
                                                 + "and a ?mode= entry is read from \(AASAFile.wellKnownPath) alone."), works: false)
                } else {
                    let why = entry.mode == nil
                        ? (files.usedAbsence ?? .noReadableLocation).clause(domain: domain) : "the device can read no file from \(domain)"
                    outcome(unchecked.finding("\(entry.text) of \(claim.appID) does not work: \(why)."), works: false)
                }
                continue
            }
            // A stale CDN copy is what release devices read: name it, so the origin's file is not blamed.
            let copy = entry.mode == nil && files.staleCDNCopy ? "Apple's CDN copy of " : ""
            let listed: [String]
            if entry.service == .applinks {
                listed = URLMatcher(document, host: domain).appIDs
            } else {
                listed = document.root[entry.service.rawValue]?.objectValue?["apps"]?.arrayValue?.compactMap(\.stringValue) ?? []
            }
            // Apple has the appclips: entry written in both the App Clip's and the full app's entitlement, while
            // the file lists only the App Clip, whose app ID is the full app's, a dot and more
            // (Associating your App Clip with your website; Parent Application Identifiers Entitlement).
            let clip = entry.service == .appclips && !listed.contains(claim.appID)
                ? listed.first { $0.hasPrefix(claim.appID + ".") } : nil
            if listed.contains(claim.appID) || clip != nil {
                let who = clip.map { "\(claim.appID)'s App Clip \($0)" } ?? claim.appID
                outcomes.append(ClaimOutcome(appID: claim.appID, entry: entry.text, index: entry.index, service: entry.service,
                                             covers: entry.pattern, fileHost: domain, mode: entry.mode, resolution: resolution, location: location,
                                             works: true, reason: "\(who) has \(entry.service.requirement) in \(copy)\(domain)'s file (\(location ?? "")).",
                                             findingID: met.id))
                continue
            }
            let place = "The file \(reader) for \(entry.text) (\(copy)https://\(domain)\(location ?? ""))"
            let drift = TeamIDDrift.others(of: claim.appID, in: listed)
            if !drift.isEmpty {
                outcome(teamIDDrift.finding("\(place) \(TeamIDDrift.phrase(appID: claim.appID, others: drift)): "
                                            + "the app \(claim.appID) has no \(entry.service.rawValue) association with \(entry.pattern)."), works: false)
                continue
            }
            let rule: Rule
            switch entry.service {
            case .applinks: rule = applinksMissing
            case .webcredentials: rule = webcredentialsMissing
            case .appclips: rule = appClipMissing
            case .activitycontinuation: rule = activityMissing
            }
            let what: String
            switch entry.service {
            case .applinks: what = "has no applinks details entry for \(claim.appID)"
            case .appclips: what = "lists neither \(claim.appID) nor an App Clip of it (\(claim.appID).…) in appclips.apps"
            default: what = "does not list \(claim.appID) in \(entry.service.rawValue).apps"
            }
            let has = listed.isEmpty ? "it lists no app there" : "it lists \(listed.joined(separator: ", "))"
            outcome(rule.finding("\(place) \(what) (\(has)), so the entry does not work."), works: false)
        }
        if !claims.isEmpty, !outcomes.contains(where: { !$0.works }) {
            findings.append(met.finding(metMessage(count: claims.count, domain: domain)))
        }
        return (findings, outcomes)
    }
}

extension EntitlementClaimCheck: DomainCheck {
    /// The claims on this host against its files; nothing (and no outcomes) when no app claims it.
    public static func check(_ context: DomainCheckContext) -> DomainCheckOutput {
        guard !context.claims.isEmpty else { return DomainCheckOutput() }
        let files = HostFiles(device: context.device, rootUsable: context.root.result.usable)
        let checked = evaluate(context.claims, domain: context.domain, files: files)
        return DomainCheckOutput(findings: checked.findings, facts: .claims(checked.outcomes))
    }
}

extension EntitlementClaimCheck {
    /// `entitlement.met`'s message for `count` entries.
    static func metMessage(count: Int, domain: String) -> String {
        count == 1 ? "The entitlement entry that needs \(domain)'s file finds its app in it."
            : count == 0 ? "No entitlement entry needs \(domain)'s file." : "All \(count) entitlement entries that need \(domain)'s file find their app in it."
    }
}
